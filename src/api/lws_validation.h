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

// The pieces the DisaggregatedSet webhook shares with the LWS one (it mirrors V6-V8 and V11 for
// each role's rolling update).
//
// validatePositiveIntOrPercent + isNotMoreThan100Percent (V6-V8) of `v` at `path`.
void ValidateIntOrPercent(const IntOrString& v, const FieldPath& path, ErrorList* errs);
// "Invalid value" at `path` with Go's %#v rendering of an IntOrString passed by value.
FieldError InvalidIntOrString(const FieldPath& path, const IntOrString& v, std::string detail);

}  // namespace lws::api
