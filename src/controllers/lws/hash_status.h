// File: controllers/lws/hash_status.h
//
// The status of a LeaderWorkerSet with groupIdentity Hash (upstream KEP 898, updateStatusHash):
// its counts are the leader Deployment's, which count whole groups because a leader is Ready only
// with its group (the group-ready readiness gate). Conditions, with upstream's setCondition and
// event as in Ordinal mode (lws_status.h):
//   - the Deployment has fewer updated than current replicas: UpdateInProgress and Progressing;
//   - it has spec.replicas replicas, all ready and updated: Available;
//   - else Progressing.
// Ours: the Deployment must run the current revision's template and have observed its latest
// generation before Available is believed (upstream reads a Deployment status that may predate
// the template change, and then deletes the old revision while old groups still need it).
#pragma once

#include "api/apps_workloads.h"
#include "api/lws_types.h"
#include "controllers/lws/lws_status.h"

namespace lws::controllers {

// `deployment` is the leader Deployment, null while it does not exist (then every count is 0);
// `revision_key` the revision the reconcile applied.
StatusPlan PlanHashStatus(const api::LeaderWorkerSet& lws, const api::Deployment* deployment,
                          const std::string& revision_key, const std::string& now);

}  // namespace lws::controllers
