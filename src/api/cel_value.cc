// CEL values over the validated object (cel_value.h): conversion from JSON by schema, field
// selection, indexing and iteration, ported from apiextensions' schema/cel/values.go.
#include "api/cel_value.h"

#include <array>
#include <cmath>

#include "api/schema_node.h"
#include "api/yaml_scalar.h"

namespace lws::api::cel {

Value Value::Bool(bool v) {
  Value x;
  x.kind = Kind::kBool;
  x.b = v;
  return x;
}
Value Value::Int(std::int64_t v) {
  Value x;
  x.kind = Kind::kInt;
  x.i = v;
  return x;
}
Value Value::Uint(std::uint64_t v) {
  Value x;
  x.kind = Kind::kUint;
  x.u = v;
  return x;
}
Value Value::Double(double v) {
  Value x;
  x.kind = Kind::kDouble;
  x.d = v;
  return x;
}
Value Value::String(std::string v) {
  Value x;
  x.kind = Kind::kString;
  x.str_owner = std::make_shared<const std::string>(std::move(v));
  x.str = *x.str_owner;
  return x;
}
Value Value::StringIn(std::string_view in_object) {
  Value x;
  x.kind = Kind::kString;
  x.str = in_object;
  return x;
}
Value Value::Type(std::string_view static_name) {
  Value x;
  x.kind = Kind::kType;
  x.str = static_name;
  return x;
}
Value Value::List(ValueList items, const SchemaNode* list_schema) {
  Value x;
  x.kind = Kind::kList;
  x.list = std::make_shared<const ValueList>(std::move(items));
  x.schema = list_schema;
  return x;
}
Value Value::Map(ValueEntries entries) {
  Value x;
  x.kind = Kind::kMap;
  x.entries = std::make_shared<const ValueEntries>(std::move(entries));
  return x;
}

namespace {

// The schemas model.WithTypeAndObjectMeta gives a resource's apiVersion, kind and metadata.
const SchemaNode* StringNode() {
  static const SchemaNode* node = [] {
    auto* n = new SchemaNode();
    n->types = {"string"};
    return n;
  }();
  return node;
}
const SchemaNode* ObjectMetaNode() {
  static const SchemaNode* node = [] {
    auto* n = new SchemaNode();
    n->types = {"object"};
    auto str = std::make_shared<SchemaNode>();
    str->types = {"string"};
    n->properties["name"] = str;
    n->properties["generateName"] = str;
    return n;
  }();
  return node;
}
bool IsTypeMetaField(std::string_view f) {
  return f == "apiVersion" || f == "kind" || f == "metadata";
}

// Go's %T of a decoded JSON value, for upstream's "invalid data" messages.
std::string GoType(const Json& v) {
  if (v.is_string()) return "string";
  if (v.is_boolean()) return "bool";
  if (v.is_number_float()) return "float64";
  if (v.is_number()) return "int64";
  if (v.is_object()) return "map[string]interface {}";
  if (v.is_array()) return "[]interface {}";
  return "<nil>";
}

Value View(Kind kind, const Json& v, const SchemaNode* s, bool resource_root) {
  Value x;
  x.kind = kind;
  x.json = &v;
  x.schema = s;
  x.resource_root = resource_root;
  return x;
}

// A JSON integer as CEL int; integral floats count, as Go decodes them into int64 first.
Outcome IntOf(const Json& v) {
  if (v.is_number_integer() && !v.is_number_unsigned())
    return Ok(Value::Int(v.get<std::int64_t>()));
  if (v.is_number_unsigned() && v.get<std::uint64_t>() <= INT64_MAX)
    return Ok(Value::Int(static_cast<std::int64_t>(v.get<std::uint64_t>())));
  if (v.is_number_float()) {
    double f = v.get<double>();
    if (f == std::trunc(f) && f >= -9.2e18 && f <= 9.2e18)
      return Ok(Value::Int(static_cast<std::int64_t>(f)));
  }
  return Fail("invalid data, expected int, got " +
              std::string(v.is_number() ? "float64" : GoType(v)));
}

// JSON without a schema: numbers are int when integral, objects are maps.
Outcome Untyped(const Json& v) {
  switch (v.type()) {
    case Json::value_t::null:
      return Ok(Value());
    case Json::value_t::boolean:
      return Ok(Value::Bool(v.get<bool>()));
    case Json::value_t::number_integer:
      return Ok(Value::Int(v.get<std::int64_t>()));
    case Json::value_t::number_unsigned:
      if (v.get<std::uint64_t>() > INT64_MAX) return Ok(Value::Uint(v.get<std::uint64_t>()));
      return Ok(Value::Int(v.get<std::int64_t>()));
    case Json::value_t::number_float:
      return Ok(Value::Double(v.get<double>()));
    case Json::value_t::string:
      return Ok(Value::StringIn(v.get_ref<const std::string&>()));
    case Json::value_t::array:
      return Ok(View(Kind::kList, v, nullptr, false));
    case Json::value_t::object:
      return Ok(View(Kind::kMap, v, nullptr, false));
    default:
      return Fail("invalid data, unsupported JSON value");
  }
}

Outcome ObjectOf(const Json& v, const SchemaNode* s) {
  if (!v.is_object())
    return Fail("invalid data, expected a map for the provided schema with type=object");
  if (s->embedded_resource || !s->properties.empty()) {
    return Ok(View(Kind::kMap, v, s, s->embedded_resource));
  }
  if (s->additional || s->preserve_unknown_fields) return Ok(View(Kind::kMap, v, s, false));
  return Fail(
      "invalid object type, expected either Properties or AdditionalProperties with Allows=true "
      "and non-empty Schema");
}

Outcome ScalarOf(const Json& v, const std::string& type) {
  if (type == "string") {
    if (!v.is_string()) return Fail("invalid data, expected string, got " + GoType(v));
    return Ok(Value::StringIn(v.get_ref<const std::string&>()));
  }
  if (type == "number") {
    if (!v.is_number()) return Fail("invalid data, expected float, got " + GoType(v));
    return Ok(Value::Double(v.get<double>()));
  }
  if (type == "integer") return IntOf(v);
  if (type == "boolean") {
    if (!v.is_boolean()) return Fail("invalid data, expected bool, got " + GoType(v));
    return Ok(Value::Bool(v.get<bool>()));
  }
  return Fail("invalid type, expected object, array, number, integer, boolean or string, got " +
              type);
}

}  // namespace

Outcome FromJson(const Json& v, const SchemaNode* s) {
  if (s == nullptr) return Untyped(v);
  if (v.is_null()) {
    if (s->nullable || s->types.empty()) return Ok(Value());
    return Fail("invalid data, got null for schema with nullable=false");
  }
  if (s->HasType("integer") && s->HasType("string")) {  // x-kubernetes-int-or-string
    if (v.is_string()) return Ok(Value::StringIn(v.get_ref<const std::string&>()));
    if (v.is_number_integer()) return IntOf(v);
    return Fail("invalid data, expected XIntOrString value to be either a string or integer");
  }
  // Upstream exposes untyped preserved values for equality only; we treat them as plain JSON.
  if (s->types.empty()) return Untyped(v);
  const std::string& type = s->types.front();
  if (type == "object") return ObjectOf(v, s);
  if (type == "array") {
    if (!v.is_array())
      return Fail("invalid data, expected an array for the provided schema with type=array");
    if (!s->items) return Fail("invalid array type, expected Items with a non-empty Schema");
    return Ok(View(Kind::kList, v, s, false));
  }
  return ScalarOf(v, type);
}

bool IsObject(const Value& v) {
  return v.kind == Kind::kMap && v.json != nullptr && v.schema != nullptr &&
         (v.resource_root || !v.schema->properties.empty() || !v.schema->additional);
}

std::string_view TypeName(const Value& v) {
  static constexpr std::array<std::string_view, 9> kNames = {
      "null_type", "bool", "int", "uint", "double", "string", "list", "map", "type"};
  if (IsObject(v)) return "object";
  return kNames[static_cast<int>(v.kind)];
}

namespace {

Outcome SelectObject(const Value& x, std::string_view field, bool test_only) {
  std::string key;
  const SchemaNode* prop = nullptr;
  if (x.resource_root && IsTypeMetaField(field)) {
    key = std::string(field);
    prop = field == "metadata" ? ObjectMetaNode() : StringNode();
  } else {
    auto it =
        UnescapeName(field, &key) ? x.schema->properties.find(key) : x.schema->properties.end();
    if (it == x.schema->properties.end()) {
      return Fail("undefined field '" + std::string(field) + "'");
    }
    prop = it->second.get();
  }
  auto it = x.json->find(key);
  bool present = it != x.json->end() && !it->is_null();  // a null field is an absent one
  if (test_only) return Ok(Value::Bool(present));
  if (!present) return Fail("no such key: " + std::string(field));
  return FromJson(*it, prop);
}

const SchemaNode* ValuesSchema(const Value& map_view) {
  return map_view.schema != nullptr ? map_view.schema->additional.get() : nullptr;
}

}  // namespace

Outcome Select(const Value& x, std::string_view field, bool test_only) {
  if (x.kind != Kind::kMap) {
    return Fail("type '" + std::string(TypeName(x)) + "' does not support field selection");
  }
  if (IsObject(x)) return SelectObject(x, field, test_only);
  if (x.json != nullptr) {
    auto it = x.json->find(std::string(field));
    if (test_only) return Ok(Value::Bool(it != x.json->end()));
    if (it == x.json->end()) return Fail("no such key: " + std::string(field));
    return FromJson(*it, ValuesSchema(x));
  }
  for (const auto& [k, v] : *x.entries) {
    if (k.kind == Kind::kString && k.str == field) return Ok(test_only ? Value::Bool(true) : v);
  }
  if (test_only) return Ok(Value::Bool(false));
  return Fail("no such key: " + std::string(field));
}

namespace {

// An index as a list position: int, uint or an integral double.
bool Position(const Value& k, std::int64_t* out) {
  if (k.kind == Kind::kInt) *out = k.i;
  if (k.kind == Kind::kUint) *out = k.u > INT64_MAX ? INT64_MAX : static_cast<std::int64_t>(k.u);
  if (k.kind == Kind::kDouble) {
    if (k.d != std::trunc(k.d) || !(std::fabs(k.d) < 9.2e18)) return false;
    *out = static_cast<std::int64_t>(k.d);
  }
  return k.kind == Kind::kInt || k.kind == Kind::kUint || k.kind == Kind::kDouble;
}

std::string KeyText(const Value& k) {
  switch (k.kind) {
    case Kind::kString:
      return std::string(k.str);
    case Kind::kInt:
      return std::to_string(k.i);
    case Kind::kUint:
      return std::to_string(k.u);
    case Kind::kBool:
      return k.b ? "true" : "false";
    case Kind::kDouble:
      return yaml_internal::GoFloatV(k.d);
    default:
      return std::string(TypeName(k));
  }
}

}  // namespace

Outcome Index(const Value& x, const Value& key) {
  if (x.kind == Kind::kList) {
    std::int64_t i = 0;
    if (!Position(key, &i)) {
      return Fail("unsupported index type '" + std::string(TypeName(key)) + "' in list");
    }
    if (i < 0 || i >= Size(x)) return Fail("index out of bounds: " + std::to_string(i));
    auto at = static_cast<std::size_t>(i);
    if (x.json == nullptr) return Ok((*x.list)[at]);
    return FromJson((*x.json)[at], x.schema != nullptr ? x.schema->items.get() : nullptr);
  }
  if (x.kind != Kind::kMap || IsObject(x)) return Fail(std::string(kNoOverload));
  if (x.json != nullptr) {
    auto it = key.kind == Kind::kString ? x.json->find(std::string(key.str)) : x.json->end();
    if (it == x.json->end()) return Fail("no such key: " + KeyText(key));
    return FromJson(*it, ValuesSchema(x));
  }
  Budget unlimited(INT64_MAX);
  for (const auto& [k, v] : *x.entries) {
    if (Equal(k, key, &unlimited)) return Ok(v);
  }
  return Fail("no such key: " + KeyText(key));
}

Outcome Range(const Value& x, ValueList* out) {
  out->clear();
  if (x.kind == Kind::kList && x.json == nullptr) {
    *out = *x.list;
    return Ok(Value());
  }
  if (x.kind == Kind::kList) {
    for (const Json& item : *x.json) {
      Outcome v = FromJson(item, x.schema != nullptr ? x.schema->items.get() : nullptr);
      if (!v.ok()) return v;
      out->push_back(std::move(v.value));
    }
    return Ok(Value());
  }
  if (x.kind != Kind::kMap) return Fail(std::string(kNoOverload));
  if (x.json == nullptr) {
    for (const auto& entry : *x.entries) out->push_back(entry.first);
    return Ok(Value());
  }
  bool object = IsObject(x);
  for (auto it = x.json->begin(); it != x.json->end(); ++it) {
    // An object iterates the fields its schema declares, by their escaped names.
    std::string name = it.key();
    if (object && !(x.resource_root && IsTypeMetaField(name))) {
      if (x.schema->properties.count(name) == 0) continue;
      if (std::string escaped; EscapeName(name, &escaped)) name = escaped;
    }
    out->push_back(Value::String(std::move(name)));
  }
  return Ok(Value());
}

std::int64_t Size(const Value& x) {
  if (x.kind == Kind::kString) {
    std::int64_t runes = 0;
    for (char c : x.str) runes += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
    return runes;
  }
  if (x.json != nullptr) return static_cast<std::int64_t>(x.json->size());
  if (x.kind == Kind::kList) return static_cast<std::int64_t>(x.list->size());
  return static_cast<std::int64_t>(x.entries->size());
}

}  // namespace lws::api::cel
