// File: controllers/group/pod_group.h
//
// Gang scheduling with Volcano (spec section 19, upstream pkg/schedulerprovider/
// volcano_provider.go): every group gets a PodGroup (scheduling.volcano.sh/v1beta1) named by the
// annotation the pod webhook puts on its pods, scheduling.k8s.io/group-name =
// "<lws>-<group>-<revision>", so a group on a new revision gets a new PodGroup. It is created
// once, when missing, for a leader pod that is not being deleted, and owned by that leader pod
// (garbage-collected with it):
//   labels       leaderworkerset.sigs.k8s.io/name, group-index, template-revision-hash
//   annotations  the LWS's annotations whose key starts with "volcano.sh/"
//   minMember    the group size; 1 with startupPolicy LeaderReady (workers come later)
//   minResources the leader template's requests + (size - 1) x the worker template's
//                (resourcehelper.PodRequests over the templates as written: requests only)
//   queue        the LWS annotation scheduling.volcano.sh/queue-name, when set
#pragma once

#include <string>

#include "api/lws_types.h"

namespace lws::controllers {

inline constexpr std::string_view kPodGroupApiVersion = "scheduling.volcano.sh/v1beta1";
inline const std::string kVolcanoQueueAnnotation = "scheduling.volcano.sh/queue-name";

// The gang-scheduling provider a controller runs with (Configuration
// gangSchedulingManagement.schedulerProvider); only Volcano exists.
enum class GangProvider { kNone, kVolcano };

// The PodGroup of `leader`'s group, as upstream's CreatePodGroupIfNotExists makes it; its name is
// the leader's group-name annotation. REQUIRES: that annotation is set.
api::Json PodGroupFor(const api::LeaderWorkerSet& lws, const api::Pod& leader);

// upstream utils.CalculatePGMinResources.
api::ResourceList PodGroupMinResources(const api::LeaderWorkerSet& lws);

}  // namespace lws::controllers
