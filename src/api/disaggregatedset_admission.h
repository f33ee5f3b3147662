// File: api/disaggregatedset_admission.h
//
// The whole path a DisaggregatedSet takes through a Kubernetes API server with the LWS operator
// installed, as one pure function (the DisaggregatedSet twin of lws_admission.h):
//
//   1. prune fields the CRD schema does not know (reported as unknown fields),
//   2. the CRD's structural defaults (slices 1, and inside each role's LWS spec the LWS CRD's
//      defaults: replicas 1, size 1, rollout type, ...); there is no mutating webhook,
//   3. the API server's own checks: object metadata, the CRD schema and its CEL rule,
//   4. the validating webhook (disaggregatedset_validation.h), which may add warnings.
//
// `lws validate` calls it; the embedded API server runs the same steps through its CRD handling
// and the webhook plugin, so the two cannot disagree.
#pragma once

#include <string>
#include <vector>

#include "api/field.h"

namespace lws::api {

struct DsAdmission {
  Json object;                              // the defaulted object (valid when errors is empty)
  ErrorList errors;                         // schema errors, else the webhook's
  std::vector<std::string> warnings;        // the webhook's warnings
  std::vector<std::string> unknown_fields;  // paths pruned in step 1, e.g. "spec.foo"
};

DsAdmission AdmitDisaggregatedSet(const Json& object);

}  // namespace lws::api
