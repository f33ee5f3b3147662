// Compiling a CRD schema, pruning and defaulting (apiextensions-apiserver's pruning/,
// defaulting/ and objectmeta/ coercion). Validation lives in schema_validate.cc.
#include "api/schema.h"

#include <algorithm>
#include <set>

#include "api/lws_crd.h"
#include "api/schema_node.h"
#include "base/assert.h"

namespace lws::api {
namespace {

constexpr int kMaxSchemaDepth = 200;
constexpr int kMaxObjectDepth = 1000;

bool IsMetaField(const std::string& k) {
  return k == "apiVersion" || k == "kind" || k == "metadata";
}

// The JSON fields of metav1.ObjectMeta; anything else in metadata is dropped by the server's
// round trip through the typed struct.
bool IsObjectMetaField(const std::string& k) {
  static const std::set<std::string> kFields = {"name",
                                                "generateName",
                                                "namespace",
                                                "selfLink",
                                                "uid",
                                                "resourceVersion",
                                                "generation",
                                                "creationTimestamp",
                                                "deletionTimestamp",
                                                "deletionGracePeriodSeconds",
                                                "labels",
                                                "annotations",
                                                "ownerReferences",
                                                "finalizers",
                                                "managedFields"};
  return kFields.count(k) > 0;
}

// Depth of nesting, computed without recursion so that hostile input cannot exhaust the stack.
int NestingDepth(const Json& root) {
  int max_depth = 0;
  std::vector<std::pair<const Json*, int>> stack = {{&root, 1}};
  while (!stack.empty()) {
    auto [v, d] = stack.back();
    stack.pop_back();
    max_depth = std::max(max_depth, d);
    if (d > kMaxObjectDepth) break;
    if (v->is_structured()) {
      for (const Json& child : *v) stack.push_back({&child, d + 1});
    }
  }
  return max_depth;
}

class Pruner {
 public:
  explicit Pruner(std::vector<std::string>* out) : out_(out) {}

  // pruning.prune: `root` makes the node an embedded resource, as the server does for the root.
  void Prune(Json& x, const SchemaNode* s, const std::string& path, bool root) {
    if (s && s->preserve_unknown_fields) return SkipPrune(x, s, path, root);
    if (x.is_object()) {
      if (!s) {
        for (auto it = x.begin(); it != x.end(); ++it) Record(path, it.key());
        x = Json::object();
        return;
      }
      bool embedded = root || s->embedded_resource;
      std::vector<std::string> keys;
      for (auto it = x.begin(); it != x.end(); ++it) keys.push_back(it.key());
      for (const std::string& k : keys) {
        if (embedded && IsMetaField(k)) continue;
        auto prop = s->properties.find(k);
        if (prop != s->properties.end()) {
          Prune(x[k], prop->second.get(), Join(path, k), false);
        } else if (s->has_additional) {
          Prune(x[k], s->additional.get(), Join(path, k), false);
        } else {
          if (!IsMetaField(k) || !path.empty()) Record(path, k);
          x.erase(k);
        }
      }
    } else if (x.is_array()) {
      for (std::size_t i = 0; i < x.size(); ++i) {
        Prune(x[i], s ? s->items.get() : nullptr, path + "[" + std::to_string(i) + "]", false);
      }
    }
  }

 private:
  void SkipPrune(Json& x, const SchemaNode* s, const std::string& path, bool root) {
    if (x.is_object()) {
      bool embedded = root || s->embedded_resource;
      for (auto it = x.begin(); it != x.end(); ++it) {
        if (embedded && IsMetaField(it.key())) continue;
        auto prop = s->properties.find(it.key());
        if (prop != s->properties.end()) {
          Prune(it.value(), prop->second.get(), Join(path, it.key()), false);
        } else if (s->has_additional) {
          Prune(it.value(), s->additional.get(), Join(path, it.key()), false);
        }
      }
    } else if (x.is_array() && s->items) {
      for (std::size_t i = 0; i < x.size(); ++i) {
        SkipPrune(x[i], s->items.get(), path + "[" + std::to_string(i) + "]", false);
      }
    }
  }

