// File: api/resource_path.h
//
// The URL path the API server routes a resource by, built in one place for the REST client
// (client::Resource::Path) and the write port's request target (apiserver/write_port.cc).
#pragma once

#include <string>
#include <string_view>

namespace lws::api {

// "/api/v1/namespaces/<ns>/pods[/<name>[/<subresource>]]", or "/apis/<group>/<version>/..." for a
// named group. An empty `ns` leaves the namespace out (a cluster-scoped resource, or every
// namespace); the subresource follows only a name.
std::string ResourcePath(std::string_view group, std::string_view version, std::string_view ns,
                         std::string_view resource, std::string_view name = {},
                         std::string_view subresource = {});

}  // namespace lws::api
