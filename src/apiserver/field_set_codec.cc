// File: apiserver/field_set_codec.cc
//
// PathElement: ordering, FieldsV1 keys and the human-readable path strings of conflict messages,
// all following sigs.k8s.io/structured-merge-diff (fieldpath/element.go, serialize-pe.go and
// value/value.go). Values inside keys are written as Go's encoding/json writes them (sorted keys,
// HTML-safe escaping), because the API server produces these keys with a Go JSON encoder.

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>

#include "api/go_json.h"
#include "apiserver/field_set.h"

namespace lws::apiserver {
namespace {

// Rank of a value's type in value.Compare: numbers (ints and floats compared numerically) come
// first, then strings, booleans, lists, maps and null.
int TypeRank(const Json& v) {
  if (v.is_number()) return 0;
  if (v.is_string()) return 1;
  if (v.is_boolean()) return 2;
  if (v.is_array()) return 3;
  if (v.is_object()) return 4;
  return 5;
}

// By reference: path elements are compared on every FieldSet lookup, and a by-value string
// parameter copied both names each time.
template <class T>
int Sign(const T& a, const T& b) {
  return a < b ? -1 : (b < a ? 1 : 0);
}
int Sign(const std::string& a, const std::string& b) {
  const int c = a.compare(b);
  return c < 0 ? -1 : (c > 0 ? 1 : 0);
}

int CompareNumbers(const Json& a, const Json& b) {
  if (a.is_number_float() || b.is_number_float()) {
    return Sign(a.get<double>(), b.get<double>());
  }
  if (a.is_number_unsigned() && b.is_number_unsigned()) {
    return Sign(a.get<std::uint64_t>(), b.get<std::uint64_t>());
  }
  // At most one side is unsigned; beyond INT64_MAX it is the larger one.
  constexpr auto kMax = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
  if (a.is_number_unsigned() && a.get<std::uint64_t>() > kMax) return 1;
  if (b.is_number_unsigned() && b.get<std::uint64_t>() > kMax) return -1;
  return Sign(a.get<std::int64_t>(), b.get<std::int64_t>());
}

// Appends `v` as Go's encoding/json writes it, keeping integers exact.
void AppendJson(const Json& v, std::string* out) {
  if (v.is_number_integer()) {
    *out += v.dump();
  } else if (v.is_array()) {
    *out += '[';
    for (std::size_t i = 0; i < v.size(); ++i) {
      if (i > 0) *out += ',';
      AppendJson(v[i], out);
    }
    *out += ']';
  } else if (v.is_object()) {
    *out += '{';
    bool first = true;
    for (const auto& [key, item] : v.items()) {  // nlohmann objects iterate in key order
      if (!first) *out += ',';
      first = false;
      api::AppendGoJsonString(key, out);
      *out += ':';
      AppendJson(item, out);
    }
    *out += '}';
  } else {
    *out += api::MarshalGoJson(v);
  }
}

// A float64 as Go's %v prints it: the shortest representation, in exponent form when the
// decimal exponent is below -4 or at least 6.
std::string FormatGoFloatV(double f) {
  if (std::isnan(f)) return "NaN";
  if (std::isinf(f)) return f > 0 ? "+Inf" : "-Inf";
  if (f == 0) return std::signbit(f) ? "-0" : "0";
  char buf[64];
  int precision = 1;
  for (; precision < 17; ++precision) {
    std::snprintf(buf, sizeof buf, "%.*e", precision - 1, f);
    if (std::strtod(buf, nullptr) == f) break;
  }
  std::snprintf(buf, sizeof buf, "%.*e", precision - 1, f);
  int exponent = std::atoi(std::strchr(buf, 'e') + 1);
  if (exponent < -4 || exponent >= 6) return buf;
  std::snprintf(buf, sizeof buf, "%.*f", std::max(precision - 1 - exponent, 0), f);
  return buf;
}

// value.ToString: strings quoted as %q, maps as "k=v" pairs run together.
std::string ValueString(const Json& v) {
  if (v.is_string()) return api::GoQuote(v.get_ref<const std::string&>());
  if (v.is_number_float()) return FormatGoFloatV(v.get<double>());
  if (v.is_number() || v.is_boolean()) return v.dump();
  if (v.is_array()) {
    std::string out = "[";
    for (std::size_t i = 0; i < v.size(); ++i) out += (i > 0 ? "," : "") + ValueString(v[i]);
    return out + "]";
  }
  if (v.is_object()) {
    std::string out;
    for (const auto& [key, item] : v.items()) out += key + "=" + ValueString(item);
    return out;
  }
  return "null";
}

Result<Json> ParseJson(std::string_view text, std::string_view key) {
  Json v = Json::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
  if (v.is_discarded()) {
    return Status::BadRequest("parsing key as path element: " + std::string(key) +
                              ": invalid JSON");
  }
  return v;
}

// strconv.Atoi: an optional sign and decimal digits that fit in an int.
Result<int> ParseIndex(std::string_view text, std::string_view key) {
  std::string s(text);
  char* end = nullptr;
  errno = 0;
  long long n = s.empty() ? 0 : std::strtoll(s.c_str(), &end, 10);
  if (s.empty() || end != s.c_str() + s.size() || errno != 0 || std::isspace(s[0]) ||
      n < std::numeric_limits<int>::min() || n > std::numeric_limits<int>::max()) {
    return Status::BadRequest("parsing key as path element: " + std::string(key) +
                              ": strconv.Atoi: parsing " + api::GoQuote(s) + ": invalid syntax");
  }
  return static_cast<int>(n);
}

}  // namespace

int CompareValues(const Json& a, const Json& b) {
  int ra = TypeRank(a), rb = TypeRank(b);
  if (ra != rb) return Sign(ra, rb);
  switch (ra) {
    case 0:
      return CompareNumbers(a, b);
    case 1:
      return Sign(a.get_ref<const std::string&>(), b.get_ref<const std::string&>());
    case 2:
      return Sign(a.get<bool>(), b.get<bool>());
    case 3: {
      const auto& la = a.get_ref<const Json::array_t&>();
      const auto& lb = b.get_ref<const Json::array_t&>();
      for (std::size_t i = 0; i < la.size() && i < lb.size(); ++i) {
        if (int c = CompareValues(la[i], lb[i]); c != 0) return c;
      }
      return Sign(la.size(), lb.size());
    }
    case 4: {
      // The maps themselves, not items(): no iteration proxy per member (list item keys are
      // compared this way on every lookup of a field set).
      const auto& ma = a.get_ref<const Json::object_t&>();
      const auto& mb = b.get_ref<const Json::object_t&>();
      auto ia = ma.begin(), ib = mb.begin();
      for (; ia != ma.end() && ib != mb.end(); ++ia, ++ib) {
        if (int c = Sign(ia->first, ib->first); c != 0) return c;
        if (int c = CompareValues(ia->second, ib->second); c != 0) return c;
      }
      return Sign(ma.size(), mb.size());
    }
    default:
      return 0;
  }
}

PathElement PathElement::Field(std::string name) {
  PathElement pe;
  pe.kind_ = Kind::kField;
  pe.name_ = std::move(name);
  return pe;
}

PathElement PathElement::Key(Json fields) {
  PathElement pe;
  pe.kind_ = Kind::kKey;
  pe.value_ = std::move(fields);
  return pe;
}

PathElement PathElement::Value(Json value) {
  PathElement pe;
  pe.kind_ = Kind::kValue;
  pe.value_ = std::move(value);
  return pe;
}

PathElement PathElement::Index(int index) {
  PathElement pe;
  pe.kind_ = Kind::kIndex;
  pe.index_ = index;
  return pe;
}

int PathElement::Compare(const PathElement& other) const {
  if (kind_ != other.kind_) return Sign(static_cast<int>(kind_), static_cast<int>(other.kind_));
  switch (kind_) {
    case Kind::kField:
      return Sign(name_, other.name_);
    case Kind::kKey:
    case Kind::kValue:
      return CompareValues(value_, other.value_);
    case Kind::kIndex:
      return Sign(index_, other.index_);
  }
  return 0;
}

std::string PathElement::Serialize() const {
  std::string out;
  switch (kind_) {
    case Kind::kField:
      return "f:" + name_;
    case Kind::kKey:
      out = "k:";
      AppendJson(value_, &out);
      return out;
    case Kind::kValue:
      out = "v:";
      AppendJson(value_, &out);
      return out;
    case Kind::kIndex:
      return "i:" + std::to_string(index_);
  }
  return out;
}

std::string PathElement::String() const {
  switch (kind_) {
    case Kind::kField:
      return "." + name_;
    case Kind::kKey: {
      std::string out = "[";
      bool first = true;
      for (const auto& [key, item] : value_.items()) {
        out += (first ? "" : ",") + key + "=" + ValueString(item);
        first = false;
      }
      return out + "]";
    }
    case Kind::kValue:
      return "[=" + ValueString(value_) + "]";
    case Kind::kIndex:
      return "[" + std::to_string(index_) + "]";
  }
  return "{{invalid path element}}";
}

std::string PathString(const Path& path) {
  std::string out;
  for (const PathElement& pe : path) out += pe.String();
  return out;
}

Result<std::optional<PathElement>> ParsePathElement(std::string_view text) {
  if (text.size() < 2) {
    return Status::BadRequest("parsing key as path element: " + std::string(text) +
                              ": key must be 2 characters long");
  }
  if (text[1] != ':') {
    return Status::BadRequest("parsing key as path element: missing colon: " + std::string(text));
  }
  std::string_view rest = text.substr(2);
  switch (text[0]) {
    case 'f':
      return std::optional<PathElement>(PathElement::Field(std::string(rest)));
    case 'v': {
      ASSIGN_OR_RETURN(Json v, ParseJson(rest, text));
      return std::optional<PathElement>(PathElement::Value(std::move(v)));
    }
    case 'k': {
      ASSIGN_OR_RETURN(Json v, ParseJson(rest, text));
      if (!v.is_object()) {
        return Status::BadRequest("parsing key as path element: " + std::string(text) +
                                  ": key is not an object");
      }
      return std::optional<PathElement>(PathElement::Key(std::move(v)));
    }
    case 'i': {
      ASSIGN_OR_RETURN(int i, ParseIndex(rest, text));
      return std::optional<PathElement>(PathElement::Index(i));
    }
    default:
      return std::optional<PathElement>();
  }
}

}  // namespace lws::apiserver
