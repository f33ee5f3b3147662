// File: apiserver/discovery.h
//
// The discovery documents through which kubectl and client-go learn what the server serves
// (kubectl-compat.md sections 0.1, 0.9 and 2), built from the api::ResourceRegistry alone:
//
//   GET /version                 VersionDocument: minor "32" picks kubectl 1.32 (section 0.1).
//   GET /api                     CoreVersions (legacy APIVersions) or aggregated discovery.
//   GET /apis                    GroupList (legacy APIGroupList) or aggregated discovery.
//   GET /apis/<g>                Group (APIGroup).
//   GET /api/v1, /apis/<g>/<v>   ResourceList (APIResourceList), always legacy:
//   controller-runtime's
//                                lazy RESTMapper reads it even when aggregated discovery exists.
//
// Every document is deterministic: groups come in the order the real server lists them (built-in
// groups by upstream priority, then custom groups by name), versions newest first by Kubernetes
// version priority (v1 > v1beta2 > v1beta1 > v1alpha1), resources and subresources by name.
// NegotiateDiscovery picks the aggregated form only when the Accept header asks for it and plain
// JSON otherwise; it never refuses (no 406).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "api/field.h"
#include "api/resources.h"
#include "base/result.h"

namespace lws::apiserver {

using Json = api::Json;

// Media type of aggregated discovery responses (kubectl-compat.md section 2.2).
inline constexpr std::string_view kAggregatedDiscoveryV2ContentType =
    "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList";
inline constexpr std::string_view kAggregatedDiscoveryV2Beta1ContentType =
    "application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList";
inline constexpr std::string_view kJsonContentType = "application/json";

// The version.Info of GET /version: major "1", minor "32", gitVersion "v1.32.0".
Json VersionDocument();

// GET /api (legacy): {"kind":"APIVersions","versions":["v1"],"serverAddressByClientCIDRs":[...]};
// `server_address` is the host:port clients reach the server at.
Json CoreVersions(const api::ResourceRegistry& registry, std::string_view server_address);

// GET /apis (legacy): the APIGroupList of every named group.
Json GroupList(const api::ResourceRegistry& registry);

// GET /apis/<group>: the APIGroup; NotFound when no resource of the group is served.
Result<Json> Group(const api::ResourceRegistry& registry, std::string_view group);

// GET /api/v1 ("" group) or /apis/<group>/<version>: the APIResourceList with status, scale
// and the other served subresources; NotFound when the group/version is not served.
Result<Json> ResourceList(const api::ResourceRegistry& registry, std::string_view group,
                          std::string_view version);

enum class AggregatedVersion { kV2, kV2Beta1 };

// GET /api (core = true) or /apis (core = false) in aggregated form: an APIGroupDiscoveryList
// of apidiscovery.k8s.io/<version>, every version "freshness": "Current".
Json AggregatedDiscovery(const api::ResourceRegistry& registry, bool core,
                         AggregatedVersion version = AggregatedVersion::kV2);

// The representation chosen for a discovery request.
struct DiscoveryRepresentation {
  bool aggregated = false;
  AggregatedVersion version = AggregatedVersion::kV2;  // meaningful when aggregated
  std::string content_type;                            // the Content-Type to send
};

// Picks the representation for GET /api or /apis from the Accept header: aggregated v2 (or
// v2beta1) when a preferred range asks for as=APIGroupDiscoveryList;g=apidiscovery.k8s.io,
// otherwise plain JSON, whatever else the header says.
DiscoveryRepresentation NegotiateDiscovery(std::string_view accept);

// The names of the served groups in discovery order; "" (core) first when served.
std::vector<std::string> GroupsInDiscoveryOrder(const api::ResourceRegistry& registry);

// The served versions of `group`, preferred first.
std::vector<std::string> VersionsInDiscoveryOrder(const api::ResourceRegistry& registry,
                                                  std::string_view group);

// Returns true iff version `a` comes before `b` in Kubernetes version priority: GA before beta
// before alpha, higher numbers first, versions of another shape last in lexical order.
bool VersionSortsBefore(std::string_view a, std::string_view b);

}  // namespace lws::apiserver
