// File: controllers/lws/leader_statefulset.h
//
// The leader StatefulSet of a LeaderWorkerSet (spec section 8), as the body the reconciler sends
// with server-side apply (field manager "lws", force). The body is built from the live LWS on every
// reconcile and holds only the fields the controller owns: no status, no creationTimestamp, and no
// field the API server would default (revisionHistoryLimit, minReadySeconds, ...), so that other
// managers and defaulting keep theirs and a re-apply of an unchanged LWS changes nothing.
//
// The pod template is the LWS's leader template (worker template when unset) exactly as stored,
// with the controller's labels and annotations overlaid; claim templates are reduced to the fields
// upstream copies (accessModes, storageClassName, volumeMode, resources).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "api/lws_types.h"

namespace lws::controllers {

// The server-side-apply body of the leader StatefulSet (apiVersion apps/v1, kind StatefulSet), as
// upstream's constructLeaderStatefulSetApplyConfiguration builds it (plus its controller
// ownerReference). `revision_key` labels the set and its pod template; `partition` and `replicas`
// come from the rolling-update arithmetic (spec 11). `rollout_replicas`: the spec.replicas the
// rollout works with, when it differs (a scale-up held by scale_up_hold.h): the replicas
// annotation and maxUnavailable are written for it.
api::Json LeaderStatefulSetApply(const api::LeaderWorkerSet& lws, const std::string& revision_key,
                                 std::int32_t partition, std::int32_t replicas,
                                 std::optional<std::int32_t> rollout_replicas = std::nullopt);

// The leader pod template both leader workloads share (upstream
// buildLeaderPodTemplateApplyConfiguration): the LWS's leader template (worker template when
// unset) with the worker-index, name and revision labels and the controller's annotations.
api::Json LeaderPodTemplateJson(const api::LeaderWorkerSet& lws, const std::string& revision_key);

// The LWS's controller reference on what it owns (controller, blockOwnerDeletion).
api::Json LwsControllerReference(const api::LeaderWorkerSet& lws);

// The apply body of what runs the leaders, `kind` StatefulSet or (groupIdentity Hash)
// Deployment: named after the LWS, in its namespace, controlled by it; the LWS's labels and
// annotations first, the controller's keys win (name, revision, role leader; the replicas
// annotation = `replicas_annotation`); `spec` as given.
api::Json LeaderSetApply(const api::LeaderWorkerSet& lws, const std::string& kind,
                         const std::string& revision_key, std::int32_t replicas_annotation,
                         api::Json spec);

// max(1, scaled(maxUnavailable, R, down) + min(scaled(maxSurge, R, up), R)) with R = spec.replicas:
// the StatefulSet may replace as many leader pods at once as the LWS may have unavailable groups
// plus surge groups. A value that does not scale (not a valid percentage, which validation
// rejects) counts as 0. `replicas` replaces R when set.
std::int32_t LeaderStatefulSetMaxUnavailable(const api::LeaderWorkerSet& lws,
                                             std::optional<std::int32_t> replicas = std::nullopt);

}  // namespace lws::controllers
