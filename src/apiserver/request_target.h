// File: apiserver/request_target.h
//
// What a request's target names, decoded once: the path's kind (version, health, discovery,
// OpenAPI, or a resource path with its group, version, namespace, resource, name and
// subresource) and the query parameters. Resource paths follow the Kubernetes REST layout:
//
//   /api/v1/[namespaces/{ns}/]{resource}[/{name}[/{subresource}]]
//   /apis/{group}/{version}/[namespaces/{ns}/]{resource}[/{name}[/{subresource}]]
//   /api/v1/namespaces/{name}[/status|/finalize]      the namespace object itself
//
// Whether the resource exists is the router's question (the registry changes as CRDs come and
// go); here a path only has to have the right shape. Query values are percent-decoded with '+'
// as space, as Go's url.ParseQuery does (kubectl sends labelSelector=tier+in+%28a%2Cb%29).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "base/result.h"

namespace lws::apiserver {

enum class TargetKind {
  kVersion,       // /version
  kHealth,        // /healthz, /readyz, /livez (and their /... checks)
  kCoreVersions,  // /api
  kGroupList,     // /apis
  kGroup,         // /apis/{group}
  kResourceList,  // /api/v1, /apis/{group}/{version}
  kOpenApiV2,     // /openapi/v2
  kOpenApiRoot,   // /openapi/v3
  kOpenApiDoc,    // /openapi/v3/api/v1, /openapi/v3/apis/{group}/{version}
  kResource,      // a resource path (see the banner)
  kUnknown,       // anything else: 404
};

// Query parameters; a repeated key keeps its first value, as Go's Values.Get reads it.
class QueryParams {
 public:
  // Adds `key` unless present: the first value a query names wins, as in Go's url.Values.Get.
  void Set(std::string key, std::string value);
  // Sets `key` to `value`, present or not.
  void Replace(std::string key, std::string value);
  bool Has(std::string_view key) const;
  // The value of `key`, or "" when absent.
  std::string Get(std::string_view key) const;
  // True for "true" and "1" (watch=1), as the real server's boolean conversion accepts them.
  bool GetBool(std::string_view key) const;
  const std::map<std::string, std::string, std::less<>>& values() const { return values_; }

 private:
  std::map<std::string, std::string, std::less<>> values_;
};

struct RequestTarget {
  TargetKind kind = TargetKind::kUnknown;
  std::string path;   // decoded path, without the query
  std::string group;  // "" for the core group
  std::string version;
  std::string namespace_;   // "" for cluster-scoped paths and all-namespace collections
  std::string resource;     // plural
  std::string name;         // "" for collections
  std::string subresource;  // "status", "scale", "binding", ...
  QueryParams query;
  // The client addressed events.k8s.io/v1 events, served from the core/v1 events this target
  // now names (event_versions.h): validation applies the events.k8s.io/v1 rules.
  bool as_events_v1 = false;

  bool IsCollection() const { return kind == TargetKind::kResource && name.empty(); }
};

// Parses an HTTP request target ("/api/v1/pods?limit=500"). BadRequest when it is not an
// origin-form URI or its percent-encoding is broken; a well-formed path the API does not know
// parses as kUnknown.
Result<RequestTarget> ParseRequestTarget(std::string_view target);
// The same, always through Boost.URL: ParseRequestTarget splits plain paths itself, and the tests
// and the fuzz target hold the two to the same answer.
Result<RequestTarget> ParseRequestTargetWithUrl(std::string_view target);

}  // namespace lws::apiserver
