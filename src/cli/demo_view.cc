#include "cli/demo_view.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>

#include "api/intstr.h"

namespace lws::cli {

namespace {

// A percentage that does not parse counts as 0: the API server's validation rejects such an
// LWS, so the view never meets one in practice and must not fail on it either.
std::int32_t Scaled(const api::IntOrString& value, std::int32_t total, bool round_up) {
  Result<std::int64_t> scaled = api::GetScaledValueFromIntOrPercent(value, total, round_up);
  return scaled.ok() ? static_cast<std::int32_t>(*scaled) : 0;
}

void ReadRolloutStrategy(const api::LeaderWorkerSet& lws, RolloutView& view) {
  // The CRD defaults (maxUnavailable 1, maxSurge 0, partition 0) when the strategy is absent.
  view.max_unavailable = std::min(1, view.replicas);
  const auto& config = lws.spec.rollout_strategy.rolling_update_configuration;
  if (!config.has_value()) return;
  view.partition = config->partition.value_or(0);
  view.max_unavailable = Scaled(config->max_unavailable, view.replicas, false);
  view.max_surge = std::min(Scaled(config->max_surge, view.replicas, true), view.replicas);
}

void ReadLeaderSet(const api::StatefulSet& sts, RolloutView& view) {
  view.sts_found = true;
  view.sts_replicas = sts.spec.replicas.value_or(1);
  const auto& rolling = sts.spec.update_strategy.rolling_update;
  view.sts_partition = rolling.has_value() ? rolling->partition.value_or(0) : 0;
  view.revision = sts.metadata.Label(api::kRevisionLabel);
}

std::optional<std::int32_t> GroupIndexOf(const api::Pod& pod) {
  std::string text = pod.metadata.Label(api::kGroupIndexLabel);
  std::int32_t index = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), index);
  if (error != std::errc() || end != text.data() + text.size() || index < 0) return std::nullopt;
  return index;
}

// The workers of a group are up when the worker StatefulSet named after the leader pod, and
// owned by this very pod (a replaced leader's old set lingers until it is garbage-collected),
// has all its replicas available.
bool WorkersAvailable(const api::Pod& leader, const RolloutObjects& objects, std::int32_t size) {
  if (size <= 1) return true;
  auto it = objects.worker_sets.find(leader.metadata.name);
  if (it == objects.worker_sets.end()) return false;
  const api::StatefulSet& workers = it->second;
  const api::OwnerReference* owner = workers.metadata.ControllerRef();
  if (owner != nullptr && owner->uid != leader.metadata.uid) return false;
  if (workers.metadata.IsDeleting()) return false;
  return workers.spec.replicas.value_or(1) == workers.status.available_replicas;
}

GroupView ViewGroup(std::int32_t index, const api::Pod* leader, const RolloutObjects& objects,
                    const RolloutView& view) {
  GroupView group;
  group.index = index;
  group.surge = index >= view.replicas;
  if (leader == nullptr) return group;
  if (view.sts_found && !view.revision.empty()) {
    bool same = leader->metadata.Label(api::kRevisionLabel) == view.revision;
    group.revision = same ? GroupRevision::kNew : GroupRevision::kOld;
  }
  if (leader->metadata.IsDeleting()) {
    group.state = GroupState::kTerminating;
  } else if (leader->IsRunningAndReady() && WorkersAvailable(*leader, objects, view.size)) {
    group.state = GroupState::kReady;
  } else {
    group.state = GroupState::kStarting;
  }
  return group;
}

}  // namespace

bool RolloutView::HasCondition(const std::string& type) const {
  return std::find(true_conditions.begin(), true_conditions.end(), type) != true_conditions.end();
}

int RolloutView::ReadyGroups() const {
  return static_cast<int>(std::count_if(groups.begin(), groups.end(), [](const GroupView& g) {
    return g.state == GroupState::kReady;
  }));
}

int RolloutView::SurgeGroups() const {
  return static_cast<int>(std::count_if(groups.begin(), groups.end(), [](const GroupView& g) {
    return g.surge && g.state != GroupState::kMissing;
  }));
}

