// File: controllers/lws/leader_deployment.h
//
// The leader Deployment of a LeaderWorkerSet with groupIdentity Hash (upstream KEP 898,
// constructLeaderDeploymentApplyConfiguration), as the body the reconciler sends with
// server-side apply (field manager "lws", force). It replaces the leader StatefulSet of Ordinal
// mode: the Deployment's own rolling update (maxSurge, maxUnavailable copied verbatim from the
// LWS) rolls the groups, and a leader counts as available only with its whole group because of
// the group-ready readiness gate, so the Deployment's budgets count groups.
#pragma once

#include <string>

#include "api/lws_types.h"

namespace lws::controllers {

// Named after the LWS; labels the LWS's plus name, revision and role "leader"; annotations the
// LWS's plus the replicas annotation; replicas = spec.replicas; selector {name, worker-index 0};
// the leader pod template with the group-identity annotation, subdomain = the LWS's name and,
// for groups larger than one pod, the group-ready readiness gate. Ours: spec.paused while the LWS
// carries lws-cpp.dev/paused "true".
api::Json LeaderDeploymentApply(const api::LeaderWorkerSet& lws, const std::string& revision_key);

}  // namespace lws::controllers
