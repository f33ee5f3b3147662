#include "client/resource.h"

namespace lws::client {

std::string Resource::Path(std::string_view ns, std::string_view name,
                           std::string_view subresource) const {
  std::string path = group.empty() ? "/api/" + version : "/apis/" + group + "/" + version;
  if (namespaced && !ns.empty()) {
    path += "/namespaces/";
    path += ns;
  }
  path += "/";
  path += resource;
  if (!name.empty()) {
    path += "/";
    path += name;
    if (!subresource.empty()) {
      path += "/";
      path += subresource;
    }
  }
  return path;
}

}  // namespace lws::client
