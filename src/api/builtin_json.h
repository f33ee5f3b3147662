// File: api/builtin_json.h
//
// Small accessors for walking loosely typed built-in objects (pods, services, ...) held as JSON.
// The API server defaults and validates whatever a client posted, before any typed decoding, so
// every accessor tolerates the wrong shape: a member that should be an object but is a string
// reads as absent, and writers never turn a non-object into an object. That is what lets
// defaulting leave malformed input alone for validation (or the decoder) to report.
//
// Header-only; used by builtin_defaults.cc, builtin_status.cc and the built-in validators.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "api/field.h"

namespace lws::api::builtin {

// The member `key` of `parent` if `parent` is an object holding it; else nullptr.
inline const Json* Member(const Json& parent, std::string_view key) {
  if (!parent.is_object()) return nullptr;
  auto it = parent.find(key);
  return it == parent.end() ? nullptr : &*it;
}

inline Json* Member(Json* parent, std::string_view key) {
  if (parent == nullptr || !parent->is_object()) return nullptr;
  auto it = parent->find(key);
  return it == parent->end() ? nullptr : &*it;
}

// The member `key` when it is an object (resp. array); else nullptr.
inline Json* Object(Json* parent, std::string_view key) {
  Json* m = Member(parent, key);
  return m != nullptr && m->is_object() ? m : nullptr;
}
inline const Json* Object(const Json& parent, std::string_view key) {
  const Json* m = Member(parent, key);
  return m != nullptr && m->is_object() ? m : nullptr;
}
inline Json* Array(Json* parent, std::string_view key) {
  Json* m = Member(parent, key);
  return m != nullptr && m->is_array() ? m : nullptr;
}
inline const Json* Array(const Json& parent, std::string_view key) {
  const Json* m = Member(parent, key);
  return m != nullptr && m->is_array() ? m : nullptr;
}

// Go's view of an optional member: absent and null are both "not set".
inline bool IsUnset(const Json* v) { return v == nullptr || v->is_null(); }

// The object member `key`, created as {} when absent or null (a Go struct pointer or value that
// defaulting fills in). nullptr when `parent` is not an object or the member has another type.
inline Json* EnsureObject(Json* parent, std::string_view key) {
  if (parent == nullptr || !parent->is_object()) return nullptr;
  Json& m = (*parent)[std::string(key)];
  if (m.is_null()) m = Json::object();
  return m.is_object() ? &m : nullptr;
}

// Sets `key` to `value` when it is absent, null or "" (a Go string field left empty).
inline void DefaultString(Json* obj, std::string_view key, std::string_view value) {
  if (obj == nullptr || !obj->is_object()) return;
  const Json* m = Member(obj, key);
  if (IsUnset(m) || (m->is_string() && m->get_ref<const std::string&>().empty())) {
    (*obj)[std::string(key)] = std::string(value);
  }
}

// Sets `key` to `value` when it is absent or null (a Go pointer field left nil).
inline void DefaultValue(Json* obj, std::string_view key, Json value) {
  if (obj == nullptr || !obj->is_object()) return;
  if (IsUnset(Member(obj, key))) (*obj)[std::string(key)] = std::move(value);
}

// Sets `key` to `value` when it is absent, null or 0 (a Go integer field left zero).
inline void DefaultNonZero(Json* obj, std::string_view key, std::int64_t value) {
  if (obj == nullptr || !obj->is_object()) return;
  const Json* m = Member(obj, key);
  if (IsUnset(m) || (m->is_number() && m->get<double>() == 0)) (*obj)[std::string(key)] = value;
}

// Calls f(element) for every object element of `array` (nullptr or non-array: no calls).
template <class F>
void ForEachObject(Json* array, F&& f) {
  if (array == nullptr || !array->is_array()) return;
  for (Json& item : *array) {
    if (item.is_object()) f(item);
  }
}
template <class F>
void ForEachObject(const Json* array, F&& f) {
  if (array == nullptr || !array->is_array()) return;
  for (const Json& item : *array) {
    if (item.is_object()) f(item);
  }
}

// The integer value of `v` if it is an integral JSON number, else `fallback`.
inline std::int64_t IntValue(const Json* v, std::int64_t fallback = 0) {
  if (v == nullptr) return fallback;
  if (v->is_number_integer()) return v->get<std::int64_t>();
  if (v->is_number_float()) {
    const double d = v->get<double>();
    if (d == static_cast<double>(static_cast<std::int64_t>(d))) return static_cast<std::int64_t>(d);
  }
  return fallback;
}

// True iff `group`/`kind` names the built-in resource `info` describes.
template <class Info>
bool Is(const Info& info, std::string_view group, std::string_view kind) {
  return !info.custom && info.group == group && info.kind == kind;
}

}  // namespace lws::api::builtin
