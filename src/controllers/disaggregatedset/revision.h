// File: controllers/disaggregatedset/revision.h
//
// The revision of a DisaggregatedSet (upstream ComputeRevision; docs/disaggregatedset-upstream.md
// section 3.1): the first 8 hex characters of the SHA-256 of Go's json.Marshal of
// [{"name": <role>, "template": <role's spec.leaderWorkerTemplate>}, ...] in spec order. Only the
// roles' names and LWS templates count: replicas, rollout settings, role metadata, scaling,
// slices and placement never start a rollout. The bytes are Go's for the typed structs, field
// by field (api/protobuf/go_typed_json.h writes the pod templates), so that a set upstream's
// controller made keeps its LeaderWorkerSets' names when this controller takes over.
#pragma once

#include <string>

#include "api/disaggregatedset_types.h"
#include "base/result.h"

namespace lws::disaggregatedset {

// The bytes hashed (exposed for tests) and the revision itself. An error when a template does
// not fit its Go type (the API server's schema rules that out for stored objects).
Result<std::string> RevisionBytes(const api::DisaggregatedSet& ds);
Result<std::string> ComputeRevision(const api::DisaggregatedSet& ds);

}  // namespace lws::disaggregatedset
