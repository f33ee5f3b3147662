// File: apiserver/apply_schema.cc

#include "apiserver/apply_schema.h"

#include <memory>
#include <set>

namespace lws::apiserver {

using api::StringMember;
namespace {

// ObjectMeta's associative lists (metav1 openapi: ownerReferences map keyed by uid, finalizers a
// set); only the object's own metadata, since nested metadata belongs to templates whose schema
// the provider knows.
std::optional<ListSchema> ObjectMetaList(const SchemaPath& path) {
  if (path.size() != 2 || path[0] != "metadata") return std::nullopt;
  if (path[1] == "ownerReferences") return MapList({"uid"});
  if (path[1] == "finalizers") return SetList();
  if (path[1] == "managedFields") return ListSchema{};
  return std::nullopt;
}

bool IsArraySchema(const Json& node) {
  if (!node.is_object()) return false;
  auto type = node.find("type");
  if (type != node.end() && *type == "array") return true;
  auto items = node.find("items");
  return items != node.end() && items->is_object();
}

// Steps from an array schema to its items' schema (repeatedly, for lists of lists).
const Json* SkipArrays(const Json* node) {
  while (IsArraySchema(*node)) {
    auto items = node->find("items");
    if (items == node->end() || !items->is_object()) break;
    node = &*items;
  }
  return node;
}

// The schema node of the field at `path`, or nullptr where the schema says nothing (fields kept
// by x-kubernetes-preserve-unknown-fields, or unknown fields).
const Json* SchemaAt(const Json& root, const SchemaPath& path) {
  const Json* node = &root;
  for (const std::string& name : path) {
    node = SkipArrays(node);
    if (!node->is_object()) return nullptr;
    auto props = node->find("properties");
    if (props != node->end() && props->is_object() && props->contains(name)) {
      node = &(*props)[name];
      continue;
    }
    auto extra = node->find("additionalProperties");
    if (extra == node->end() || !extra->is_object()) return nullptr;
    node = &*extra;
  }
  return node;
}

ListSchema ListFromOpenApi(const Json& node) {
  if (!IsArraySchema(node)) return {};
  std::string type = StringMember(node, "x-kubernetes-list-type");
  if (type == "set") return SetList();
  if (type != "map") return {};
  ListSchema out;
  out.type = ListType::kMap;
  auto keys = node.find("x-kubernetes-list-map-keys");
  if (keys == node.end() || !keys->is_array()) return {};
  const Json* item_props = nullptr;
  if (auto items = node.find("items"); items != node.end() && items->is_object()) {
    if (auto p = items->find("properties"); p != items->end() && p->is_object()) item_props = &*p;
  }
  for (const Json& key : *keys) {
    if (!key.is_string()) continue;
    const std::string& name = key.get_ref<const std::string&>();
    out.keys.push_back(name);
    if (item_props == nullptr || !item_props->contains(name)) continue;
    const Json& prop = (*item_props)[name];
    if (prop.is_object() && prop.contains("default")) out.key_defaults[name] = prop["default"];
  }
  if (out.keys.empty()) return {};
  return out;
}

std::string Dotted(const SchemaPath& path) {
  std::string out;
  for (const std::string& name : path) out += (out.empty() ? "" : ".") + name;
  return out;
}

// Whether `value`, found at `depth`, nests objects or lists beyond kMaxFieldDepth.
bool TooDeep(const Json& value, std::size_t depth) {
  if (!value.is_object() && !value.is_array()) return false;
  if (depth >= kMaxFieldDepth) return true;
  for (const Json& child : value) {
    if (TooDeep(child, depth + 1)) return true;
  }
  return false;
}

// One ValidateShape walk. `twin` is the value at the same place in the valid twin (null when
// there is none) and `twin_skip` what the twin's check left out below that place.
struct ShapeWalk {
  const ListTypeProvider& provider;
  bool allow_duplicates;
  SchemaPath schema_path;
  Path path;
  std::vector<ShapeError> errors;

  void TooDeepError() {
    errors.push_back({path, "exceeded max depth of " + std::to_string(kMaxFieldDepth)});
  }

  // The twin's counterpart of a child, unless the twin's check left that child out.
  static const Json* TwinChild(const FieldSet* twin_skip, const PathElement& pe,
                               const Json* counterpart) {
    return twin_skip != nullptr && twin_skip->HasMember(pe) ? nullptr : counterpart;
  }

  // The twin passed this very check on an equal value at the same depth, and skipped nothing.
  static bool Vouches(const Json* twin, const FieldSet* twin_skip, const Json& value) {
    return twin != nullptr && twin_skip == nullptr && *twin == value;
  }

  void Node(const Json& value, const FieldSet* skip, const Json* twin, const FieldSet* twin_skip) {
    if (Vouches(twin, twin_skip, value)) return;
    if (path.size() >= kMaxFieldDepth && (value.is_object() || value.is_array())) {
      return TooDeepError();
    }
    if (value.is_object()) return Object(value, skip, twin, twin_skip);
    if (value.is_array()) return List(value, skip, twin, twin_skip);
  }

  void Object(const Json& value, const FieldSet* skip, const Json* twin,
              const FieldSet* twin_skip) {
    if (provider.AtomicMapAt(schema_path)) {
      if (TooDeep(value, path.size())) TooDeepError();
      return;
    }
    for (const auto& [key, child] : value.items()) {
      // Only objects and lists hold anything to check; most fields are scalars, and no path
      // element is built for them.
      if (!child.is_object() && !child.is_array()) continue;
      PathElement pe = PathElement::Field(key);
      const FieldSet* below = nullptr;
      if (SkipsElement(skip, pe, &below)) continue;
      const Json* counterpart = nullptr;  // the twin's value under `key`
      if (twin != nullptr && twin->is_object()) {
        auto it = twin->find(key);
        if (it != twin->end()) counterpart = &*it;
      }
      const Json* twin_child = TwinChild(twin_skip, pe, counterpart);
      const FieldSet* twin_below = twin_skip == nullptr ? nullptr : twin_skip->Child(pe);
      schema_path.push_back(key);
      path.push_back(std::move(pe));
      Node(child, below, twin_child, twin_below);
      path.pop_back();
      schema_path.pop_back();
    }
  }

