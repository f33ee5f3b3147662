// File: controllers/lws/lws_status.h
//
// What the LeaderWorkerSet controller knows about its groups, as pure functions: the per-index
// group states the rolling update needs (spec 11.1 getReplicaStates) and the status with its
// conditions (spec 12 updateStatus/updateConditions). Both read the same objects, the leader pods
// (labelled name=L, worker-index=0) and the worker StatefulSets (named after their leader), but
// upstream reads them differently, and both readings are kept:
//   - group states go by index and by the expected names L-i: a group whose leader pod or worker
//     StatefulSet is missing (or carries another name) is neither ready nor updated;
//   - the status goes by leader pod and skips a pod whose worker StatefulSet does not exist
//     (Q3), so such a group counts nowhere, not even as "current".
// Conditions follow upstream's setCondition: a condition is replaced only when its status or
// observedGeneration changes, so reason and message never refresh on their own (Q5), and
// UpdateInProgress goes False only when Available becomes True (Q4).
// Ours, only with the opt-in restart budget (api/group_restarts.h): Degraded is True while a
// current group (its leader's revision and index) is kept after spending its budget, with a
// message naming those groups; it goes False once none is, and is never added False.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "api/apps.h"
#include "api/lws_types.h"
#include "api/pod.h"
#include "base/result.h"
#include "controllers/lws/progress_deadline.h"
#include "controllers/lws/rolling_update.h"

namespace lws::controllers {

// Finds the worker StatefulSet named `name` in the LWS's namespace; null when absent.
using WorkerSetLookup = std::function<const api::StatefulSet*(const std::string& name)>;

// One state per index [0, sts_replicas). `leaders` are the LWS's leader pods and `statefulsets`
// every StatefulSet labelled with its name (the leader StatefulSet carries no group index and is
// ignored). Objects without a parsable group-index label, or with one >= sts_replicas, are
// ignored; of two objects with the same index the later one counts, as upstream's SortByIndex.
std::vector<GroupState> GroupStates(const api::LeaderWorkerSet& lws,
                                    const std::string& revision_key, std::int32_t sts_replicas,
                                    const std::vector<const api::Pod*>& leaders,
                                    const std::vector<const api::StatefulSet*>& statefulsets);

struct StatusPlan {
  api::LeaderWorkerSetStatus status;  // the status to write
  bool changed = false;               // status differs from the stored one: write it
  bool update_done = false;           // partition 0 and every desired group updated and ready
  // The Normal event upstream records when a condition changed: (reason, note).
  std::optional<std::pair<std::string, std::string>> event;
  // With the opt-in progress deadline: what to remember, when to look again, and the note of the
  // Warning ProgressDeadlineExceeded event when Progressing has just turned False for it (then
  // `event` is not set: the condition change is ours, not upstream's).
  ProgressCheck progress;
  std::optional<std::string> stalled_event;
};

// The status of `lws` (its stored status is the starting point). `sts_status_replicas` is the
// leader StatefulSet's status.replicas; `now` is the RFC 3339 time of new conditions. Fails
// (BadRequest) when a leader pod's group-index label does not parse, as upstream does.
// `progress`: the opt-in progress deadline's inputs (progress_deadline.h), null when off; past
// the deadline, the Progressing condition upstream asserts True is False instead.
Result<StatusPlan> PlanStatus(const api::LeaderWorkerSet& lws, const std::string& revision_key,
                              std::int32_t sts_status_replicas,
                              const std::vector<const api::Pod*>& leaders,
                              const WorkerSetLookup& worker_set, const std::string& now,
                              const ProgressDeadlineInputs* progress = nullptr);

// What both status plans (this one and hash_status.h) start from: the stored status with
// observedGeneration = the LWS's generation and, when unset, upstream's hpaPodSelector.
StatusPlan StartStatusPlan(const api::LeaderWorkerSet& lws);
// The conditions upstream asserts: UpdateInProgress and Progressing while `updating`, else
// Available when `available`, else Progressing.
std::vector<std::string> AssertedConditions(bool updating, bool available);

// ---- Conditions (exposed for tests: S158, S161) ----------------------------------------------

// Available excludes Progressing and UpdateInProgress; Progressing and UpdateInProgress coexist.
bool ExclusiveConditionTypes(const std::string& a, const std::string& b);
// The condition of `type` upstream asserts, status True, with its reason and message.
api::Condition MakeCondition(const std::string& type, std::int64_t generation,
                             const std::string& now);
// Progressing is False for the progress deadline.
bool ProgressDeadlineExceeded(const api::LeaderWorkerSetStatus& status);
// The Degraded condition for `leaders` and the LWS's restart counts: true when it changed.
bool SetDegradedCondition(const api::LeaderWorkerSet& lws,
                          const std::vector<const api::Pod*>& leaders,
                          std::vector<api::Condition>* conditions, const std::string& now);
// Upstream setCondition: true when `conditions` changed.
bool SetCondition(std::vector<api::Condition>* conditions, const api::Condition& wanted,
                  const std::string& now);

}  // namespace lws::controllers
