// File: api/identical_json.h
//
// Whether two JSON values are the same as written: nlohmann's == takes 1 and 1.0 for equal, which
// the callers must not (a write that only respells a number is still a change an apply would
// undo; a stored entry shared for another would serialise differently).
#pragma once

#include "api/json_fwd.h"

namespace lws::api {

// Same types, same members in the same order, same items, same scalars.
bool IdenticalJson(const Json& a, const Json& b);

// A copy of `v` without the members Go's semantic equality cannot tell from absent: nulls, empty
// strings and empty arrays (recursively). Used to compare specs and templates across updates
// (`creationTimestamp: null` in a template is the same template).
Json NormalizedForCompare(const Json& v);

}  // namespace lws::api
