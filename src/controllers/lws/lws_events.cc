// File: controllers/lws/lws_events.cc
#include "controllers/lws/lws_events.h"

#include <initializer_list>

namespace lws::controllers {

namespace {

std::string Concat(std::initializer_list<std::string_view> parts) {
  std::string out;
  for (std::string_view part : parts) out.append(part);
  return out;
}

// "<L>-<index>", the name of the leader pod of group `index`.
std::string LeaderPodName(std::string_view lws_name, std::int64_t index) {
  return Concat({lws_name, "-", std::to_string(index)});
}

}  // namespace

std::string NewLwsRevisionNote(std::string_view key) {
  return Concat({"Creating revision with key ", key, " for a newly created LeaderWorkerSet"});
}

std::string MissingRevisionNote(std::string_view key) {
  return Concat({"Creating missing revision with key ", key, " for existing LeaderWorkerSet"});
}

std::string UpdatedRevisionNote(std::string_view key) {
  return Concat({"Creating revision with key ", key, " for updated LWS"});
}

std::string CreatedLeaderStatefulSetNote(std::string_view lws_name, std::string_view leaders) {
  return Concat({"Created leader ", leaders, " ", lws_name});
}

std::string FailedCreateLeaderNote(std::string_view lws_name, std::string_view error,
                                   std::string_view leaders) {
  return Concat({"Failed to create leader ", leaders, " ", lws_name, ": ", error});
}

std::string FailedUpdateLeaderNote(std::string_view lws_name, std::string_view error,
                                   std::string_view leaders) {
  return Concat({"Failed to update leader ", leaders, " ", lws_name, ": ", error});
}

std::string GroupsUpdatingNote(std::int32_t new_partition, std::int32_t old_partition) {
  // int64 so that old_partition == INT32_MIN cannot overflow.
  const std::int64_t last = static_cast<std::int64_t>(old_partition) - 1;
  if (last == new_partition) return "Updating replica " + std::to_string(new_partition);
  return Concat({"Updating replicas ", std::to_string(new_partition), " to ", std::to_string(last),
                 " (inclusive)"});
}

std::string FailedCreateServiceNote(std::string_view error) {
  return Concat({"Failed to create headless service for error: ", error});
}

std::string DeletingSurgeNote(std::string_view lws_name, std::int32_t from,
                              std::int32_t sts_replicas) {
  const std::int64_t last = static_cast<std::int64_t>(sts_replicas) - 1;
  if (from == last) return "deleting surge replica " + LeaderPodName(lws_name, from);
  return Concat({"deleting surge replicas from ", LeaderPodName(lws_name, from), " to ",
                 LeaderPodName(lws_name, last)});
}

std::string ConditionEventNote(std::string_view message, std::int32_t ready,
                               std::int32_t replicas) {
  return Concat({message, ", with ", std::to_string(ready), " groups ready of total ",
                 std::to_string(replicas), " groups"});
}

}  // namespace lws::controllers
