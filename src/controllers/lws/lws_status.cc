#include "controllers/lws/lws_status.h"

#include <algorithm>
#include <charconv>

#include "api/codec.h"
#include "api/group_restarts.h"
#include "controllers/group/restart_budget.h"
#include "controllers/group/worker_statefulset.h"
#include "controllers/lws/failure_policy.h"
#include "controllers/lws/lws_events.h"
#include "controllers/lws/own_conditions.h"
#include "controllers/lws/surge_fallback.h"

namespace lws::controllers {

namespace {

// strconv.Atoi of the group-index label; nullopt when it does not parse.
std::optional<std::int32_t> GroupIndex(const api::ObjectMeta& meta) {
  const std::string& text = meta.Label(api::kGroupIndexLabel);
  std::int32_t value = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (text.empty() || ec != std::errc() || ptr != end) return std::nullopt;
  return value;
}

// Upstream SortByIndex: slot i holds the last object whose index is i; out-of-range dropped.
template <class T>
std::vector<const T*> ByIndex(const std::vector<const T*>& objects, std::int32_t length) {
  std::vector<const T*> slots(length, nullptr);
  for (const T* object : objects) {
    auto index = GroupIndex(object->metadata);
    if (index && *index >= 0 && *index < length) slots[*index] = object;
  }
  return slots;
}

}  // namespace

std::vector<GroupState> GroupStates(const api::LeaderWorkerSet& lws,
                                    const std::string& revision_key, std::int32_t sts_replicas,
                                    const std::vector<const api::Pod*>& leaders,
                                    const std::vector<const api::StatefulSet*>& statefulsets) {
  std::vector<GroupState> states(std::max<std::int32_t>(0, sts_replicas));
  const bool no_workers = lws.Size() == 1;
  auto pods = ByIndex(leaders, sts_replicas);
  auto sets = ByIndex(statefulsets, sts_replicas);
  for (std::int32_t i = 0; i < sts_replicas; ++i) {
    const std::string name = lws.metadata.name + "-" + std::to_string(i);
    if (pods[i] == nullptr || pods[i]->metadata.name != name) continue;
    if (!no_workers && (sets[i] == nullptr || sets[i]->metadata.name != name)) continue;
    bool ready = PodRunningAndReady(*pods[i]);
    bool updated = pods[i]->metadata.Label(api::kRevisionLabel) == revision_key;
    if (!no_workers) {
      ready = ready && StatefulSetReady(*sets[i]);
      updated = updated && sets[i]->metadata.Label(api::kRevisionLabel) == revision_key;
    }
    states[i] = GroupState{ready, updated};
  }
  return states;
}

bool ExclusiveConditionTypes(const std::string& a, const std::string& b) {
  auto pair = [&](const std::string& x, const std::string& y) {
    return (a == x && b == y) || (a == y && b == x);
  };
  return pair(api::kConditionAvailable, api::kConditionProgressing) ||
         pair(api::kConditionAvailable, api::kConditionUpdateInProgress);
}

api::Condition MakeCondition(const std::string& type, std::int64_t generation,
                             const std::string& now) {
  api::Condition c;
  c.type = type;
  c.status = "True";
  c.observed_generation = generation;
  c.last_transition_time = now;
  if (type == api::kConditionAvailable) {
    c.reason = "AllGroupsReady";
    c.message = "All replicas are ready";
  } else if (type == api::kConditionUpdateInProgress) {
    c.reason = "GroupsUpdating";
    c.message = "Rolling Upgrade is in progress";
  } else {
    c.type = api::kConditionProgressing;
    c.reason = "GroupsProgressing";
    c.message = "Replicas are progressing";
  }
  return c;
}

bool SetCondition(std::vector<api::Condition>* conditions, const api::Condition& wanted,
                  const std::string& now) {
  bool found = false;
  bool changed = false;
  for (api::Condition& current : *conditions) {
    if (current.type == wanted.type) {
      found = true;
      if (current.status != wanted.status ||
          current.observed_generation != wanted.observed_generation) {
        current = wanted;
        changed = true;
      }
    } else if (ExclusiveConditionTypes(current.type, wanted.type) && wanted.status == "True" &&
               current.status == "True") {
      // Reason and message stay: upstream flips only the status.
      current.status = "False";
      current.last_transition_time = now;
      current.observed_generation = wanted.observed_generation;
      changed = true;
    }
  }
  if (!found && wanted.status == "True") {
    conditions->push_back(wanted);
    changed = true;
  }
  return changed;
}

bool ProgressDeadlineExceeded(const api::LeaderWorkerSetStatus& status) {
  const api::Condition* c = status.FindCondition(api::kConditionProgressing);
  return c != nullptr && c->status == "False" && c->reason == kReasonProgressDeadlineExceeded;
}

namespace {

// "group 3" or "groups 1, 4", in group-index order.
std::string GroupList(std::vector<std::pair<std::int32_t, std::string>> groups) {
  std::sort(groups.begin(), groups.end());
  std::string out = groups.size() == 1 ? "group " : "groups ";
  for (std::size_t i = 0; i < groups.size(); ++i) out += (i ? ", " : "") + groups[i].second;
  return out;
}

}  // namespace

bool SetDegradedCondition(const api::LeaderWorkerSet& lws,
                          const std::vector<const api::Pod*>& leaders,
                          std::vector<api::Condition>* conditions, const std::string& now) {
  // Nothing to read, and nothing shown, for an LWS that never counted a restart.
  if (lws.metadata.annotations.count(api::kGroupRestartsAnnotation) == 0 &&
      std::none_of(conditions->begin(), conditions->end(),
                   [](const api::Condition& c) { return c.type == api::kConditionDegraded; })) {
    return false;
  }
  Result<api::GroupRestartCounts> counts = api::ReadGroupRestartCounts(lws.metadata);
  std::vector<std::pair<std::int32_t, std::string>> exhausted;
  for (const api::Pod* leader : leaders) {
    if (!counts.ok()) break;
    auto it = counts->find(GroupRestartKeyOf(*leader));
    auto index = GroupIndex(leader->metadata);
    if (it != counts->end() && it->second.exhausted && index) {
      exhausted.emplace_back(*index, leader->metadata.Label(api::kGroupIndexLabel));
    }
  }
  const std::int64_t generation = lws.metadata.generation;
  if (exhausted.empty()) {
    return SetOwnCondition(
        conditions,
        OwnCondition(api::kConditionDegraded, false, "RestartBudgetAvailable",
                     "No group is kept after spending its restart budget", generation, now));
  }
  return SetOwnCondition(
      conditions,
      OwnCondition(api::kConditionDegraded, true, "ReplicaRestartBudgetExceeded",
                   GroupList(exhausted) + ": restart budget spent (" +
                       api::kMaxGroupRestartsAnnotation + "), not recreated; annotate a group's " +
                       "leader pod with " + api::kRecoverAnnotation + "=true to recreate it",
                   generation, now));
}

namespace {

// The counts of spec 12 step 2, over the leader pods.
struct Counts {
  std::int32_t ready = 0;
  std::int32_t updated = 0;
  std::int32_t ready_non_burst = 0;
  std::int32_t partitioned_current = 0;
  std::int32_t partitioned_updated = 0;
  std::int32_t partitioned_updated_and_ready = 0;
};

Result<Counts> Count(const api::LeaderWorkerSet& lws, const std::string& key,
                     const std::vector<const api::Pod*>& leaders,
                     const WorkerSetLookup& worker_set) {
  Counts counts;
  const bool no_workers = lws.Size() == 1;
  const std::int32_t replicas = lws.Replicas();
  const std::int32_t partition = UserPartition(lws);
  for (const api::Pod* pod : leaders) {
    auto index = GroupIndex(pod->metadata);
    if (!index) {
      return Status::BadRequest("strconv.Atoi: parsing \"" +
                                pod->metadata.Label(api::kGroupIndexLabel) + "\": invalid syntax");
    }
    const api::StatefulSet* sts = no_workers ? nullptr : worker_set(pod->metadata.name);
    if (!no_workers && sts == nullptr) continue;  // Q3: counted nowhere
    const bool in_window = *index < replicas && *index >= partition;
    if (in_window) ++counts.partitioned_current;
    const bool ready = (no_workers || StatefulSetReady(*sts)) && PodRunningAndReady(*pod);
    const bool updated = (no_workers || sts->metadata.Label(api::kRevisionLabel) == key) &&
                         pod->metadata.Label(api::kRevisionLabel) == key;
    if (ready) ++counts.ready;
    if (updated) ++counts.updated;
    if (updated && in_window) ++counts.partitioned_updated;
    if (*index < replicas && ready) ++counts.ready_non_burst;
    if (in_window && ready && updated) ++counts.partitioned_updated_and_ready;
  }
  return counts;
}

}  // namespace

StatusPlan StartStatusPlan(const api::LeaderWorkerSet& lws) {
  StatusPlan plan;
  plan.status = lws.status;
  plan.status.observed_generation = lws.metadata.generation;
  if (plan.status.hpa_pod_selector.empty()) {
    plan.status.hpa_pod_selector =
        api::kSetNameLabel + "=" + lws.metadata.name + "," + api::kWorkerIndexLabel + "=0";
  }
  return plan;
}

std::vector<std::string> AssertedConditions(bool updating, bool available) {
  if (updating) return {api::kConditionUpdateInProgress, api::kConditionProgressing};
  if (available) return {api::kConditionAvailable};
  return {api::kConditionProgressing};
}

Result<StatusPlan> PlanStatus(const api::LeaderWorkerSet& lws, const std::string& revision_key,
                              std::int32_t sts_status_replicas,
                              const std::vector<const api::Pod*>& leaders,
                              const WorkerSetLookup& worker_set, const std::string& now,
                              const ProgressDeadlineInputs* progress) {
  ASSIGN_OR_RETURN(Counts counts, Count(lws, revision_key, leaders, worker_set));
  const std::int64_t generation = lws.metadata.generation;
  const std::int32_t replicas = lws.Replicas();
  StatusPlan plan = StartStatusPlan(lws);
  api::LeaderWorkerSetStatus& status = plan.status;
  status.replicas = sts_status_replicas;
  status.ready_replicas = counts.ready;
  status.updated_replicas = counts.updated;

  const std::vector<std::string> asserted =
      AssertedConditions(counts.partitioned_updated < counts.partitioned_current,
                         counts.ready_non_burst == replicas &&
                             counts.partitioned_updated_and_ready == counts.partitioned_current);
  std::optional<std::string> stalled;  // the message, past the progress deadline
  if (progress != nullptr) {
    const bool complete = asserted.size() == 1 && asserted[0] == api::kConditionAvailable;
    plan.progress = CheckProgress(
        *progress, ProgressSignature(revision_key, leaders, progress->group_pods), complete);
    if (plan.progress.exceeded) {
      stalled = StalledMessage(lws, progress->deadline, leaders, progress->group_pods);
    }
  }
  const bool was_stalled = ProgressDeadlineExceeded(lws.status);
  bool conditions_changed = false;
  for (const std::string& type : asserted) {
    api::Condition wanted = MakeCondition(type, generation, now);
    if (stalled && type == api::kConditionProgressing) {
      wanted.status = "False";
      wanted.reason = kReasonProgressDeadlineExceeded;
      wanted.message = *stalled;
    }
    conditions_changed |= SetCondition(&status.conditions, wanted, now);
  }
  SetDegradedCondition(lws, leaders, &status.conditions, now);
  SetSurgeFallbackCondition(lws, revision_key, &status.conditions, now);
  SetRolloutFailedCondition(lws, revision_key, &status.conditions, now);
  SetPausedCondition(lws, &status.conditions, now);
  for (api::Condition& c : status.conditions) c.observed_generation = generation;
  if (!stalled && ProgressDeadlineExceeded(status)) {
    // Complete past a stall: Progressing stays False, as upstream leaves it once Available, but
    // with upstream's words, so nothing reads the finished rollout as stalled.
    for (api::Condition& c : status.conditions) {
      if (c.type != api::kConditionProgressing) continue;
      const api::Condition upstream = MakeCondition(api::kConditionProgressing, generation, now);
      c.reason = upstream.reason;
      c.message = upstream.message;
    }
  }
  if (stalled && !was_stalled && ProgressDeadlineExceeded(status)) {
    plan.stalled_event = *stalled;
  } else if (conditions_changed) {
    api::Condition first = MakeCondition(asserted.front(), generation, now);
    plan.event =
        std::make_pair(first.reason, ConditionEventNote(first.message, counts.ready, replicas));
  }
  plan.changed = conditions_changed || api::Encode(status) != api::Encode(lws.status);
  plan.update_done = UserPartition(lws) == 0 && counts.partitioned_updated_and_ready == replicas;
  return plan;
}

}  // namespace lws::controllers
