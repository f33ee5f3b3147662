// The Lease record codec and the election decision (lease.h).
#include "operator/lease.h"

#include <fmt/format.h>

#include "api/field.h"

namespace lws::op {
namespace {

// spec.<field> as an int32 (absent or null: 0).
Status ReadInt(const Json& spec, const char* field, const std::string& lease, int* out) {
  auto it = spec.find(field);
  if (it == spec.end() || it->is_null()) return Status::Ok();
  if (!it->is_number_integer() || it->get<std::int64_t>() < INT32_MIN ||
      it->get<std::int64_t>() > INT32_MAX) {
    return Status::BadRequest(
        fmt::format("Lease {}: spec.{}: want a 32-bit integer, got {}", lease, field, it->dump()));
  }
  *out = it->get<int>();
  return Status::Ok();
}

// spec.<field> as a MicroTime (absent, null or "": unset).
Status ReadTime(const Json& spec, const char* field, const std::string& lease,
                std::optional<Time>* out) {
  auto it = spec.find(field);
  if (it == spec.end() || it->is_null()) return Status::Ok();
  if (!it->is_string()) {
    return Status::BadRequest(
        fmt::format("Lease {}: spec.{}: want a time string, got {}", lease, field, it->dump()));
  }
  if (it->get_ref<const std::string&>().empty()) return Status::Ok();
  Result<Time> t = ParseRfc3339(it->get_ref<const std::string&>());
  if (!t.ok()) {
    return Status::BadRequest(
        fmt::format("Lease {}: spec.{}: {}", lease, field, t.status().message()));
  }
  *out = TruncateToMicros(*t);
  return Status::Ok();
}

std::string LeaseName(const Json& lease) {
  const Json* meta = lease.is_object() && lease.contains("metadata") ? &lease["metadata"] : nullptr;
  if (meta == nullptr || !meta->is_object()) return "\"\"";
  // A malformed Lease must not throw while its name is only wanted for a message.
  std::string ns = api::StringMember(*meta, "namespace");
  std::string name = api::StringMember(*meta, "name");
  return "\"" + (ns.empty() ? name : ns + "/" + name) + "\"";
}

}  // namespace

Result<LeaderElectionRecord> RecordFromLease(const Json& lease) {
  const std::string name = LeaseName(lease);
  LeaderElectionRecord record;
  if (!lease.is_object()) return Status::BadRequest("Lease: not a JSON object");
  auto spec_it = lease.find("spec");
  if (spec_it == lease.end() || spec_it->is_null()) return record;
  const Json& spec = *spec_it;
  if (!spec.is_object()) return Status::BadRequest("Lease " + name + ": spec: want an object");
  if (auto it = spec.find("holderIdentity"); it != spec.end() && !it->is_null()) {
    if (!it->is_string()) {
      return Status::BadRequest("Lease " + name + ": spec.holderIdentity: want a string, got " +
                                it->dump());
    }
    record.holder_identity = it->get<std::string>();
  }
  RETURN_IF_ERROR(ReadInt(spec, "leaseDurationSeconds", name, &record.lease_duration_seconds));
  RETURN_IF_ERROR(ReadInt(spec, "leaseTransitions", name, &record.leader_transitions));
  RETURN_IF_ERROR(ReadTime(spec, "acquireTime", name, &record.acquire_time));
  RETURN_IF_ERROR(ReadTime(spec, "renewTime", name, &record.renew_time));
  return record;
}

// Go writes every field of the spec it sets, holderIdentity even when empty (a *string), so a
// released Lease says `holderIdentity: ""` as upstream's does.
Json LeaseSpecFromRecord(const LeaderElectionRecord& record) {
  Json spec = Json::object();
  spec["holderIdentity"] = record.holder_identity;
  spec["leaseDurationSeconds"] = record.lease_duration_seconds;
  if (record.acquire_time) spec["acquireTime"] = FormatRfc3339Micro(*record.acquire_time);
  if (record.renew_time) spec["renewTime"] = FormatRfc3339Micro(*record.renew_time);
  spec["leaseTransitions"] = record.leader_transitions;
  return spec;
}

Json NewLease(const std::string& ns, const std::string& name, const LeaderElectionRecord& record) {
  return Json{{"apiVersion", kLeases.ApiVersion()},
              {"kind", "Lease"},
              {"metadata", {{"namespace", ns}, {"name", name}}},
              {"spec", LeaseSpecFromRecord(record)}};
}

std::string LeaderIdentity(std::string_view hostname, Rng* rng) {
  std::uint64_t high = rng->Next();
  std::uint64_t low = rng->Next();
  high = (high & ~0xF000ULL) | 0x4000ULL;                       // version 4
  low = (low & 0x3FFFFFFFFFFFFFFFULL) | 0x8000000000000000ULL;  // RFC 4122 variant
  return fmt::format("{}_{:08x}-{:04x}-{:04x}-{:04x}-{:012x}", hostname, high >> 32,
                     (high >> 16) & 0xFFFF, high & 0xFFFF, low >> 48, low & 0xFFFFFFFFFFFFULL);
}

Time TruncateToMicros(Time t) {
  return Time(std::chrono::duration_cast<std::chrono::microseconds>(t.time_since_epoch()));
}

std::string_view LeaseActionName(LeaseAction action) {
  switch (action) {
    case LeaseAction::kWait:
      return "wait";
    case LeaseAction::kCreate:
      return "create";
    case LeaseAction::kAcquire:
      return "acquire";
    case LeaseAction::kRenew:
      return "renew";
    case LeaseAction::kLost:
      return "lost";
  }
  return "?";
}

bool LeaseValid(const LeaderElectionRecord& record, Time observed_time, Time now) {
  return observed_time + std::chrono::seconds(record.lease_duration_seconds) > now;
}

bool RenewDeadlinePassed(const Leadership& self, Time now) {
  return self.leading && now >= self.renew_deadline_at;
}

LeaseDecision DecideLease(const LeaseObservation& observation, const Leadership& self, Time now,
                          const LeaderElectionOptions& options) {
  using State = LeaseObservation::State;
  if (RenewDeadlinePassed(self, now)) {
    return {LeaseAction::kLost, {}, "the Lease was not renewed before the renew deadline"};
  }
  if (observation.state == State::kUnreadable)
    return {LeaseAction::kWait, {}, "the Lease could not be read"};

  const Time at = TruncateToMicros(now);
  LeaderElectionRecord mine;
  mine.holder_identity = options.identity;
  // Whole seconds, as Go's int(LeaseDuration / time.Second).
  mine.lease_duration_seconds = static_cast<int>(
      std::chrono::duration_cast<std::chrono::seconds>(options.lease_duration).count());
  mine.acquire_time = at;
  mine.renew_time = at;
  if (observation.state == State::kMissing) return {LeaseAction::kCreate, mine, ""};

  const LeaderElectionRecord& current = observation.record;
  if (!current.holder_identity.empty() && current.holder_identity != options.identity &&
      LeaseValid(current, observation.observed_time, now)) {
    std::string why = "the Lease is held by " + current.holder_identity + " and has not expired";
    return {self.leading ? LeaseAction::kLost : LeaseAction::kWait, {}, std::move(why)};
  }
  if (current.holder_identity == options.identity) {
    mine.acquire_time = current.acquire_time;
    mine.leader_transitions = current.leader_transitions;
    return {LeaseAction::kRenew, mine, ""};
  }
  mine.leader_transitions = current.leader_transitions + 1;
  return {LeaseAction::kAcquire, mine, ""};
}

LeaderElectionRecord ReleasedRecord(const LeaderElectionRecord& held, Time now) {
  LeaderElectionRecord released;
  released.lease_duration_seconds = 1;
  released.acquire_time = TruncateToMicros(now);
  released.renew_time = released.acquire_time;
  released.leader_transitions = held.leader_transitions;
  return released;
}

}  // namespace lws::op
