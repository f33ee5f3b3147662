// File: api/json_fwd.h
//
// The JSON document type, declared without nlohmann's full header, for headers that only pass
// documents by pointer or reference (api/field.h includes the full one).
#pragma once

#include <nlohmann/json_fwd.hpp>

#include "base/flat_map.h"

namespace lws::api {

// JSON documents, with each object one sorted vector instead of nlohmann's default std::map
// (base/flat_map.h says why, and what a reference into an object may no longer assume).
using Json = nlohmann::basic_json<base::FlatMap>;

}  // namespace lws::api