RolloutView BuildRolloutView(const RolloutObjects& objects) {
  const api::LeaderWorkerSet& lws = objects.lws;
  RolloutView view;
  view.replicas = lws.Replicas();
  view.size = lws.Size();
  ReadRolloutStrategy(lws, view);
  view.generation = lws.metadata.generation;
  view.observed_generation = lws.status.observed_generation;
  view.ready_replicas = lws.status.ready_replicas;
  view.updated_replicas = lws.status.updated_replicas;
  for (const api::Condition& condition : lws.status.conditions) {
    if (condition.status == "True") view.true_conditions.push_back(condition.type);
  }
  if (objects.leader_set.has_value()) ReadLeaderSet(*objects.leader_set, view);

  // std::map: groups come out in index order; a second pod claiming an index is ignored.
  std::map<std::int32_t, const api::Pod*> leaders;
  for (const api::Pod& pod : objects.leader_pods) {
    if (std::optional<std::int32_t> index = GroupIndexOf(pod)) leaders.emplace(*index, &pod);
  }
  std::int32_t count = std::max(view.replicas, view.sts_found ? view.sts_replicas : 0);
  if (!leaders.empty()) count = std::max(count, leaders.rbegin()->first + 1);
  for (std::int32_t index = 0; index < count; ++index) {
    auto it = leaders.find(index);
    view.groups.push_back(
        ViewGroup(index, it == leaders.end() ? nullptr : it->second, objects, view));
  }
  return view;
}

std::string RolloutBlocker(const RolloutView& view, const std::string& old_revision) {
  if (view.observed_generation < view.generation) {
    return fmt::format("the controller has not observed generation {} (status is at {})",
                       view.generation, view.observed_generation);
  }
  if (!view.sts_found) return "the leader StatefulSet does not exist";
  if (view.revision.empty() || view.revision == old_revision) {
    return "the leader StatefulSet is still on the old revision " + old_revision;
  }
  if (view.sts_partition != view.partition) {
    return fmt::format("the leader StatefulSet's partition is {}, not {}", view.sts_partition,
                       view.partition);
  }
  if (view.sts_replicas != view.replicas) {
    return fmt::format("the leader StatefulSet has {} replicas, not {}", view.sts_replicas,
                       view.replicas);
  }
  for (const GroupView& group : view.groups) {
    if (group.surge) return fmt::format("surge group {} still exists", group.index);
    if (group.index < view.partition) continue;  // below a user partition groups stay old
    if (group.revision != GroupRevision::kNew)
      return fmt::format("group {} is not updated", group.index);
    if (group.state != GroupState::kReady) return fmt::format("group {} is not ready", group.index);
  }
  if (static_cast<std::int32_t>(view.groups.size()) < view.replicas) return "groups are missing";
  if (!view.HasCondition("Available")) return "the LeaderWorkerSet is not Available";
  if (view.HasCondition("UpdateInProgress")) return "UpdateInProgress is still True";
  return "";
}

bool RolloutComplete(const RolloutView& view, const std::string& old_revision) {
  return RolloutBlocker(view, old_revision).empty();
}

void RolloutStats::Observe(const RolloutView& view, Time now) {
  end_ = now;
  int ready = view.ReadyGroups();
  min_ready_ = min_ready_ < 0 ? ready : std::min(min_ready_, ready);
  max_surge_ = std::max(max_surge_, view.SurgeGroups());
}

std::string RolloutStats::Summary(const RolloutView& last) const {
  int floor = last.replicas - last.max_unavailable;
  std::string kept = min_ready_ >= floor ? "never below" : "FELL BELOW";
  return fmt::format(
      "rollout complete in {}\n"
      "  fewest ready groups: {} of {}, {} replicas - maxUnavailable = {}\n"
      "  most surge groups:   {} (maxSurge {})\n",
      FormatElapsed(Elapsed()), std::max(min_ready_, 0), last.replicas, kept, floor, max_surge_,
      last.max_surge);
}

std::string FormatElapsed(Duration d) {
  double seconds = std::chrono::duration<double>(d).count();
  if (seconds < 60) return fmt::format("{:.1f}s", seconds);
  int minutes = static_cast<int>(seconds / 60);
  return fmt::format("{}m{:04.1f}s", minutes, seconds - 60.0 * minutes);
}

}  // namespace lws::cli
