// File: controllers/group/group_replacement.h
//
// When a Hash-mode leader may be scheduled (upstream KEP 898, reconcileGroupReplacementGate):
// every Hash leader is created with the group-replacement scheduling gate; the pod controller
// lifts it at once under groupReplacementPolicy Immediate, and under PostTermination only while
// fewer replacements wait than groups are being torn down. A group is *tearing down* when some of
// its pods still exist but none is a live leader (its leader is terminating or gone): it still
// holds the accelerators its replacement needs. Gated leaders are admitted oldest first.
//
// Why pods and not leaders: rollouts and scale-downs delete leaders in the background, so a leader
// object can vanish while its workers still hold their nodes.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "api/group_identity.h"
#include "api/lws_types.h"
#include "api/pod.h"

namespace lws::controllers {

// The groups of `pods` (all pods labelled with the LWS's name) that are tearing down. Pods are
// grouped by their group-index label; without one, a leader by its name and a worker by its
// controller (its worker StatefulSet).
int CountTearingDownGroups(const std::vector<const api::Pod*>& pods);

struct GateDecision {
  bool admit = false;
  int tearing_down = 0;  // for the GroupReplacementDeferred event
};

// Whether gated `leader` may be scheduled now, given every pod of its LWS (`pods`).
GateDecision DecideGroupReplacement(const api::LeaderWorkerSet& lws,
                                    const std::vector<const api::Pod*>& pods,
                                    const api::Pod& leader);

// The leader's scheduling gates without the group-replacement gate (others are kept), as the
// JSON value of spec.schedulingGates.
api::Json GatesWithoutGroupReplacement(const api::Pod& leader);

}  // namespace lws::controllers
