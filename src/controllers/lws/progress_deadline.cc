#include "controllers/lws/progress_deadline.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <map>

#include "api/go_duration.h"
#include "api/rollout_annotations.h"

namespace lws::controllers {
namespace {

// The scheduler's message on a pod it could not place (PodScheduled=False), "" otherwise.
std::string UnschedulableMessage(const api::Pod& pod) {
  if (!pod.spec.node_name.empty()) return "";
  for (const api::PodCondition& c : pod.status.conditions) {
    if (c.type == "PodScheduled" && c.status == "False") return c.message;
  }
  return "";
}

bool GroupReady(const api::LeaderWorkerSet& lws, const std::vector<const api::Pod*>& pods) {
  if (static_cast<std::int64_t>(pods.size()) < lws.Size()) return false;
  for (const api::Pod* pod : pods) {
    if (!pod->IsRunningAndReady()) return false;
  }
  return true;
}

std::string Join(const std::vector<std::string>& items) {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i) out += (i ? ", " : "") + items[i];
  return out;
}

}  // namespace

ProgressCheck CheckProgress(const ProgressDeadlineInputs& in, const std::string& signature,
                            bool complete) {
  ProgressCheck check;
  if (complete) return check;
  if (!in.mark || in.mark->signature != signature) {
    check.mark = ProgressMark{signature, in.now};
    check.recheck_after = in.deadline;
    return check;
  }
  check.mark = in.mark;
  const Duration elapsed = in.now - in.mark->since;
  if (elapsed >= in.deadline) {
    check.exceeded = true;
  } else {
    check.recheck_after = in.deadline - elapsed;
  }
  return check;
}

std::string ProgressSignature(const std::string& revision_key,
                              const std::vector<const api::Pod*>& leaders,
                              const GroupPodsLookup& group_pods) {
  int updated = 0, pods = 0, bound = 0, ready = 0;
  for (const api::Pod* leader : leaders) {
    if (leader->metadata.Label(api::kRevisionLabel) == revision_key) ++updated;
    for (const api::Pod* pod : group_pods(leader->metadata.Label(api::kGroupIndexLabel))) {
      ++pods;
      if (!pod->spec.node_name.empty()) ++bound;
      if (pod->IsRunningAndReady()) ++ready;
    }
  }
  return fmt::format("{} groups={} updated={} pods={} bound={} ready={}", revision_key,
                     leaders.size(), updated, pods, bound, ready);
}

std::string StalledMessage(const api::LeaderWorkerSet& lws, Duration deadline,
                           const std::vector<const api::Pod*>& leaders,
                           const GroupPodsLookup& group_pods) {
  std::map<std::int64_t, const api::Pod*> by_index;
  for (const api::Pod* leader : leaders) {
    const std::string& text = leader->metadata.Label(api::kGroupIndexLabel);
    char* end = nullptr;
    const long long index = std::strtoll(text.c_str(), &end, 10);
    if (!text.empty() && *end == '\0') by_index[index] = leader;
  }
  std::vector<std::string> waiting;
  std::string reason;
  // Groups below replicas, and surge groups above it.
  const std::int64_t upper =
      std::max<std::int64_t>(lws.Replicas(), by_index.empty() ? 0 : by_index.rbegin()->first + 1);
  for (std::int64_t i = 0; i < upper; ++i) {
    auto it = by_index.find(i);
    std::vector<const api::Pod*> pods;
    if (it != by_index.end()) pods = group_pods(std::to_string(i));
    if (it != by_index.end() && GroupReady(lws, pods)) continue;
    waiting.push_back(std::to_string(i));
    for (const api::Pod* pod : pods) {
      std::string message = UnschedulableMessage(*pod);
      if (reason.empty() && !message.empty()) {
        reason = "; pod " + pod->metadata.name + " is unschedulable: " + message;
      }
    }
  }
  std::string groups =
      waiting.empty() ? "every group is ready"
                      : (waiting.size() == 1 ? "group " : "groups ") + Join(waiting) + " not ready";
  return "LeaderWorkerSet " + lws.metadata.name + " has made no progress for " +
         api::FormatGoDuration(deadline) + " (" + api::kProgressDeadlineAnnotation +
         "): " + groups + reason;
}

}  // namespace lws::controllers
