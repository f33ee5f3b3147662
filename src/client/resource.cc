#include "client/resource.h"

#include "api/resource_path.h"

namespace lws::client {

std::string Resource::Path(std::string_view ns, std::string_view name,
                           std::string_view subresource) const {
  return api::ResourcePath(group, version, namespaced ? ns : std::string_view(), resource, name,
                           subresource);
}

}  // namespace lws::client
