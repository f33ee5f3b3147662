// File: api/exclusive_placement.h
//
// Exclusive placement (spec section 16): the pod affinity and anti-affinity terms the pod webhook
// adds so that one group (or subgroup) owns a whole topology domain. For a key K on label L and a
// topology key T the pod gets
//   podAffinity:     {labelSelector: {L In [K]}, topologyKey: T}          -- stay together
//   podAntiAffinity: {labelSelector: {L Exists, L NotIn [K]}, topologyKey: T}  -- keep others out
// appended after any terms the pod already has. L is the group-key label for group-level
// placement and the subgroup-key label for subgroup-level placement.
#pragma once

#include <string_view>

#include "api/pod.h"

namespace lws::api {

// Appends the two exclusive terms for `topology_key` unless ExclusiveAffinityApplied() already
// holds, creating spec.affinity, podAffinity and podAntiAffinity as needed (upstream
// SetExclusiveAffinities). `pod_affinity_key` is the label the selectors match on.
void SetExclusiveAffinities(Pod* pod, std::string_view group_unique_key,
                            std::string_view topology_key, std::string_view pod_affinity_key);

// True iff the pod has at least one required pod-affinity term and at least one required
// pod-anti-affinity term whose topologyKey is `topology_key`. Selectors are not compared: this
// is upstream's idempotence test, which makes a re-admitted pod keep its terms unchanged.
bool ExclusiveAffinityApplied(const Pod& pod, std::string_view topology_key);

}  // namespace lws::api
