// File: api/codec.h
//
// The JSON codec for typed objects. A modeled struct lists its JSON fields once, in a static
// `Fields(self, visitor)` function, and carries everything it does not model in `rest`:
//
//   struct EnvVar {
//     std::string name;
//     std::string value;
//     Json rest;  // valueFrom and any future field, carried through untouched
//     template <class S, class V> static void Fields(S& s, V& v) {
//       v("name", s.name, kAlways);
//       v("value", s.value);
//     }
//   };
//
// Round-trip rules (DESIGN.md section 3, 'Round trip'):
//   1. Keys the struct does not model stay in `rest` and are written back unchanged.
//   2. A modeled key whose input value is null or the type's zero value ("", 0, false, [], {})
//      also stays in `rest`, so decode -> encode reproduces the input exactly. When code sets the
//      member, the encoded member replaces it.
//   3. Encoding omits a zero member (Go's omitempty) unless marked kAlways (a Go field without
//      omitempty, which strict clients such as the Python client require).
//   4. A nested struct decoded from `{}` keeps `rest == {}` and is written back as `{}`; one built
//      in code (or absent from the input) has `rest == null` and is omitted while all its members
//      are zero, kAlways members included.
#pragma once

#include <algorithm>
#include <array>
#include <concepts>
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "api/field.h"
#include "api/intstr.h"
#include "api/quantity.h"
#include "base/assert.h"
#include "base/flat_map.h"
#include "base/result.h"

namespace lws::api {

enum Emit { kOmitEmpty, kAlways };

template <class T>
concept Modeled = requires(T& t) {
  { t.rest } -> std::same_as<Json&>;
};

namespace codec {

// ---- Where a decoded value sits --------------------------------------------------------------

struct DecodeOptions {
  // Leave metadata.managedFields out of ObjectMeta::rest, as client-go's
  // TransformStripManagedFields does for informer caches: nothing a controller plans with reads
  // them, and they are most of a pod's metadata. Encoding such an object writes no
  // managedFields, which the API server takes as "keep the live ones".
  bool drop_managed_fields = false;
};

// The walk builds one of these on the stack per level and makes a FieldPath of it only for an
// error: a decode visits every field, and no path string is built for a field that decodes.
// REQUIRES: the parent, the root path, the options and the key text outlive the Where (they do
// for a Where passed down the recursion).
class Where {
 public:
  Where(const FieldPath& root, const DecodeOptions& options) : root_(&root), options_(&options) {}
  Where Child(std::string_view name) const { return Where(this, Step::kChild, name, 0); }
  Where Index(std::size_t i) const { return Where(this, Step::kIndex, {}, i); }
  Where Key(std::string_view key) const { return Where(this, Step::kKey, key, 0); }
  FieldPath Path() const;
  const DecodeOptions& options() const { return *options_; }

 private:
  enum class Step { kRoot, kChild, kIndex, kKey };
  Where(const Where* parent, Step step, std::string_view name, std::size_t index)
      : parent_(parent),
        step_(step),
        name_(name),
        index_(index),
        root_(parent->root_),
        options_(parent->options_) {}

