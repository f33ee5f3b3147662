// File: controllers/group/group_plan.h
//
// The pod reconcile of spec section 10.1 as one pure function: given what the reconciler read
// (the pod, its LWS, the restart inputs, the group's StatefulSet, Service, revision and node),
// PlanGroup says what to write. Steps, first stop wins:
//   1. the pod lacks the name or worker-index label: error;
//   2. the LWS is gone: nothing (its pods will be garbage-collected);
//  3a. a leader asking for recovery of its exhausted group: clear its count, delete it, stop
//      (restart_budget.h; only with the opt-in restart annotations);
//   3. restart policy (restart_policy.h): delete the leader (foreground) and stop, or stop when
//      the leader is already being deleted; with the opt-in budget or backoff, the recreation is
//      counted first, or waits, or the group is kept as it is (restart_budget.h);
//   4. a worker: stop (workers are reconciled only for restarts);
//   5. a leader carrying the leader-name annotation (a cluster without StatefulSet start
//      ordinals made it from the worker template): Warning FailedCreate, stop;
//   6. a leader being deleted: stop (never build a group around a dying leader);
//   7. UniquePerReplica: create the group's headless Service if missing;
//  7b. gang scheduling with Volcano: create the group's PodGroup if missing (pod_group.h);
//   8. size 1: stop (no workers);
//   9. startupPolicy LeaderReady and the leader not Ready: stop (its status update re-triggers);
//  10. the leader's revision is missing: requeue after 1 s (quirk Q15: forever, if truncated);
//  11. build the worker StatefulSet from the leader's revision; with an exclusive-topology
//      annotation wait for the leader to be scheduled and pin the workers to its domain;
//  12. create the worker StatefulSet if none of that name exists (never update one: quirk Q1).
// With groupIdentity Hash (upstream KEP 898) a leader also passes, after step 7b:
//  7c. the group-replacement gate (group_replacement.h): lift it and go on, or record
//      GroupReplacementDeferred and look again in 10 s, creating nothing;
//   9. LeaderReady waits for the leader's containers, not for the pod's Ready (which waits for
//      the group-ready gate, so for the workers: a deadlock);
// 10b. a leader without hostname or subdomain: error;
//  12. the worker StatefulSet is named after the leader's hostname; one of that name controlled
//      by another leader (two keys with the same 8 first characters): error and FailedCreate;
//  13. the group-ready condition follows the worker StatefulSet's readiness.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "api/lws_types.h"
#include "base/status.h"
#include "controllers/group/event_reasons.h"
#include "controllers/group/pod_group.h"
#include "controllers/group/restart_budget.h"
#include "controllers/group/restart_policy.h"

namespace lws::controllers {

struct GroupSnapshot {
  const api::LeaderWorkerSet* lws = nullptr;  // null: LWS NotFound -> empty plan
  const api::Pod* pod = nullptr;              // the reconciled pod (never null)
  RestartInputs restart;                      // filled by the reconciler
  // The StatefulSet named WorkerStatefulSetName(lws, leader), if it exists.
  const api::StatefulSet* worker_statefulset = nullptr;
  // The Service named GroupServiceName(lws, leader), if it exists.
  const api::Service* group_service = nullptr;
  // The revision of the leader's revision label; null: missing.
  const api::ControllerRevision* leader_revision = nullptr;
  // Optional: api::ApplyRevision(*lws, *leader_revision), which the reconciler keeps across
  // reconciles of the same LWS and revision versions (it encodes, patches and decodes the whole
  // LWS). Null: step 11 makes it.
  const api::LeaderWorkerSet* revision_lws = nullptr;
  // The node pod.spec.nodeName names, if it exists.
  const api::Node* leader_node = nullptr;
  // Gang scheduling, and whether the PodGroup the leader's group-name annotation names exists.
  GangProvider gang = GangProvider::kNone;
  bool pod_group_exists = false;
  // The reconcile's time, for the opt-in backoff between group recreations.
  Time now;
  // groupIdentity Hash, a leader with the group-replacement gate: every pod of its LWS.
  std::vector<const api::Pod*> lws_pods;
};

enum class GroupActionKind {
  kDeleteLeaderForeground,   // delete pod `target` with propagationPolicy Foreground; Normal event
  kCreateGroupService,       // create `object` (a Service); ignore AlreadyExists
  kCreateWorkerStatefulSet,  // create `object` (a StatefulSet); Normal event on success
  kCreatePodGroup,           // create `object` (a Volcano PodGroup); ignore AlreadyExists
  kWarning,                  // emit a Warning event on the LWS
  kNormalEvent,              // emit a Normal event on the LWS
  kPatchLws,           // merge-patch the LWS with `object` (the restart counts, restart_budget.h)
  kPatchLeader,        // merge-patch pod `target` with `object` (lifts the gate); event
  kPatchLeaderStatus,  // strategic-merge-patch pod `target`'s status with `object`
};

struct GroupAction {
  GroupActionKind kind;
  std::string reason;  // event reason, "" when the action emits none
  std::string note;    // event note
  api::Json object;    // the Service or StatefulSet to create (api::Encode, no status)
  std::string target;  // kDeleteLeaderForeground: the leader pod's name
};

struct GroupPlan {
  std::vector<GroupAction> actions;
  std::optional<std::int64_t> requeue_after_ms;
  Status error;  // returned from the reconcile after the actions are done
};

// REQUIRES: s.pod non-null; when s.lws is non-null, s.restart.lws and s.restart.pod point at the
// same objects as s.lws and s.pod.
GroupPlan PlanGroup(const GroupSnapshot& s);

// Note of the Warning FailedCreate event for a leader pod carrying the leader-name annotation.
std::string MistakeAnnotationNote(const api::Pod& leader);

// The error for a leader scheduled on a node that does not exist (upstream wraps the Get error):
// NotFound `getting node "<n>": nodes "<n>" not found`.
Status NodeNotFound(const std::string& node_name);

}  // namespace lws::controllers
