// File: controllers/group/restart_policy.h
//
// Group restart (spec section 13): with restartPolicy RecreateGroupOnPodRestart or
// RecreateGroupAfterStart, a pod of a group that is deleted or whose containers restarted takes
// the whole group down: the pod controller deletes the group's leader pod with foreground
// propagation, which removes the worker StatefulSet and its pods first; the leader StatefulSet
// then recreates the leader and the pod controller a fresh worker StatefulSet.
//
// DecideRestart is the decision only. The reconciler gathers RestartInputs (the leader by name,
// the pods of the group, the worker pod's owning StatefulSet), then acts on the verdict. Guards,
// in order, each one ending in kNone:
//   1. the policy is None (or the legacy Default);
//   2. the pod is neither deleting nor restarted (Running/Pending with a restartCount > 0);
//   3. the group has not fully started (pod count != size or a pod is Pending) and the policy is
//      RecreateGroupAfterStart or the LWS carries the experimental-recreate-group-after-start
//      annotation: a group still coming up is not torn down;
//   4. for a worker: its leader is gone, carries another revision (the worker is about to be
//      replaced anyway), or the worker does not belong to the leader's current incarnation
//      (ownership through a stale StatefulSet of the same name).
// Then a leader already being deleted gives kLeaderAlreadyDeleting, anything else kDeleteLeader.
#pragma once

#include <string>
#include <vector>

#include "api/lws_types.h"
#include "base/result.h"

namespace lws::controllers {

// The leader of a group carries worker-index "0" (upstream podutils.LeaderPod).
bool IsLeaderPod(const api::Pod& pod);

// Phase Running or Pending and some init or regular container with restartCount > 0. A pod that
// Failed or Succeeded does not count, whatever its restarts (quirk Q13).
bool ContainerRestarted(const api::Pod& pod);

// deletionTimestamp set, or ContainerRestarted.
bool PodDeletedOrRestarted(const api::Pod& pod);

// The leader pod name of a worker: its leader-name annotation (which a Hash group needs: its
// workers are named after the leader's hostname), else by upstream's regex (.*)-([0-9]+)$ over
// "<leader>-<ordinal>". Fails with "parsing pod name for pod <name>" when neither gives one.
Result<std::string> LeaderNameOfWorker(const api::Pod& worker);

struct RestartInputs {
  const api::LeaderWorkerSet* lws = nullptr;  // live, defaulted
  const api::Pod* pod = nullptr;              // reconciled pod (leader or worker)
  // Pods labelled {name: L, group-index: <pod's group-index>}.
  std::vector<const api::Pod*> group_pods;
  // The resolved leader (the pod itself for a leader); null when NotFound.
  const api::Pod* leader = nullptr;
  // For a worker controlled by a StatefulSet: the StatefulSet of that name, null if absent.
  const api::StatefulSet* owner_statefulset = nullptr;
};

enum class RestartVerdict { kNone, kLeaderAlreadyDeleting, kDeleteLeader };

struct RestartDecision {
  RestartVerdict verdict = RestartVerdict::kNone;
  // For kDeleteLeader, the note of the Normal RecreateGroup event:
  // "Worker pod <p> failed, deleted leader pod <l> to recreate group <g>".
  std::string event_note;
};

// REQUIRES: inputs.lws and inputs.pod non-null. Errors only for a worker whose name does not
// parse (see LeaderNameOfWorker).
Result<RestartDecision> DecideRestart(const RestartInputs& inputs);

}  // namespace lws::controllers