  static std::string Join(const std::string& path, const std::string& key) {
    return path.empty() ? key : path + "." + key;
  }
  void Record(const std::string& path, const std::string& key) {
    if (out_) out_->push_back(Join(path, key));
  }

  std::vector<std::string>* out_;
};

// defaulting.PruneNonNullableNullsWithoutDefaults.
void PruneNulls(Json& x, const SchemaNode* s) {
  if (x.is_object()) {
    std::vector<std::string> drop;
    for (auto it = x.begin(); it != x.end(); ++it) {
      bool known = false;
      const SchemaNode* sub = s ? s->Field(it.key(), &known) : nullptr;
      if (it->is_null() && sub && !sub->nullable && !sub->default_value) {
        drop.push_back(it.key());
      } else {
        PruneNulls(it.value(), sub);
      }
    }
    for (const auto& k : drop) x.erase(k);
  } else if (x.is_array()) {
    for (Json& item : x) PruneNulls(item, s ? s->items.get() : nullptr);
  }
}

// objectmeta.Coerce, reduced to what survives the typed round trip: metadata of the root and of
// embedded resources keeps only ObjectMeta's fields; nulls disappear.
void CoerceMetadata(Json& x, const SchemaNode* s, const std::string& path, bool root,
                    std::vector<std::string>* out) {
  if (!s) return;
  if (x.is_object()) {
    if ((root || s->embedded_resource) && x.contains("metadata") && x["metadata"].is_object()) {
      Json& meta = x["metadata"];
      std::string meta_path = path.empty() ? "metadata" : path + ".metadata";
      std::vector<std::string> drop;
      for (auto it = meta.begin(); it != meta.end(); ++it) {
        if (!IsObjectMetaField(it.key())) {
          out->push_back(meta_path + "." + it.key());
          drop.push_back(it.key());
        } else if (it->is_null()) {
          drop.push_back(it.key());
        }
      }
      for (const auto& k : drop) meta.erase(k);
    }
    for (auto it = x.begin(); it != x.end(); ++it) {
      bool known = false;
      const SchemaNode* sub = s->Field(it.key(), &known);
      std::string child = path.empty() ? it.key() : path + "." + it.key();
      CoerceMetadata(it.value(), sub, child, false, out);
    }
  } else if (x.is_array()) {
    for (std::size_t i = 0; i < x.size(); ++i) {
      CoerceMetadata(x[i], s->items.get(), path + "[" + std::to_string(i) + "]", false, out);
    }
  }
}

// defaulting.Default (the current algorithm, which also replaces non-nullable nulls).
void Default(Json& x, const SchemaNode* s) {
  if (!s) return;
  auto non_nullable_null = [](const Json& v, const SchemaNode* n) {
    return v.is_null() && n && !n->nullable;
  };
  if (x.is_object()) {
    for (const auto& [k, prop] : s->properties) {
      if (!prop->default_value) continue;
      auto it = x.find(k);
      if (it == x.end() || non_nullable_null(*it, prop.get())) x[k] = *prop->default_value;
    }
    for (auto it = x.begin(); it != x.end(); ++it) {
      auto prop = s->properties.find(it.key());
      if (prop != s->properties.end()) {
        Default(it.value(), prop->second.get());
      } else if (s->has_additional) {
        const SchemaNode* add = s->additional.get();
        if (non_nullable_null(it.value(), add) && add->default_value)
          it.value() = *add->default_value;
        Default(it.value(), add);
      }
    }
  } else if (x.is_array()) {
    const SchemaNode* items = s->items.get();
    for (Json& item : x) {
      if (non_nullable_null(item, items) && items->default_value) item = *items->default_value;
      Default(item, items);
    }
  }
}

// ---- Compiling --------------------------------------------------------------------------------

std::optional<std::int64_t> IntKeyword(const Json& j, const char* key) {
  auto it = j.find(key);
  if (it == j.end() || !it->is_number()) return std::nullopt;
  return it->get<std::int64_t>();
}

std::optional<double> NumberKeyword(const Json& j, const char* key) {
  auto it = j.find(key);
  if (it == j.end() || !it->is_number()) return std::nullopt;
  return it->get<double>();
}

bool BoolKeyword(const Json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_boolean() && it->get<bool>();
}

Result<SchemaNodePtr> CompileNode(const Json& j, int depth);

Result<std::vector<SchemaNodePtr>> CompileList(const Json& j, const char* key, int depth) {
  std::vector<SchemaNodePtr> out;
  auto it = j.find(key);
  if (it == j.end()) return out;
  if (!it->is_array()) return Status::BadRequest(std::string(key) + " must be an array of schemas");
  for (const Json& sub : *it) {
    ASSIGN_OR_RETURN(SchemaNodePtr n, CompileNode(sub, depth + 1));
    out.push_back(std::move(n));
  }
  return out;
}

Status CompileStructure(const Json& j, SchemaNode* n, int depth) {
  if (auto it = j.find("properties"); it != j.end() && it->is_object()) {
    for (auto p = it->begin(); p != it->end(); ++p) {
      ASSIGN_OR_RETURN(n->properties[p.key()], CompileNode(p.value(), depth + 1));
    }
  }
  if (auto it = j.find("items"); it != j.end() && it->is_object()) {
    ASSIGN_OR_RETURN(n->items, CompileNode(*it, depth + 1));
  }
  if (auto it = j.find("additionalProperties"); it != j.end()) {
    n->has_additional = true;
    if (it->is_boolean()) n->additional_allows = it->get<bool>();
    if (it->is_object()) {
      ASSIGN_OR_RETURN(n->additional, CompileNode(*it, depth + 1));
    }
  }
  ASSIGN_OR_RETURN(n->all_of, CompileList(j, "allOf", depth));
  ASSIGN_OR_RETURN(n->any_of, CompileList(j, "anyOf", depth));
  ASSIGN_OR_RETURN(n->one_of, CompileList(j, "oneOf", depth));
  if (auto it = j.find("not"); it != j.end()) {
    ASSIGN_OR_RETURN(n->not_schema, CompileNode(*it, depth + 1));
  }
  return Status::Ok();
}

void CompileValueKeywords(const Json& j, SchemaNode* n) {
  std::string type = StringMember(j, "type");
  if (!type.empty()) n->types = {type};
  if (BoolKeyword(j, "x-kubernetes-int-or-string")) n->types = {"integer", "string"};
  n->nullable = BoolKeyword(j, "nullable");
  std::string format = StringMember(j, "format");
  if (IsKnownStringFormat(format)) n->format = format;
  n->maximum = NumberKeyword(j, "maximum");
  n->minimum = NumberKeyword(j, "minimum");
  n->multiple_of = NumberKeyword(j, "multipleOf");
  n->exclusive_maximum = BoolKeyword(j, "exclusiveMaximum");
  n->exclusive_minimum = BoolKeyword(j, "exclusiveMinimum");
  n->max_length = IntKeyword(j, "maxLength");
  n->min_length = IntKeyword(j, "minLength");
  n->max_items = IntKeyword(j, "maxItems");
  n->min_items = IntKeyword(j, "minItems");
  n->max_properties = IntKeyword(j, "maxProperties");
  n->min_properties = IntKeyword(j, "minProperties");
  n->unique_items = BoolKeyword(j, "uniqueItems");
  if (auto it = j.find("required"); it != j.end() && it->is_array()) {
    for (const Json& r : *it) {
      if (r.is_string()) n->required.push_back(r.get<std::string>());
    }
  }
  if (auto it = j.find("enum"); it != j.end() && it->is_array()) n->enum_values = *it;
  if (auto it = j.find("default"); it != j.end() && !it->is_null()) n->default_value = *it;
  n->preserve_unknown_fields = BoolKeyword(j, "x-kubernetes-preserve-unknown-fields");
  n->embedded_resource = BoolKeyword(j, "x-kubernetes-embedded-resource");
  n->list_type = StringMember(j, "x-kubernetes-list-type");
  if (auto it = j.find("x-kubernetes-list-map-keys"); it != j.end() && it->is_array()) {
    for (const Json& k : *it) {
      if (k.is_string()) n->list_map_keys.push_back(k.get<std::string>());
    }
  }
}

Result<SchemaNodePtr> CompileNode(const Json& j, int depth) {
  if (!j.is_object()) return Status::BadRequest("schema node must be an object");
  if (depth > kMaxSchemaDepth) return Status::BadRequest("schema nesting is too deep");
  auto n = std::make_shared<SchemaNode>();
  CompileValueKeywords(j, n.get());
  n->pattern = StringMember(j, "pattern");
  if (!n->pattern.empty()) {
    auto re = SchemaRegex::Compile(n->pattern);
    if (re.ok()) {
      n->regex = *re;
    } else {
      n->regex_error = re.status().message();
    }
  }
  RETURN_IF_ERROR(CompileStructure(j, n.get(), depth));
  CompileCelRules(j, n.get());
  n->rules_below = !n->rules.empty() || (n->items && n->items->rules_below) ||
                   (n->additional && n->additional->rules_below);
  for (const auto& [name, prop] : n->properties) n->rules_below |= prop->rules_below;
  for (const auto& sub : n->all_of) n->rules_below |= sub->rules_below;
  // A default is pruned like the object it fills in (defaulting.PruneDefaults).
  if (n->default_value) {
    Pruner(nullptr).Prune(*n->default_value, n.get(), "", false);
  }
  return SchemaNodePtr(std::move(n));
}

}  // namespace

const SchemaNode* SchemaNode::Field(const std::string& k, bool* known) const {
  auto it = properties.find(k);
  *known = it != properties.end() || has_additional;
  if (it != properties.end()) return it->second.get();
  return has_additional ? additional.get() : nullptr;
}

Result<StructuralSchema> StructuralSchema::Compile(const Json& open_api_v3_schema) {
  ASSIGN_OR_RETURN(SchemaNodePtr root, CompileNode(open_api_v3_schema, 0));
  StructuralSchema s;
  s.skipped_rules_ = CollectSkippedRules(*root);
  s.root_ = std::move(root);
  return s;
}

std::vector<std::string> StructuralSchema::Prune(Json* obj) const {
  std::vector<std::string> paths;
  if (NestingDepth(*obj) > kMaxObjectDepth) return paths;
  Pruner(&paths).Prune(*obj, root_.get(), "", true);
  PruneNulls(*obj, root_.get());
  CoerceMetadata(*obj, root_.get(), "", true, &paths);
  std::sort(paths.begin(), paths.end());
  return paths;
}

void StructuralSchema::ApplyDefaults(Json* obj) const {
  if (NestingDepth(*obj) > kMaxObjectDepth) return;
  Default(*obj, root_.get());
}

ErrorList StructuralSchema::Validate(const Json& obj) const {
  ErrorList errors;
  Validate(obj, &errors);
  return errors;
}

void StructuralSchema::Validate(const Json& obj, ErrorList* errors) const {
  if (NestingDepth(obj) > kMaxObjectDepth) {
    errors->push_back(Invalid(
        FieldPath(), "", "object nesting exceeds " + std::to_string(kMaxObjectDepth) + " levels"));
    return;
  }
  ErrorList schema_errors = ValidateAgainst(*root_, obj);
  errors->insert(errors->end(), schema_errors.begin(), schema_errors.end());
  ValidateCelRules(*root_, obj, errors);
}

const StructuralSchema& LwsStructuralSchema() {
  static const StructuralSchema schema = [] {
    auto s = StructuralSchema::Compile(LwsOpenApiSchema());
    LWS_ASSERT(s.ok(), "embedded LWS schema does not compile: " + s.status().ToString());
    return *s;
  }();
  return schema;
}

}  // namespace lws::api
