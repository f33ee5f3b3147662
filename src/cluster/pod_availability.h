// File: cluster/pod_availability.h
//
// When a pod counts as ready, available and active for the workload controllers of the
// simulated cluster (upstream pkg/api/v1/pod/util.go and pkg/controller/controller_utils.go).
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "api/pod.h"
#include "base/clock.h"

namespace lws::cluster {

// Running with Ready=True (podutils.PodRunningAndReady) and, for more than minReadySeconds at
// `now`, Ready since the condition's last transition (podutil.IsPodAvailable).
bool IsPodAvailable(const api::Pod& pod, std::int32_t min_ready_seconds, Time now);

// Not Succeeded, not Failed and not being deleted (controller.IsPodActive).
bool IsPodActive(const api::Pod& pod);

// The time `pod` became Ready, when it is Running and Ready and the condition says when.
std::optional<Time> PodReadySince(const api::Pod& pod);

// The shortest wait until one of `pods`, Ready but not yet available, becomes available (at
// least 1 s), or nullopt when none waits: when a controller must look again without any event.
std::optional<Duration> AvailableWait(const std::vector<std::shared_ptr<const api::Pod>>& pods,
                                      std::int32_t min_ready_seconds, Time now);

}  // namespace lws::cluster
