// File: simulate/workload.h
//
// The workloads of a scenario as JSON objects: which kind each is, its name, and the merge patch
// of an image change (every container of an LWS's two templates, or of every role's two
// templates of a DisaggregatedSet: containers is a list, so the patch carries the whole list, and
// so does roles).
#pragma once

#include <string>

#include "api/field.h"
#include "base/result.h"

namespace lws::simulate {

using api::Json;

bool IsLws(const Json& object);
bool IsDisaggregatedSet(const Json& object);
// What a scenario rolls out and a run watches: an LWS or a DisaggregatedSet.
bool IsRollable(const Json& object);
std::string NameOf(const Json& object);

Json ImagePatch(const Json& workload, const std::string& image);

// `patch` merged into every role of a DisaggregatedSet (a merge patch replaces the roles list
// whole, so the roles are patched one by one).
Result<Json> PatchRoles(const Json& ds, const Json& patch);

}  // namespace lws::simulate
