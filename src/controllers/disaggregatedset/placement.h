// File: controllers/disaggregatedset/placement.h
//
// A DisaggregatedSet's placementPolicy as pod scheduling terms (upstream SetPlacementAffinities,
// pkg/utils/disaggregatedset/affinity.go; KEP-848; docs/disaggregatedset-upstream.md section
// 6.2). The controller applies it to the leader and worker pod templates of every LeaderWorkerSet
// it creates, never to existing ones, so a policy change reaches a slice at its next rollout.
//
// Every term is a hard requirement (requiredDuringSchedulingIgnoredDuringExecution) whose
// topologyKey is the policy's topology, and selects pods by the labels the controller stamps on
// them (sheet 3.3):
//   1. podAffinity: name In [ds], slice In [slice]: a slice's roles share one domain.
//   2. podAntiAffinity: name In [ds], (slice 0 only: slice Exists), slice NotIn [slice]: the
//      set's slices take different domains.
//   3. ExclusiveTopology only, podAntiAffinity: name Exists, name NotIn [ds], slice Exists: no
//      other DisaggregatedSet's slice shares the domain.
#pragma once

#include "api/disaggregatedset_types.h"
#include "api/pod.h"

namespace lws::disaggregatedset {

// Appends the terms of `ds`'s placement policy for pods of `slice` to `spec`'s pod affinity and
// anti-affinity, after the terms already there; node affinity and preferred terms stay as they
// are. No-op when the policy is absent, None or "", or has no topology.
// REQUIRES: slice >= 0.
void SetPlacementAffinities(const api::DisaggregatedSet& ds, int slice, api::PodSpec* spec);

}  // namespace lws::disaggregatedset
