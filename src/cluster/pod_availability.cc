#include "cluster/pod_availability.h"

#include <algorithm>

namespace lws::cluster {

std::optional<Time> PodReadySince(const api::Pod& pod) {
  if (!pod.IsRunningAndReady()) return std::nullopt;
  const api::PodCondition* ready = pod.status.FindCondition("Ready");
  if (ready == nullptr || ready->last_transition_time.empty()) return std::nullopt;
  Result<Time> since = ParseRfc3339(ready->last_transition_time);
  if (!since.ok()) return std::nullopt;
  return *since;
}

bool IsPodAvailable(const api::Pod& pod, std::int32_t min_ready_seconds, Time now) {
  if (!pod.IsRunningAndReady()) return false;
  if (min_ready_seconds <= 0) return true;
  std::optional<Time> since = PodReadySince(pod);
  // Strictly after, as upstream's LastTransitionTime.Add(minReady).Before(now).
  return since && *since + std::chrono::seconds(min_ready_seconds) < now;
}

bool IsPodActive(const api::Pod& pod) {
  return !pod.status.IsTerminal() && !pod.metadata.IsDeleting();
}

std::optional<Duration> AvailableWait(const std::vector<std::shared_ptr<const api::Pod>>& pods,
                                      std::int32_t min_ready_seconds, Time now) {
  if (min_ready_seconds <= 0) return std::nullopt;
  std::optional<Duration> shortest;
  for (const auto& shared : pods) {
    const api::Pod& pod = *shared;
    if (!pod.IsRunningAndReady() || IsPodAvailable(pod, min_ready_seconds, now)) continue;
    std::optional<Time> since = PodReadySince(pod);
    // Available once strictly past since + minReady: one second after that instant.
    Duration wait = since ? *since + std::chrono::seconds(min_ready_seconds + 1) - now
                          : Duration(std::chrono::seconds(min_ready_seconds));
    wait = std::max(wait, Duration(std::chrono::seconds(1)));
    if (!shortest || wait < *shortest) shortest = wait;
  }
  return shortest;
}

}  // namespace lws::cluster
