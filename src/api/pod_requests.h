// File: api/pod_requests.h
//
// A pod's effective requests, as upstream resourcehelper.PodRequests: the sum over containers,
// raised to the largest init container (sidecars, i.e. init containers with restartPolicy
// Always, add to both), plus spec.overhead. The scheduler counts a stored pod (whose limits the
// API server copied into missing requests); Volcano's PodGroup minResources are counted on the
// LWS template as written, requests only.
#pragma once

#include "api/pod.h"

namespace lws::api {

// Whether a container's limit stands in for its missing request (the API server's defaulting of
// a stored pod).
enum class LimitsAsRequests { kNo, kYes };

// `defaults` fill resources a container requests nothing of (upstream's
// NonMissingContainerRequests, for scoring); empty for plain requests.
ResourceList PodSpecRequests(const PodSpec& spec, const ResourceList& defaults = {},
                             LimitsAsRequests limits = LimitsAsRequests::kNo);

}  // namespace lws::api