  const Where* parent_ = nullptr;
  Step step_ = Step::kRoot;
  std::string_view name_;
  std::size_t index_ = 0;
  const FieldPath* root_;
  const DecodeOptions* options_;
};

// ---- Scalars and library types ---------------------------------------------------------------

void DecodeValue(const Json& in, std::string& out, const Where& where, ErrorList& errs);
void DecodeValue(const Json& in, std::int32_t& out, const Where& where, ErrorList& errs);
void DecodeValue(const Json& in, std::int64_t& out, const Where& where, ErrorList& errs);
void DecodeValue(const Json& in, bool& out, const Where& where, ErrorList& errs);
void DecodeValue(const Json& in, double& out, const Where& where, ErrorList& errs);
void DecodeValue(const Json& in, Json& out, const Where& where, ErrorList& errs);
void DecodeValue(const Json& in, Quantity& out, const Where& where, ErrorList& errs);
void DecodeValue(const Json& in, IntOrString& out, const Where& where, ErrorList& errs);

inline Json EncodeValue(const std::string& v) { return v; }
inline Json EncodeValue(std::int32_t v) { return v; }
inline Json EncodeValue(std::int64_t v) { return v; }
inline Json EncodeValue(bool v) { return v; }
inline Json EncodeValue(double v) { return v; }
inline Json EncodeValue(const Json& v) { return v; }
Json EncodeValue(const Quantity& v);
Json EncodeValue(const IntOrString& v);

inline bool IsZero(const std::string& v) { return v.empty(); }
inline bool IsZero(std::int32_t v) { return v == 0; }
inline bool IsZero(std::int64_t v) { return v == 0; }
inline bool IsZero(bool v) { return !v; }
inline bool IsZero(double v) { return v == 0; }
inline bool IsZero(const Json& v) { return v.is_null(); }
inline bool IsZero(const Quantity& v) { return v.IsZero(); }
inline bool IsZero(const IntOrString& v) { return !v.is_string() && v.int_value() == 0; }

// True when `in` is the JSON zero value that Go's omitempty would drop.
bool IsZeroJson(const Json& in);

// ---- Containers (declarations first so that they can nest in any order) ------------------------

// std::map and base::FlatMap keyed by string: JSON objects whose members are all T.
template <class M>
concept StringKeyedMap = (std::same_as<M, std::map<std::string, typename M::mapped_type>> ||
                          std::same_as<M, base::FlatMap<std::string, typename M::mapped_type>>);

template <class T>
void DecodeValue(const Json& in, std::vector<T>& out, const Where& where, ErrorList& errs);
template <StringKeyedMap M>
void DecodeValue(const Json& in, M& out, const Where& where, ErrorList& errs);
template <class T>
void DecodeValue(const Json& in, std::optional<T>& out, const Where& where, ErrorList& errs);
template <Modeled T>
void DecodeValue(const Json& in, T& out, const Where& where, ErrorList& errs);

template <class T>
Json EncodeValue(const std::vector<T>& v);
template <StringKeyedMap M>
Json EncodeValue(const M& v);
template <Modeled T>
Json EncodeValue(const T& v);

template <class T>
bool IsZero(const std::vector<T>& v) {
  return v.empty();
}
template <StringKeyedMap M>
bool IsZero(const M& v) {
  return v.empty();
}

// ---- Visitors -------------------------------------------------------------------------------

struct KeyCollector {
  std::vector<std::string_view> keys;
  template <class M>
  void operator()(std::string_view key, M&, Emit = kOmitEmpty) {
    keys.push_back(key);
  }
};

// The keys a struct models: in Fields order, and sorted as the keys of a JSON object are (with
// each one's position in Fields order), so that a decode classifies the input's keys in one walk
// of both instead of searching the list for every key.
struct ModeledKeys {
  std::vector<std::string_view> in_order;
  std::vector<std::pair<std::string_view, std::size_t>> sorted;
};
// Decoding keeps the found values on the stack; no modeled struct comes close.
inline constexpr std::size_t kMaxModeledKeys = 64;

template <Modeled T>
const ModeledKeys& ModeledKeysOf() {
  static const ModeledKeys keys = [] {
    KeyCollector c;
    T dummy{};
    T::Fields(dummy, c);
    ModeledKeys out;
    out.in_order = c.keys;
    for (std::size_t i = 0; i < c.keys.size(); ++i) out.sorted.emplace_back(c.keys[i], i);
    std::sort(out.sorted.begin(), out.sorted.end());
    LWS_ASSERT(out.in_order.size() <= kMaxModeledKeys, "a struct models too many keys");
    LWS_ASSERT(std::adjacent_find(out.sorted.begin(), out.sorted.end(),
                                  [](const auto& a, const auto& b) {
                                    return a.first == b.first;
                                  }) == out.sorted.end(),
               "a struct models a key twice");
    return out;
  }();
  return keys;
}

// Decodes the members of a struct from the values DecodeValue found for them (by position in
// Fields order, ModeledKeys::in_order), instead of looking each key up in the input again.
struct DecodeVisitor {
  const Json& in;
  const Where& where;
  ErrorList& errs;
  const std::vector<std::string_view>& keys;  // ModeledKeys::in_order
  const Json* const* found;                   // by position; null when absent
  std::size_t next = 0;

  template <class M>
  void operator()(std::string_view key, M& member, Emit = kOmitEmpty) {
    const std::size_t at = next++;
    const Json* value = found[at];
    // Fields visits the keys in one fixed order; should a Fields ever visit conditionally, the
    // key is looked up instead.
    if (at >= keys.size() || (keys[at].data() != key.data() && keys[at] != key)) {
      auto it = in.find(key);
      value = it == in.end() ? nullptr : &*it;
    }
    if (value == nullptr || value->is_null()) return;
    DecodeValue(*value, member, where.Child(key), errs);
  }
};

// True when a struct built in code holds nothing: every member is zero or absent and it carries
// no input of its own (rule 4). kAlways members do not count, so an untouched nested PodSpec is
// omitted rather than written as {"containers": []}.
struct ZeroVisitor {
  bool zero = true;
  template <class M>
  void operator()(std::string_view, const M& member, Emit = kOmitEmpty);
};

template <Modeled T>
bool IsZeroStruct(const T& v) {
  if (!v.rest.is_null()) return false;
  ZeroVisitor visitor;
  T::Fields(v, visitor);
  return visitor.zero;
}

template <class M>
void ZeroVisitor::operator()(std::string_view, const M& member, Emit) {
  if (!zero) return;
  if constexpr (Modeled<M>) {
    zero = IsZeroStruct(member);
  } else if constexpr (requires { member.has_value(); }) {
    zero = !member.has_value();
  } else {
    zero = IsZero(member);
  }
}

struct EncodeVisitor {
  Json& out;

