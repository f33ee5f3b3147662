// File: api/disaggregatedset_validation.h
//
// The DisaggregatedSet validating webhook (vdisaggregatedset.kb.io; upstream
// pkg/webhooks/disaggregatedset/disaggregatedset_webhook.go, docs/disaggregatedset-upstream.md
// section 2.2), with upstream's checks in upstream's order, field paths and messages:
//
//   per role: rollout type, partition, maxUnavailable/maxSurge (as the LWS webhook's V6-V8 and
//             V11), the External scaler's name length and the "spec.replicas is ignored" warning;
//   then:     slices > 1 with an External role, the length of the generated names, and
//             placementPolicy (topology required; no LWS exclusive-topology annotation with it).
//
// Create and update run the same checks on the new object: upstream has no immutability rules,
// so roles may be renamed, added and removed. The input is the object after the CRD's defaults.
#pragma once

#include <string>
#include <vector>

#include "api/disaggregatedset_types.h"
#include "api/field.h"

namespace lws::api {

struct DsValidation {
  ErrorList errors;
  std::vector<std::string> warnings;  // returned to the client; the object is admitted
};

DsValidation ValidateDisaggregatedSet(const DisaggregatedSet& ds);

}  // namespace lws::api
