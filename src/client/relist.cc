#include "client/relist.h"

#include <set>

namespace lws::client {

store::ObjectName WatchKey(const api::Json& object, bool namespaced) {
  store::ObjectName key = store::NameOf(object);
  if (!namespaced) key.namespace_.clear();
  return key;
}

std::vector<store::WatchEvent> RelistEvents(
    const std::map<store::ObjectName, store::ObjectPtr>& known,
    const std::vector<store::ObjectPtr>& listed, std::uint64_t list_resource_version,
    bool namespaced) {
  std::set<store::ObjectName> present;
  for (const store::ObjectPtr& object : listed)
    present.insert(WatchKey(object->document(), namespaced));
  std::vector<store::WatchEvent> events;
  for (const auto& [key, object] : known) {
    if (present.count(key)) continue;
    events.push_back({store::EventType::kDeleted,
                      store::MakeStoredObject(object->document(), list_resource_version)});
  }
  for (const store::ObjectPtr& object : listed) {
    events.push_back({store::EventType::kAdded, object});
  }
  return events;
}

}  // namespace lws::client