  template <class M>
  void operator()(std::string_view key, const M& member, Emit emit = kOmitEmpty) {
    if constexpr (Modeled<M>) {
      if (emit == kOmitEmpty && IsZeroStruct(member)) return;
      out[std::string(key)] = EncodeValue(member);
    } else if constexpr (requires { member.has_value(); }) {
      if (!member.has_value()) return;
      out[std::string(key)] = EncodeValue(*member);
    } else {
      if (emit == kOmitEmpty && IsZero(member)) return;
      out[std::string(key)] = EncodeValue(member);
    }
  }
};

// ---- Container and struct definitions -------------------------------------------------------

template <class T>
void DecodeValue(const Json& in, std::vector<T>& out, const Where& where, ErrorList& errs) {
  out.clear();
  if (!in.is_array()) {
    errs.push_back(TypeInvalid(where.Path(), in.type_name(), "expected array"));
    return;
  }
  out.resize(in.size());
  for (std::size_t i = 0; i < in.size(); ++i) {
    if (in[i].is_null()) continue;
    DecodeValue(in[i], out[i], where.Index(i), errs);
  }
}

template <StringKeyedMap M>
void DecodeValue(const Json& in, M& out, const Where& where, ErrorList& errs) {
  out.clear();
  if (!in.is_object()) {
    errs.push_back(TypeInvalid(where.Path(), in.type_name(), "expected object"));
    return;
  }
  // JSON members come in key order, so each one is appended after the last.
  for (const auto& [key, value] : in.template get_ref<const Json::object_t&>()) {
    if (value.is_null()) continue;
    auto member = out.emplace_hint(out.end(), key, typename M::mapped_type{});
    DecodeValue(value, member->second, where.Key(key), errs);
  }
}

template <class T>
void DecodeValue(const Json& in, std::optional<T>& out, const Where& where, ErrorList& errs) {
  out.emplace();
  DecodeValue(in, *out, where, errs);
}

template <Modeled T>
void DecodeValue(const Json& in, T& out, const Where& where, ErrorList& errs) {
  out = T{};
  if (!in.is_object()) {
    errs.push_back(TypeInvalid(where.Path(), in.type_name(), "expected object"));
    return;
  }
  // Copy only what `rest` keeps (rules 1 and 2): unmodeled keys, and modeled keys whose value is
  // null or zero. Copying the whole input and erasing would copy every subtree once per level.
  // Both key lists are sorted, so one walk finds the modeled ones.
  const ModeledKeys& keys = ModeledKeysOf<T>();
  std::array<const Json*, kMaxModeledKeys> found;
  std::fill_n(found.begin(), keys.in_order.size(), nullptr);
  bool drop_managed_fields = false;
  if constexpr (requires { T::kCarriesManagedFields; }) {
    drop_managed_fields = where.options().drop_managed_fields;
  }
  out.rest = Json::object();
  auto& rest = out.rest.template get_ref<Json::object_t&>();
  auto known = keys.sorted.begin();
  for (const auto& [key, value] : in.template get_ref<const Json::object_t&>()) {
    while (known != keys.sorted.end() && known->first < key) ++known;
    const bool modeled = known != keys.sorted.end() && known->first == key;
    if (modeled) found[known->second] = &value;
    if (drop_managed_fields && key == "managedFields") continue;
    if (!modeled || IsZeroJson(value)) rest.emplace_hint(rest.end(), key, value);
  }
  DecodeVisitor visitor{in, where, errs, keys.in_order, found.data()};
  T::Fields(out, visitor);
}

template <class T>
Json EncodeValue(const std::vector<T>& v) {
  Json out = Json::array();
  for (const auto& item : v) out.push_back(EncodeValue(item));
  return out;
}

template <StringKeyedMap M>
Json EncodeValue(const M& v) {
  Json out = Json::object();
  for (const auto& [k, item] : v) out[k] = EncodeValue(item);
  return out;
}

template <Modeled T>
Json EncodeValue(const T& v) {
  Json out = v.rest.is_object() ? v.rest : Json::object();
  EncodeVisitor visitor{out};
  T::Fields(v, visitor);
  return out;
}

}  // namespace codec

// The BadRequest Status for type errors found while decoding, one cause per field.
Status DecodeErrorStatus(const ErrorList& errs);

// Decodes `in` into a T. Type mismatches are reported with their field path as a BadRequest
// Status whose causes name each field, e.g. "spec.replicas: Invalid value: \"string\": expected
// integer".
template <Modeled T>
Result<T> Decode(const Json& in, const FieldPath& root = FieldPath(),
                 const codec::DecodeOptions& options = {}) {
  T out;
  ErrorList errs;
  codec::DecodeValue(in, out, codec::Where(root, options), errs);
  if (!errs.empty()) return DecodeErrorStatus(errs);
  return out;
}

// Like Decode but returns the field errors themselves (for validation-style reporting).
template <Modeled T>
ErrorList DecodeInto(const Json& in, T* out, const FieldPath& root = FieldPath()) {
  ErrorList errs;
  codec::DecodeValue(in, *out, codec::Where(root, {}), errs);
  return errs;
}

template <Modeled T>
Json Encode(const T& v) {
  return codec::EncodeValue(v);
}

}  // namespace lws::api
