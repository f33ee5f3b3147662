#include "client/resource.h"

#include "api/resource_path.h"
#include "api/resources.h"

namespace lws::client {

std::string Resource::Path(std::string_view ns, std::string_view name,
                           std::string_view subresource) const {
  return api::ResourcePath(group, version, namespaced ? ns : std::string_view(), resource, name,
                           subresource);
}

Resource ResourceOf(const api::ResourceInfo& info) {
  return Resource{info.group, info.version, info.resource, info.namespaced};
}

}  // namespace lws::client
