// The checks apiextensions makes after the OpenAPI schema validation (schema_extensions.h).
#include "api/schema_extensions.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <string>
#include <vector>

#include "api/schema.h"
#include "api/yaml_scalar.h"

namespace lws::api {
namespace {

// ---- x-kubernetes-embedded-resource (objectmeta.Validate) ------------------------------------

bool IsDns1035Label(const std::string& s) {
  if (s.empty() || !(s[0] >= 'a' && s[0] <= 'z')) return false;
  for (char c : s) {
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-')) return false;
  }
  return s.back() != '-';
}

// The member `key` of `x` when it is a non-empty string; null when it is absent, or when it is
// not one (after adding upstream's error for it).
const std::string* NonEmptyString(const Json& x, const char* key, const FieldPath& path,
                                  ErrorList* out) {
  auto it = x.find(key);
  if (it == x.end()) return nullptr;
  if (!it->is_string()) {
    out->push_back(Invalid(path.Child(key), *it, "must be a string"));
    return nullptr;
  }
  const std::string& value = it->get_ref<const std::string&>();
  if (value.empty()) {
    out->push_back(Invalid(path.Child(key), "", "must not be empty"));
    return nullptr;
  }
  return &value;
}

// Why the lower-cased `kind` is not a valid kind name, joined; "" when it is.
std::string KindProblems(const std::string& kind) {
  std::string lower = kind;
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  std::vector<std::string> errs;
  if (lower.size() > 63) errs.push_back("must be no more than 63 characters");
  if (!IsDns1035Label(lower)) {
    errs.push_back(
        "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an "
        "alphabetic character, and end with an alphanumeric character (e.g. 'my-name' or "
        "'abc-123', "
        "regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')");
  }
  std::string joined;
  for (const auto& e : errs) joined += (joined.empty() ? "" : ",") + e;
  return joined;
}

void ValidateEmbedded(const FieldPath& path, const Json& x, ErrorList* out) {
  if (!x.contains("apiVersion")) out->push_back(Required(path.Child("apiVersion"), ""));
  if (!x.contains("kind")) out->push_back(Required(path.Child("kind"), ""));
  if (const std::string* gv = NonEmptyString(x, "apiVersion", path, out);
      gv != nullptr && *gv != "/" && std::count(gv->begin(), gv->end(), '/') > 1) {
    out->push_back(
        Invalid(path.Child("apiVersion"), *gv, "unexpected GroupVersion string: " + *gv));
  }
  if (const std::string* kind = NonEmptyString(x, "kind", path, out)) {
    if (std::string problems = KindProblems(*kind); !problems.empty()) {
      out->push_back(Invalid(path.Child("kind"), *kind,
                             "may have mixed case, but should otherwise match: " + problems));
    }
  }
}

// ---- x-kubernetes-list-type (listtype.ValidateListSetsAndMaps) -------------------------------

// Go compares set members as map[interface{}] keys: scalars by dynamic type and value, compound
// values by their JSON encoding.
std::string SetKey(const Json& v) {
  if (v.is_structured()) return "c:" + GoJsonMarshal(v);
  if (v.is_number_float()) return "f:" + yaml_internal::GoFloatV(v.get<double>());
  if (v.is_number()) return "i:" + v.dump();
  return std::string(v.is_string() ? "s:" : "o:") + v.dump();
}

// Indices of the second appearance of each repeated key.
std::vector<std::size_t> NonUnique(const std::vector<std::string>& keys) {
  std::map<std::string, int> seen;
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < keys.size(); ++i) {
    if (++seen[keys[i]] == 2) out.push_back(i);
  }
  return out;
}

void ListMap(const FieldPath& path, const SchemaNode& s, const Json& x, ErrorList* out) {
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (!x[i].is_null() && !x[i].is_object()) {
      out->push_back(
          Invalid(path.Index(i), x[i], "must be an object for an array of list-type map"));
      return;
    }
  }
  std::vector<std::string> keys;
  std::vector<Json> key_values;
  for (const Json& item : x) {
    Json key = Json::object();
    for (const std::string& f : s.list_map_keys) {
      if (item.is_object() && item.contains(f)) key[f] = item[f];
    }
    bool single = s.list_map_keys.size() == 1;
    bool unspecified = single && key.empty();
    keys.push_back(unspecified ? "u" : single ? SetKey(key.begin().value()) : SetKey(key));
    key_values.push_back(std::move(key));
  }
  for (std::size_t i : NonUnique(keys)) {
    FieldError e{FieldErrorType::kDuplicate, path.Index(i).String(), key_values[i], ""};
    out->push_back(std::move(e));
  }
}

void ListArray(const FieldPath& path, const SchemaNode& s, const Json& x, ErrorList* out) {
  if (s.list_type == "set") {
    std::vector<std::string> keys;
    for (const Json& item : x) keys.push_back(SetKey(item));
    for (std::size_t i : NonUnique(keys)) {
      out->push_back({FieldErrorType::kDuplicate, path.Index(i).String(), x[i], ""});
    }
  } else if (s.list_type == "map") {
    ListMap(path, s, x, out);
  }
  if (s.items) {
    for (std::size_t i = 0; i < x.size(); ++i) ListTypes(path.Index(i), s.items.get(), x[i], out);
  }
}

}  // namespace

void EmbeddedResources(const FieldPath& path, const Json& x, const SchemaNode* s, ErrorList* out) {
  if (!s) return;
  if (x.is_object()) {
    if (s->embedded_resource) ValidateEmbedded(path, x, out);
    for (auto it = x.begin(); it != x.end(); ++it) {
      auto prop = s->properties.find(it.key());
      if (prop != s->properties.end()) {
        EmbeddedResources(path.Child(it.key()), it.value(), prop->second.get(), out);
      } else if (s->has_additional) {
        EmbeddedResources(path.Key(it.key()), it.value(), s->additional.get(), out);
      }
    }
  } else if (x.is_array()) {
    for (std::size_t i = 0; i < x.size(); ++i)
      EmbeddedResources(path.Index(i), x[i], s->items.get(), out);
  }
}

void ListTypes(const FieldPath& path, const SchemaNode* s, const Json& x, ErrorList* out) {
  if (!s) return;
  if (x.is_array()) return ListArray(path, *s, x, out);
  if (!x.is_object()) return;
  if (s->additional) {
    for (auto it = x.begin(); it != x.end(); ++it)
      ListTypes(path.Key(it.key()), s->additional.get(), it.value(), out);
  }
  for (auto it = x.begin(); it != x.end(); ++it) {
    auto prop = s->properties.find(it.key());
    if (prop != s->properties.end())
      ListTypes(path.Child(it.key()), prop->second.get(), it.value(), out);
  }
}

}  // namespace lws::api
