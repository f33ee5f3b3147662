#include "config/strict_decoder.h"

#include <algorithm>
#include <cfloat>
#include <cmath>

#include "api/go_duration.h"

namespace lws::config::internal {

using api::Json;

std::string_view JsonKind(const Json& value) {
  if (value.is_string()) return "string";
  if (value.is_boolean()) return "bool";
  if (value.is_number()) return "number";
  if (value.is_array()) return "array";
  if (value.is_object()) return "object";
  return "null";
}

const Json* StructScope::Member(std::string_view key) const {
  auto it = object_->find(std::string(key));
  if (it == object_->end() || it->is_null()) return nullptr;
  return &*it;
}

std::string StructScope::PathOf(std::string_view key) const {
  return path_.empty() ? std::string(key) : path_ + "." + std::string(key);
}

void StructScope::TypeError(std::string_view value_description, std::string_view key,
                            std::string_view go_type) {
  problems_->Fail("json: cannot unmarshal " + std::string(value_description) +
                  " into Go struct field " + go_struct_ + "." + PathOf(key) + " of type " +
                  std::string(go_type));
}

void StructScope::CheckKnown(std::initializer_list<std::string_view> known) {
  for (auto it = object_->begin(); it != object_->end(); ++it) {
    if (std::find(known.begin(), known.end(), it.key()) == known.end()) {
      problems_->unknown_fields.push_back(PathOf(it.key()));
    }
  }
}

void StructScope::String(std::string_view key, std::string* out) {
  const Json* v = Member(key);
  if (v == nullptr) return;
  if (!v->is_string()) return TypeError(JsonKind(*v), key, "string");
  *out = v->get<std::string>();
}

void StructScope::OptionalString(std::string_view key, std::optional<std::string>* out) {
  const Json* v = Member(key);
  if (v == nullptr) return;
  if (!v->is_string()) return TypeError(JsonKind(*v), key, "string");
  *out = v->get<std::string>();
}

void StructScope::OptionalBool(std::string_view key, std::optional<bool>* out) {
  const Json* v = Member(key);
  if (v == nullptr) return;
  if (!v->is_boolean()) return TypeError(JsonKind(*v), key, "bool");
  *out = v->get<bool>();
}

void StructScope::OptionalInt(std::string_view key, std::int64_t min, std::int64_t max,
                              std::string_view go_type, std::optional<std::int64_t>* out) {
  const Json* v = Member(key);
  if (v == nullptr) return;
  if (!v->is_number()) return TypeError(JsonKind(*v), key, go_type);
  bool fits = false;
  std::int64_t value = 0;
  if (v->is_number_integer()) {
    value = v->get<std::int64_t>();
    fits = !v->is_number_unsigned() || v->get<std::uint64_t>() <= static_cast<std::uint64_t>(max);
  }
  if (!fits || value < min || value > max) return TypeError("number " + v->dump(), key, go_type);
  *out = value;
}

void StructScope::OptionalFloat32(std::string_view key, std::optional<float>* out) {
  const Json* v = Member(key);
  if (v == nullptr) return;
  if (!v->is_number()) return TypeError(JsonKind(*v), key, "float32");
  double value = v->get<double>();
  if (!std::isfinite(value) || std::fabs(value) > FLT_MAX) {
    return TypeError("number " + v->dump(), key, "float32");
  }
  *out = static_cast<float>(value);
}

void StructScope::GoDuration(std::string_view key, Duration* out) {
  const Json* v = Member(key);
  if (v == nullptr) return;
  // metav1.Duration decodes itself: its errors are Go's without a struct field, so the path is
  // put in front to say which duration is wrong.
  if (!v->is_string()) {
    return problems_->Fail(PathOf(key) + ": json: cannot unmarshal " + std::string(JsonKind(*v)) +
                           " into Go value of type string");
  }
  Result<Duration> parsed = api::ParseGoDuration(v->get_ref<const std::string&>());
  if (!parsed.ok()) return problems_->Fail(PathOf(key) + ": " + parsed.status().message());
  *out = *parsed;
}

void StructScope::StringList(std::string_view key, std::vector<std::string>* out) {
  const Json* v = Member(key);
  if (v == nullptr) return;
  if (!v->is_array()) return TypeError(JsonKind(*v), key, "[]string");
  std::vector<std::string> values;
  for (const Json& item : *v) {
    if (item.is_null()) {
      values.emplace_back();  // Go leaves a null element as the zero value ""
    } else if (!item.is_string()) {
      return TypeError(JsonKind(item), key, "string");
    } else {
      values.push_back(item.get<std::string>());
    }
  }
  *out = std::move(values);
}

std::optional<StructScope> StructScope::Child(std::string_view key, std::string_view go_type,
                                              std::string go_struct) {
  const Json* v = Member(key);
  if (v == nullptr) return std::nullopt;
  if (!v->is_object()) {
    TypeError(JsonKind(*v), key, go_type);
    return std::nullopt;
  }
  return StructScope(problems_, v, std::move(go_struct), PathOf(key));
}

}  // namespace lws::config::internal
