// File: cluster/deployment_internal.h
//
// Pieces the Deployment plan's files share (deployment_util.cc, deployment_plan.cc); other
// layers use deployment_plan.h.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "api/apps_workloads.h"
#include "base/clock.h"

namespace lws::cluster {

// Progressing reasons (upstream deployment_util.go).
inline constexpr std::string_view kNewRSAvailableReason = "NewReplicaSetAvailable";
inline constexpr std::string_view kTimedOutReason = "ProgressDeadlineExceeded";

// progressDeadlineSeconds set and not MaxInt32.
bool HasProgressDeadline(const api::Deployment& deployment);
// The sum of the sets' spec.replicas.
std::int64_t SpecReplicas(const std::vector<const api::ReplicaSet*>& sets);
// An annotation read as a non-negative int32, nullopt when absent or not one.
std::optional<std::int32_t> IntAnnotation(const api::ObjectMeta& meta, std::string_view key);
// The set's deployment.kubernetes.io/revision, 0 when absent or not an int.
std::int64_t RevisionOf(const api::ReplicaSet& set);
// SetDeploymentCondition: no change when status and reason are the same; the transition time
// is kept when only the reason changes; the condition moves to the end.
void SetCondition(std::vector<api::WorkloadCondition>& conditions, api::WorkloadCondition c);
// Appends `revision` to a revision-history annotation, dropping the oldest entries to stay
// within `limit` characters (upstream's 2000); a revision that cannot fit is not recorded.
void AppendRevisionHistory(std::string& history, const std::string& revision,
                           std::size_t limit = 2000);
// ReplicaSetsByCreationTimestamp: oldest first, then by name.
bool OlderFirst(const api::ReplicaSet* a, const api::ReplicaSet* b);
// NewDeploymentCondition at `now` (update and transition time).
api::WorkloadCondition NewCondition(std::string type, std::string status, std::string reason,
                                    std::string message, Time now);

}  // namespace lws::cluster