  void List(const Json& value, const FieldSet* skip, const Json* twin, const FieldSet* twin_skip) {
    ListSchema list = provider.ListAt(schema_path);
    if (list.type == ListType::kAtomic) {
      if (TooDeep(value, path.size())) TooDeepError();
      return;
    }
    std::set<PathElement> seen;
    for (std::size_t i = 0; i < value.size(); ++i) {
      Result<PathElement> pe = ListItemElement(list, value[i]);
      if (!pe.ok()) {
        errors.push_back({path, "element " + std::to_string(i) + ": " + pe.status().message()});
        continue;
      }
      // Live objects may hold duplicates: then nothing needs the set.
      if (!allow_duplicates && !seen.insert(*pe).second) {
        errors.push_back({path, "duplicate entries for key " + pe->String()});
      }
      const FieldSet* below = nullptr;
      if (list.type != ListType::kMap || SkipsElement(skip, *pe, &below)) continue;
      // Items pair up by position, so the twin vouches only for an equal item (whose key is the
      // same): below a changed item, the twin's skips would belong to another key.
      const Json* counterpart =
          twin != nullptr && twin->is_array() && i < twin->size() ? &(*twin)[i] : nullptr;
      const FieldSet* twin_below = twin_skip == nullptr ? nullptr : twin_skip->Child(*pe);
      if (Vouches(TwinChild(twin_skip, *pe, counterpart), twin_below, value[i])) continue;
      path.push_back(*pe);
      Node(value[i], below, nullptr, nullptr);
      path.pop_back();
    }
  }
};

}  // namespace

ListSchema MapList(std::vector<std::string> keys, Json key_defaults) {
  return ListSchema{ListType::kMap, std::move(keys), std::move(key_defaults)};
}

ListSchema SetList() { return ListSchema{ListType::kSet, {}, Json::object()}; }

ListSchema ListTypeProvider::ListAt(const SchemaPath& path) const {
  if (std::optional<ListSchema> meta = ObjectMetaList(path)) return *meta;
  return list_type ? list_type(path) : ListSchema{};
}

bool ListTypeProvider::AtomicMapAt(const SchemaPath& path) const {
  return atomic_map ? atomic_map(path) : false;
}

ListTypeProvider FromOpenApiSchema(const Json& schema) {
  auto root = std::make_shared<const Json>(schema);
  ListTypeProvider provider;
  provider.list_type = [root](const SchemaPath& path) {
    const Json* node = SchemaAt(*root, path);
    return node == nullptr ? ListSchema{} : ListFromOpenApi(*node);
  };
  provider.atomic_map = [root](const SchemaPath& path) {
    const Json* node = SchemaAt(*root, path);
    if (node == nullptr) return false;
    return StringMember(*SkipArrays(node), "x-kubernetes-map-type") == "atomic";
  };
  return provider;
}

ListTypeProvider FromMergeKeys(MergeKeyLookup lookup) {
  ListTypeProvider provider;
  provider.list_type = [lookup = std::move(lookup)](const SchemaPath& path) {
    std::optional<ListSchema> found = lookup(Dotted(path));
    return found.has_value() ? *found : ListSchema{};
  };
  return provider;
}

Result<PathElement> ListItemElement(const ListSchema& list, const Json& item) {
  if (list.type == ListType::kSet) {
    if (item.is_object()) {
      return Status::BadRequest("associative list without keys has an element that's a map type");
    }
    if (item.is_array()) {
      return Status::BadRequest("not supported: associative list with lists as elements");
    }
    if (item.is_null()) {
      return Status::BadRequest(
          "associative list without keys has an element that's an explicit null");
    }
    return PathElement::Value(item);
  }
  if (item.is_null()) {
    return Status::BadRequest("associative list with keys may not have a null element");
  }
  if (!item.is_object()) {
    return Status::BadRequest("associative list with keys may not have non-map elements");
  }
  Json key = Json::object();
  for (const std::string& name : list.keys) {
    if (auto it = item.find(name); it != item.end()) {
      key[name] = *it;
    } else if (auto def = list.key_defaults.find(name); def != list.key_defaults.end()) {
      key[name] = *def;
    } else {
      return Status::BadRequest("associative list with keys has an element that omits key field " +
                                api::GoQuote(name) + " (and doesn't have default value)");
    }
  }
  return PathElement::Key(std::move(key));
}

std::string ShapeError::Text() const {
  return path.empty() ? message : PathString(path) + ": " + message;
}

std::string ShapeErrorsText(const std::vector<ShapeError>& errors) {
  if (errors.size() == 1) return errors[0].Text();
  std::string out = "errors:";
  for (const ShapeError& e : errors) out += "\n  " + e.Text();
  return out;
}

std::vector<ShapeError> ValidateShape(const Json& value, const ListTypeProvider& provider,
                                      bool allow_duplicates, const FieldSet* skip, ValidTwin twin) {
  ShapeWalk walk{provider, allow_duplicates, {}, {}, {}};
  walk.Node(value, skip, twin.value, twin.value == nullptr ? nullptr : twin.skipped);
  return std::move(walk.errors);
}

}  // namespace lws::apiserver
