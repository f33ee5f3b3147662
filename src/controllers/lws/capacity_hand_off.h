// File: controllers/lws/capacity_hand_off.h
//
// The capacity hand-off (lws-cpp.dev/capacity-hand-off, docs/scarcity.md): while a pod of an
// LWS that asks for it is replaced, a placeholder pod keeps the node it ran on, so that neither
// another tenant's pod nor the autoscaler's scale-down takes the node before the replacement is
// there. The pure half: what to do for one pod name, given the LWS, the pod of that name and its
// placeholder. The I/O half is capacity_hand_off_controller.h.
//
// The rules, for the pod named P of LWS L with the annotation set to D:
//   - P starts terminating on node N (or is gone from N, with no replacement yet: a deletion
//     without grace period is seen only once it is over) while its group and worker index stay
//     within L's replicas and size (it will be replaced, not scaled away) and L is not being
//     deleted: create the placeholder "<P>-hand-off" pinned to N (required node affinity on
//     metadata.name), with P's requests, tolerations, scheduler and PriorityClass (or the one the
//     annotation capacity-hand-off-priority-class names), grace period 0, held until now + D.
//   - Once the placeholder holds N, it is handed over (deleted) as soon as a pod of L waits for
//     a node: pending, tried by the scheduler (PodScheduled is set, so it is in the queue) and
//     asking for no more than the placeholder holds. That is P's replacement, or another pod of
//     L when the replacement found room elsewhere (and no other hold is for it). Handing over
//     earlier would free N for whichever pod the scheduler happened to see first.
//   - P's replacement is scheduled and no pod of L is pending: nothing waits for N; delete it.
//   - The hold's deadline passed, L no longer asks for the hand-off, or L is gone: delete it.
//   - Otherwise keep it, and look again at the deadline.
//
// Why P's PriorityClass: the scheduler takes the pending pod of highest priority first (the
// earliest of equal priority), so the placeholder, queued while P terminates, gets N ahead of
// every pod of lower priority, including those that waited longer, exactly as P's replacement
// would; pods of lower or equal priority cannot preempt it. Handed over, the node goes to the
// replacement for the same reason. Against pods of P's own priority that were waiting before P
// started terminating the hand-off cannot win (nothing in Kubernetes reserves a node for a pod
// that does not exist yet); it still keeps the node from the autoscaler's scale-down.
// A class of its own for the placeholders, between the other pods' and the LWS's, lets a
// replacement whose class preempts take the node by preemption: the scheduler's nomination then
// keeps it, with no race against kube-scheduler's backoff of the replacement.

#pragma once

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "api/lws_types.h"
#include "api/pod.h"
#include "api/rollout_annotations.h"
#include "base/clock.h"

namespace lws::controllers {

// The image of the placeholder's one container: it only sleeps.
inline const std::string kPlaceholderImage = "registry.k8s.io/pause:3.10";

std::string PlaceholderName(const std::string& pod_name);
// Whether `name` is that of a placeholder for a pod of LWS `lws` (for records that keep only
// the name, such as an event's involved object).
bool IsPlaceholderName(const std::string& lws, const std::string& name);
// The pod a placeholder holds the node for; "" when `pod` is not a placeholder.
std::string HeldPodName(const api::Pod& pod);

struct HandOffInput {
  const api::LeaderWorkerSet* lws = nullptr;  // the LWS of the pod or placeholder; null: gone
  const api::Pod* pod = nullptr;              // the LWS pod of that name; null: absent
  const api::Pod* departed = nullptr;         // absent: its last state, if it was just deleted
  const api::Pod* placeholder = nullptr;      // its placeholder; null: absent
  std::vector<const api::Pod*> lws_pods;      // every pod of the LWS
  std::set<std::string> held_for;             // the pods the LWS's placeholders hold for
  Time now;
};

enum class HandOffStep { kNone, kCreate, kDelete };

struct HandOffDecision {
  HandOffStep step = HandOffStep::kNone;
  std::string reason;  // kDelete: why, for the event and the log
  // kCreate: the hold's deadline; kNone with a placeholder: when to look again.
  std::optional<Time> until;
};

HandOffDecision PlanHandOff(const HandOffInput& in);

// The placeholder for `pod` (terminating on its node) of `lws`, held until `until`.
api::Json PlaceholderPod(const api::LeaderWorkerSet& lws, const api::Pod& pod, Time until);

}  // namespace lws::controllers
