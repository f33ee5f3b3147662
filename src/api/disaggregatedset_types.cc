#include "api/disaggregatedset_types.h"

namespace lws::api {

const DisaggregatedRoleSpec* DisaggregatedSet::FindRole(std::string_view name) const {
  for (const DisaggregatedRoleSpec& role : spec.roles) {
    if (role.name == name) return &role;
  }
  return nullptr;
}

}  // namespace lws::api
