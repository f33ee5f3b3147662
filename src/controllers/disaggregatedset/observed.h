// File: controllers/disaggregatedset/observed.h
//
// What the DisaggregatedSet controller's pure parts (the slice plan, the status, the scalers)
// read of the world: the LeaderWorkerSets a DisaggregatedSet owns, reduced to the fields upstream
// reads, and its role scalers. The controller fills them from its caches; tests write them by
// hand.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace lws::disaggregatedset {

// One LeaderWorkerSet the DisaggregatedSet controls.
struct OwnedLws {
  std::string name;
  std::string role;      // label disaggregatedset.x-k8s.io/role
  std::string revision;  // label disaggregatedset.x-k8s.io/revision
  // Label disaggregatedset.x-k8s.io/slice; a missing or empty label reads as slice 0 (upstream's
  // legacy, pre-slices objects), and `slice_labelled` is then false.
  int slice = 0;
  bool slice_labelled = true;
  int spec_replicas = 1;  // spec.replicas, nil read as 1
  int status_replicas = 0;
  int ready_replicas = 0;
  int updated_replicas = 0;
  // Annotation disaggregatedset.x-k8s.io/initial-replicas; nullopt when missing, empty or not an
  // integer (upstream GetInitialReplicas).
  std::optional<int> initial_replicas;
  std::string creation_timestamp;  // RFC 3339, orders old revisions newest first
};

// A DisaggregatedSetRoleScaler this DisaggregatedSet controls, by role.
struct OwnedScaler {
  std::string name;
  std::string role;
  int spec_replicas = 0;
  std::int64_t generation = 0;
};

// Scalers by role name; a role without an entry has none (not created yet, or a conflict).
using ScalersByRole = std::map<std::string, OwnedScaler>;

}  // namespace lws::disaggregatedset
