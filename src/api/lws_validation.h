// File: api/lws_validation.h
//
// The LeaderWorkerSet validating webhook (spec 3.4, rules V1-V20, upstream
// `LeaderWorkerSetWebhook.generalValidate` / `ValidateUpdate`), with upstream's field paths and
// messages. Inputs are defaulted objects (lws_defaults.h and the CRD schema defaults); a missing
// value the reference webhook would dereference and crash on is reported as an error instead.
#pragma once

#include "api/field.h"
#include "api/lws_types.h"

namespace lws::api {

// Rules checked on CREATE and UPDATE (V1-V16), and the lws-cpp.dev annotations
// (group_restarts.h, rollout_annotations.h).
ErrorList ValidateLeaderWorkerSet(const LeaderWorkerSet& lws);

// UPDATE: the rules above on `updated`, plus V17-V20 against `old`.
ErrorList ValidateLeaderWorkerSetUpdate(const LeaderWorkerSet& updated, const LeaderWorkerSet& old);

}  // namespace lws::api
