// File: api/disaggregatedset_crd.h
//
// The DisaggregatedSet and DisaggregatedSetRoleScaler CustomResourceDefinitions
// (deploy/crd/disaggregatedset.x-k8s.io_*.yaml), embedded in the binary as api/lws_crd.h embeds
// the LWS CRD: converted to compact JSON at build time, parsed once on first use. The API server
// of `lws up` serves them; `lws validate` and the admission path validate with their schemas.
#pragma once

#include <string_view>

#include "api/field.h"

namespace lws::api {

class StructuralSchema;

const Json& DisaggregatedSetCrd();
const Json& DisaggregatedSetRoleScalerCrd();

// The v1 schemas of the two CRDs, compiled once.
const StructuralSchema& DisaggregatedSetStructuralSchema();
const StructuralSchema& RoleScalerStructuralSchema();

}  // namespace lws::api
