// File: apiserver/apply_items.cc

#include "apiserver/apply_items.h"

namespace lws::apiserver::items {

const Json* Find(const Json* object, const std::string& key) {
  if (object == nullptr || !object->is_object()) return nullptr;
  auto it = object->find(key);
  return it == object->end() ? nullptr : &*it;
}

IndexedItems Index(const Json* list, const ListSchema& schema) {
  IndexedItems out;
  if (list == nullptr || !list->is_array()) return out;
  for (const Json& item : *list) {
    Result<PathElement> pe = ListItemElement(schema, item);
    if (!pe.ok()) continue;
    out.order.push_back({*pe, &item});
    out.first.emplace(*pe, &item);
  }
  return out;
}

std::map<PathElement, const Json*> FirstItems(const Json* list, const ListSchema& schema) {
  std::map<PathElement, const Json*> out;
  if (list == nullptr || !list->is_array()) return out;
  for (const Json& item : *list) {
    Result<PathElement> pe = ListItemElement(schema, item);
    if (pe.ok()) out.emplace(std::move(*pe), &item);
  }
  return out;
}

}  // namespace lws::apiserver::items
