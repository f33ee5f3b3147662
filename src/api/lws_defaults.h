// File: api/lws_defaults.h
//
// The LeaderWorkerSet mutating webhook's defaults (spec 3.3 step 2, upstream
// `LeaderWorkerSetWebhook.Default`). The CRD schema's own defaults (replicas 1, size 1, enum
// defaults, rollingUpdateConfiguration members when that object is present) are applied before
// this, by the structural-schema module; see lws_admission.h for the whole chain.
#pragma once

#include "api/lws_types.h"

namespace lws::api {

// Applies the webhook defaults in place:
//   restartPolicy ""        -> RecreateGroupOnPodRestart
//   restartPolicy "Default" -> None (deprecated name)
//   rolloutStrategy.type "" -> RollingUpdate
//   RollingUpdate without rollingUpdateConfiguration -> {maxUnavailable 1, maxSurge 0, partition 0}
//   networkConfig nil, or its subdomainPolicy nil    -> subdomainPolicy Shared
void DefaultLeaderWorkerSet(LeaderWorkerSet* lws);

}  // namespace lws::api
