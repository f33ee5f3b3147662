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

namespace {

// Lists of up to this many items are checked pair by pair; conditions and container statuses,
// which status writes change, have a handful.
constexpr std::size_t kMaxPairedByPosition = 16;

// The value an item's key field takes (ListItemElement's rule): its own, else the schema's
// default; null when it has neither.
const Json* KeyField(const ListSchema& schema, const Json& item, const std::string& name) {
  if (auto it = item.find(name); it != item.end()) return &*it;
  auto def = schema.key_defaults.find(name);
  return def == schema.key_defaults.end() ? nullptr : &*def;
}

// Whether both items have a key (ListItemElement succeeds) and the keys are equal as path
// elements compare them.
bool SameKey(const ListSchema& schema, const Json& x, const Json& y) {
  if (schema.type == ListType::kSet) {
    const auto keyed = [](const Json& v) {
      return !v.is_object() && !v.is_array() && !v.is_null();
    };
    return keyed(x) && keyed(y) && CompareValues(x, y) == 0;
  }
  if (schema.type != ListType::kMap || !x.is_object() || !y.is_object()) return false;
  for (const std::string& name : schema.keys) {
    const Json* vx = KeyField(schema, x, name);
    const Json* vy = KeyField(schema, y, name);
    if (vx == nullptr || vy == nullptr || CompareValues(*vx, *vy) != 0) return false;
  }
  return true;
}

}  // namespace

bool SameKeysInOrder(const Json& a, const Json& b, const ListSchema& schema) {
  if (!a.is_array() || !b.is_array() || a.size() != b.size() || a.size() > kMaxPairedByPosition) {
    return false;
  }
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (!SameKey(schema, a[i], b[i])) return false;
  }
  for (std::size_t i = 0; i < a.size(); ++i) {
    for (std::size_t j = i + 1; j < a.size(); ++j) {
      if (SameKey(schema, a[i], a[j])) return false;  // a repeated key: FirstItems keeps one
    }
  }
  return true;
}

}  // namespace lws::apiserver::items
