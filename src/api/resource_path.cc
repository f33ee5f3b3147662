// File: api/resource_path.cc
#include "api/resource_path.h"

namespace lws::api {

std::string ResourcePath(std::string_view group, std::string_view version, std::string_view ns,
                         std::string_view resource, std::string_view name,
                         std::string_view subresource) {
  std::string path = group.empty() ? "/api/" : "/apis/";
  if (!group.empty()) {
    path += group;
    path += "/";
  }
  path += version;
  if (!ns.empty()) {
    path += "/namespaces/";
    path += ns;
  }
  path += "/";
  path += resource;
  if (name.empty()) return path;
  path += "/";
  path += name;
  if (!subresource.empty()) {
    path += "/";
    path += subresource;
  }
  return path;
}

}  // namespace lws::api
