// File: api/lws_admission.h
//
// The whole path a LeaderWorkerSet takes through a Kubernetes API server with the LWS webhooks
// installed (spec 3.3), as one pure function:
//
//   1. prune fields the CRD schema does not know (reported: kubectl's default --validate=strict
//      rejects them, --validate=warn only warns),
//   2. CRD structural defaults (replicas 1, size 1, enum defaults, ...),
//   3. mutating webhook defaults (lws_defaults.h),
//   4. CRD schema validation (types, enums, minimum/maximum),
//   5. validating webhook (lws_validation.h; on update also against the old object).
//
// `lws validate`, the embedded API server's admission chain and the real webhook server all
// call this, so they cannot disagree.
#pragma once

#include <string>
#include <vector>

#include "api/field.h"
#include "api/lws_types.h"

namespace lws::api {

struct LwsAdmission {
  Json object;                              // the defaulted object (valid when errors is empty)
  ErrorList errors;                         // schema and webhook errors, in that order
  std::vector<std::string> unknown_fields;  // paths pruned in step 1, e.g. "spec.foo"
};

// `old_object` is null on create.
LwsAdmission AdmitLeaderWorkerSet(const Json& object, const Json* old_object = nullptr);

}  // namespace lws::api
