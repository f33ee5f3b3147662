// File: cluster/config_decoder.h
//
// The strict decoder of the cluster file (cluster_config.h), shared with the files that embed a
// cluster (`lws simulate`'s scenario file): every problem is collected with its field path, and
// the caller reports them all at once (InvalidFile).
#pragma once

#include <map>
#include <set>
#include <string>

#include "api/field.h"
#include "cluster/cluster_config.h"

namespace lws::cluster::internal {

using api::FieldPath;
using api::Json;

// Collects every problem of one file; each decoder reports into it and goes on.
struct Decoder {
  api::ErrorList errors;

  void Unknown(const Json& object, const FieldPath& path, const std::set<std::string>& known) {
    for (const auto& [key, value] : object.items()) {
      if (!known.count(key)) {
        errors.push_back(
            api::Forbidden(path.Child(key), "unknown field (see docs/cluster-config.md)"));
      }
    }
  }
  bool IsObject(const Json& value, const FieldPath& path) {
    if (value.is_object()) return true;
    errors.push_back(api::TypeInvalid(path, value, "must be an object"));
    return false;
  }
  std::string String(const Json& value, const FieldPath& path) {
    if (value.is_string()) return value;
    errors.push_back(api::TypeInvalid(path, value, "must be a string"));
    return "";
  }
  int Count(const Json& value, const FieldPath& path) {
    if (value.is_number_integer() && value.get<std::int64_t>() >= 0 &&
        value.get<std::int64_t>() <= 100'000) {
      return value.get<int>();
    }
    errors.push_back(api::Invalid(path, value, "must be an integer between 0 and 100000"));
    return 0;
  }
  Duration Time(const Json& value, const FieldPath& path) {
    Result<Duration> d =
        value.is_string()
            ? ParseGoDuration(value.get<std::string>())
            : Result<Duration>(Status::BadRequest("must be a duration string such as \"90s\""));
    if (d.ok()) return *d;
    errors.push_back(api::Invalid(path, value, std::string(d.status().message())));
    return Duration{};
  }
  std::map<std::string, std::string> StringMap(const Json& value, const FieldPath& path) {
    std::map<std::string, std::string> out;
    if (!IsObject(value, path)) return out;
    for (const auto& [key, item] : value.items()) {
      out[key] = item.is_string() ? item.get<std::string>() : item.dump();
    }
    return out;
  }
};

// nodePools[i]: one pool, every problem reported into *d.
NodePoolSpec DecodePool(const Json& value, const FieldPath& path, Decoder* d);

// The cluster's own fields of `object` (nodePools, capacityChanges, gangScheduler,
// otherTenants), whose field paths start at `path`; every problem reported into *d. Fields of
// `object` outside those and `extra_known` are reported as unknown.
ClusterSpec DecodeClusterSection(const Json& object, const FieldPath& path, Decoder* d,
                                 const std::set<std::string>& extra_known = {});

// otherTenants (cluster_config_tenants.cc).
OtherTenants DecodeOtherTenants(const Json& value, const FieldPath& path, Decoder* d);

// The Status of a file with `errors`: kInvalid, one line and one cause per error, each line
// starting with `file`.
Status InvalidFile(const std::string& file, const api::ErrorList& errors);

}  // namespace lws::cluster::internal
