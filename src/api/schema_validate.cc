// Validation against a structural schema, as kube-apiserver does it for custom resources:
// kube-openapi's SchemaValidator (validate/schema.go and friends) produces a Result whose errors
// apiextensions converts to field errors (apiserver/validation/validation.go,
// kubeOpenAPIResultToFieldErrors); then embedded resources (schema/objectmeta/validation.go) and
// list types (schema/listtype/validation.go) are checked. Validator order, match counts and the
// per-message de-duplication follow kube-openapi, so the same errors come out.
#include <algorithm>
#include <cmath>
#include <map>

#include "api/schema.h"
#include "api/schema_extensions.h"
#include "api/schema_node.h"
#include "api/yaml_scalar.h"

namespace lws::api {
namespace {

// kube-openapi error codes (errors/schema.go).
enum Code {
  kComposite = 422,
  kInvalidType = 600,
  kRequired,
  kTooLong,
  kTooShort,
  kPattern,
  kEnum,
  kMultipleOf,
  kMax,
  kMin,
  kUnique,
  kMaxItems,
  kMinItems,
  kNoAdditionalItems,
  kTooFewProperties,
  kTooManyProperties,
  kUnallowedProperty,
  kFailedAllPatternProps,
  kMultipleOfMustBePositive,
};

struct OaError {
  int code = kComposite;
  std::string name;  // path, "spec.replicas"
  std::optional<Json> value;
  Json values;  // enum values
  std::int64_t valid = -1;
  std::string message;
};

struct OaResult {
  std::vector<OaError> errors;
  int match_count = 0;

  bool ok() const { return errors.empty(); }
  void Inc() { ++match_count; }
  // Result.AddErrors: a message already reported is not repeated.
  void Add(OaError e) {
    for (const OaError& x : errors) {
      if (x.message == e.message) return;
    }
    errors.push_back(std::move(e));
  }
  void Merge(const OaResult& o) {
    for (const OaError& e : o.errors) Add(e);
    match_count += o.match_count;
  }
};

OaResult Single(OaError e) {
  OaResult r;
  r.errors.push_back(std::move(e));
  return r;
}

// Go's %v for the values kube-openapi formats into messages.
std::string GoV(const Json& v) {
  if (v.is_null()) return "<nil>";
  if (v.is_string()) return v.get<std::string>();
  if (v.is_boolean()) return v.get<bool>() ? "true" : "false";
  if (v.is_number_float()) return yaml_internal::GoFloatV(v.get<double>());
  if (v.is_number()) return v.dump();
  std::string out = v.is_array() ? "[" : "map[";
  bool first = true;
  for (auto it = v.begin(); it != v.end(); ++it) {
    if (!first) out += " ";
    first = false;
    if (v.is_object()) out += it.key() + ":";
    out += GoV(it.value());
  }
  return out + "]";
}

std::string In(const std::string& name) { return name + " in body"; }

OaError InvalidType(const std::string& path, const std::string& type, const Json& value) {
  std::string msg = In(path) + " must be of type " + type;
  if (value.is_string()) msg += ": " + GoQuote(value.get<std::string>());
  return {kInvalidType, path, value, {}, -1, msg};
}

std::string JoinTypes(const SchemaNode& s) {
  std::string out;
  for (const auto& t : s.types) out += (out.empty() ? "" : ",") + t;
  return out;
}

std::string SchemaTypeOf(const Json& d) {
  if (d.is_boolean()) return "boolean";
  if (d.is_string()) return "string";
  if (d.is_number_float()) return "number";
  if (d.is_number()) return "integer";
  if (d.is_array()) return "array";
  return "object";
}

// swag.IsFloat64AJSONInteger.
bool IsJsonInteger(double f) {
  if (!std::isfinite(f) || std::fabs(f) > 9007199254740992.0) return false;
  double r = std::round(f);
  if (f == r) return true;
  double diff = std::fabs(f - r);
  return diff / std::min(std::fabs(f) + std::fabs(r), 1.7976931348623157e308) < 1e-9;
}

OaResult TypeCheck(const SchemaNode& s, const Json& d, const std::string& path) {
  OaResult ok;
  ok.Inc();
  if (d.is_null()) {
    if (!s.types.empty() && !s.HasType("null") && !s.nullable) {
      return Single(InvalidType(path, JoinTypes(s), "null"));
    }
    return ok;
  }
  std::string sch_type = SchemaTypeOf(d);
  std::string go_format = d.is_number_float() ? "float64" : d.is_number() ? "int64" : "";
  bool float_int = sch_type == "number" && IsJsonInteger(d.get<double>()) && s.HasType("integer");
  bool int_float = sch_type == "integer" && s.HasType("number");
  bool str_or_slice = d.is_string() || d.is_array();
  if (!str_or_slice && !s.format.empty() &&
      !(s.HasType(sch_type) || go_format == s.format || float_int || int_float)) {
    return Single(InvalidType(path, s.format, go_format));
  }
  if (!(s.HasType("number") || s.HasType("integer")) && !s.format.empty() && str_or_slice)
    return ok;
  if (!(s.HasType(sch_type) || float_int || int_float)) {
    return Single(InvalidType(path, JoinTypes(s), sch_type));
  }
  return ok;
}

// reflect.Value.Convert then DeepEqual, as basicCommonValidator compares data to an enum value.
bool EnumMatches(const Json& d, const Json& e) {
  if (d.is_null() || e.is_null()) return false;
  if (d.is_number() && e.is_number()) {
    if (e.is_number_float()) return d.get<double>() == e.get<double>();
    if (d.is_number_float()) {
      double f = d.get<double>();
      if (!(f > -9.2e18 && f < 9.2e18)) return false;
      return static_cast<std::int64_t>(f) == e.get<std::int64_t>();
    }
    return d == e;
  }
  if (d.is_number_integer() && e.is_string()) {  // Go converts an integer to a one-rune string
    std::int64_t c = d.get<std::int64_t>();
    std::string s;
    if (c < 0 || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) c = 0xFFFD;
    if (c < 0x80)
      s += static_cast<char>(c);
    else if (c < 0x800)
      s += {static_cast<char>(0xC0 | (c >> 6)), static_cast<char>(0x80 | (c & 0x3F))};
    else if (c < 0x10000)
      s += {static_cast<char>(0xE0 | (c >> 12)), static_cast<char>(0x80 | ((c >> 6) & 0x3F)),
            static_cast<char>(0x80 | (c & 0x3F))};
    else
      s += {static_cast<char>(0xF0 | (c >> 18)), static_cast<char>(0x80 | ((c >> 12) & 0x3F)),
            static_cast<char>(0x80 | ((c >> 6) & 0x3F)), static_cast<char>(0x80 | (c & 0x3F))};
    return s == e.get<std::string>();
  }
  if (d.type() != e.type() && !(d.is_number() && e.is_number())) return false;
  return GoJsonMarshal(d) == GoJsonMarshal(e) && d == e;
}

OaResult CommonCheck(const SchemaNode& s, const Json& d, const std::string& path) {
  if (!s.enum_values || s.enum_values->empty()) return {};
  for (const Json& e : *s.enum_values) {
    if (EnumMatches(d, e)) return {};
  }
  OaError err{kEnum,          path, d.is_null() ? std::optional<Json>() : d,
              *s.enum_values, -1,   In(path) + " should be one of " + GoV(*s.enum_values)};
  return Single(std::move(err));
}

std::int64_t RuneCount(const std::string& s) {
  std::int64_t n = 0;
  for (std::size_t i = 0; i < s.size(); ++n) {
    char32_t c = 0;
    if (!yaml_internal::NextCodePoint(s, &i, &c)) ++i;
  }
  return n;
}

OaResult StringCheck(const SchemaNode& s, const Json& d, const std::string& path) {
  const std::string& v = d.get_ref<const std::string&>();
  std::int64_t length = (s.max_length || s.min_length) ? RuneCount(v) : 0;
  if (s.max_length && length > *s.max_length) {
    return Single(
        {kTooLong,
         path,
         d,
         {},
         *s.max_length,
         In(path) + " should be at most " + std::to_string(*s.max_length) + " chars long"});
  }
  if (s.min_length && length < *s.min_length) {
    return Single(
        {kTooShort,
         path,
         d,
         {},
         *s.min_length,
         In(path) + " should be at least " + std::to_string(*s.min_length) + " chars long"});
  }
  if (!s.pattern.empty()) {
    std::string shown = s.pattern;
    if (!s.regex_error.empty()) shown += ", but pattern is invalid: " + s.regex_error;
    if (!s.regex || !s.regex->Search(v)) {
      return Single({kPattern, path, d, {}, -1, In(path) + " should match '" + shown + "'"});
    }
  }
  return {};
}

OaResult FormatCheck(const SchemaNode& s, const Json& d, const std::string& path) {
  if (MatchesStringFormat(s.format, d.get_ref<const std::string&>())) return {};
  return Single(InvalidType(path, s.format, d));
}

std::string NumberText(const Json& v) {
  return v.is_number_float() ? yaml_internal::GoFloatV(v.get<double>()) : v.dump();
}

// minimum/maximum through MinimumNativeType/MaximumNativeType: integer data compares with the
// bound truncated to an integer, float data with the float bound.
OaResult BoundCheck(const Json& d, double bound, bool exclusive, bool is_max,
                    const std::string& path) {
  Json shown;
  bool fails = false;
  if (d.is_number_float()) {
    double v = d.get<double>();
    fails = is_max ? (exclusive ? v >= bound : v > bound) : (exclusive ? v <= bound : v < bound);
    shown = bound;
  } else if (d.is_number_unsigned() && d.get<std::uint64_t>() > 9223372036854775807ULL) {
    if (bound < 0) {
      if (!is_max) return {};
      fails = true;
      shown = bound;
    } else {
      std::uint64_t v = d.get<std::uint64_t>(), b = static_cast<std::uint64_t>(bound);
      fails = is_max ? (exclusive ? v >= b : v > b) : (exclusive ? v <= b : v < b);
      shown = b;
    }
  } else {
    std::int64_t v = d.get<std::int64_t>();
    std::int64_t b = bound >= 9.2e18    ? INT64_MAX
                     : bound <= -9.2e18 ? INT64_MIN
                                        : static_cast<std::int64_t>(bound);
    fails = is_max ? (exclusive ? v >= b : v > b) : (exclusive ? v <= b : v < b);
    shown = b;
  }
  if (!fails) return {};
  std::string rel =
      is_max ? (exclusive ? " should be less than " : " should be less than or equal to ")
             : (exclusive ? " should be greater than " : " should be greater than or equal to ");
  return Single({is_max ? kMax : kMin, path, d, {}, -1, In(path) + rel + NumberText(shown)});
}

OaResult MultipleCheck(const Json& d, double factor, const std::string& path) {
  bool integral = !d.is_number_float() && std::trunc(factor) != 0;
  if (factor < 0) {
    Json shown = integral ? Json(static_cast<std::int64_t>(factor)) : Json(factor);
    return Single(
        {kMultipleOfMustBePositive,
         path,
         shown,
         {},
         -1,
         "factor MultipleOf declared for " + path + " must be positive: " + NumberText(shown)});
  }
  bool multiple = true;
  Json shown;
  if (integral) {
    auto f = static_cast<std::int64_t>(factor);
    multiple = d.is_number_unsigned() ? d.get<std::uint64_t>() % static_cast<std::uint64_t>(f) == 0
                                      : d.get<std::int64_t>() % f == 0;
    shown = f;
  } else {
    double v = d.get<double>();
    multiple = factor != 0 && IsJsonInteger(factor < 1 ? 1 / factor * v : v / factor);
    shown = factor;
  }
  if (multiple) return {};
  return Single(
      {kMultipleOf, path, d, {}, -1, In(path) + " should be a multiple of " + NumberText(shown)});
}

OaResult NumberCheck(const SchemaNode& s, const Json& d, const std::string& path) {
  OaResult r;
  if (s.multiple_of) r.Merge(MultipleCheck(d, *s.multiple_of, path));
  if (s.minimum) r.Merge(BoundCheck(d, *s.minimum, s.exclusive_minimum, false, path));
  if (s.maximum) r.Merge(BoundCheck(d, *s.maximum, s.exclusive_maximum, true, path));
  r.Inc();
  return r;
}

OaResult ValidateNode(const SchemaNode& s, const Json& d, const std::string& path);

OaResult SliceCheck(const SchemaNode& s, const Json& d, const std::string& path) {
  OaResult r;
  auto size = static_cast<std::int64_t>(d.size());
  if (s.items) {
    for (std::size_t i = 0; i < d.size(); ++i) {
      r.Merge(ValidateNode(*s.items, d[i], path + "[" + std::to_string(i) + "]"));
    }
  }
  if (s.min_items && size < *s.min_items) {
    r.Add({kMinItems,
           path,
           Json(size),
           {},
           *s.min_items,
           In(path) + " should have at least " + std::to_string(*s.min_items) + " items"});
  }
  if (s.max_items && size > *s.max_items) {
    r.Add({kMaxItems,
           path,
           Json(size),
           {},
           *s.max_items,
           In(path) + " should have at most " + std::to_string(*s.max_items) + " items"});
  }
  if (s.unique_items) {
    for (std::size_t i = 0; i < d.size(); ++i) {
      for (std::size_t j = 0; j < i; ++j) {
        if (d[i] == d[j] && GoJsonMarshal(d[i]) == GoJsonMarshal(d[j])) {
          r.Add({kUnique, path, std::nullopt, {}, -1, In(path) + " shouldn't contain duplicates"});
        }
      }
    }
  }
  r.Inc();
  return r;
}

std::string Join(const std::string& path, const std::string& key) {
  return path.empty() ? key : path + "." + key;
}

OaResult ObjectCheck(const SchemaNode& s, const Json& d, const std::string& path) {
  auto n = static_cast<std::int64_t>(d.size());
  if (s.min_properties && n < *s.min_properties) {
    return Single(
        {kTooFewProperties,
         path,
         Json(n),
         {},
         *s.min_properties,
         In(path) + " should have at least " + std::to_string(*s.min_properties) + " properties"});
  }
  if (s.max_properties && n > *s.max_properties) {
    return Single(
        {kTooManyProperties,
         path,
         Json(n),
         {},
         *s.max_properties,
         In(path) + " should have at most " + std::to_string(*s.max_properties) + " properties"});
  }
  OaResult r;
  for (auto it = d.begin(); it != d.end(); ++it) {
    if (s.properties.count(it.key())) continue;
    if (s.has_additional && !s.additional_allows) {
      r.Add({kUnallowedProperty,
             path,
             Json(it.key()),
             {},
             -1,
             path + "." + it.key() + " in body is a forbidden property"});
    } else if (s.additional) {
      r.Merge(ValidateNode(*s.additional, it.value(), path + "." + it.key()));
    }
  }
  for (const auto& [name, prop] : s.properties) {
    auto it = d.find(name);
    if (it != d.end()) r.Merge(ValidateNode(*prop, *it, Join(path, name)));
  }
  for (const std::string& k : s.required) {
    if (!d.contains(k))
      r.Add({kRequired, path + "." + k, std::nullopt, {}, -1, In(path + "." + k) + " is required"});
  }
  return r;
}

OaResult PropsCheck(const SchemaNode& s, const Json& d, const std::string& path) {
  OaResult main;
  if (!s.any_of.empty()) {
    std::optional<OaResult> best, first_success;
    bool succeeded = false;
    for (const auto& sub : s.any_of) {
      OaResult r = ValidateNode(*sub, d, path);
      if (r.ok()) {
        best.reset();
        succeeded = true;
        if (!first_success) first_success = r;
        break;
      }
      if (!best || r.match_count > best->match_count) best = r;
    }
    if (!succeeded)
      main.Add({kComposite,
                path,
                {},
                {},
                -1,
                GoQuote(path) + " must validate at least one schema (anyOf)"});
    if (best)
      main.Merge(*best);
    else if (first_success)
      main.Merge(*first_success);
  }
  if (!s.one_of.empty()) {
    std::optional<OaResult> best, first_success;
    int validated = 0;
    for (const auto& sub : s.one_of) {
      OaResult r = ValidateNode(*sub, d, path);
      if (r.ok()) {
        ++validated;
        best.reset();
        if (!first_success) first_success = r;
        continue;
      }
      if (validated == 0 && (!best || r.match_count > best->match_count)) best = r;
    }
    if (validated != 1) {
      std::string extra = validated == 0
                              ? "Found none valid"
                              : "Found " + std::to_string(validated) + " valid alternatives";
      main.Add({kComposite,
                path,
                {},
                {},
                -1,
                GoQuote(path) + " must validate one and only one schema (oneOf). " + extra});
      if (best) main.Merge(*best);
    } else if (first_success) {
      main.Merge(*first_success);
    }
  }
  if (!s.all_of.empty()) {
    std::size_t validated = 0;
    for (const auto& sub : s.all_of) {
      OaResult r = ValidateNode(*sub, d, path);
      if (r.ok()) ++validated;
      main.Merge(r);
    }
    if (validated != s.all_of.size()) {
      main.Add({kComposite,
                path,
                {},
                {},
                -1,
                GoQuote(path) + " must validate all the schemas (allOf)" +
                    (validated == 0 ? ". None validated" : "")});
    }
  }
  if (s.not_schema && ValidateNode(*s.not_schema, d, path).ok()) {
    main.Add({kComposite, path, {}, {}, -1, GoQuote(path) + " must not validate the schema (not)"});
  }
  main.Inc();
  return main;
}

// SchemaValidator.Validate: each applicable validator in kube-openapi's order.
OaResult ValidateNode(const SchemaNode& s, const Json& d, const std::string& path) {
  OaResult r;
  if (d.is_null()) {
    r.Merge(TypeCheck(s, d, path));
    r.Merge(CommonCheck(s, d, path));
    return r;
  }
  auto step = [&](OaResult x) {
    r.Merge(x);
    r.Inc();
  };
  if (!s.types.empty() || !s.format.empty()) step(TypeCheck(s, d, path));
  step(PropsCheck(s, d, path));
  if (d.is_string()) step(StringCheck(s, d, path));
  if (d.is_string() && !s.format.empty()) step(FormatCheck(s, d, path));
  if (d.is_number()) step(NumberCheck(s, d, path));
  if (d.is_array()) step(SliceCheck(s, d, path));
  step(CommonCheck(s, d, path));
  if (d.is_object()) step(ObjectCheck(s, d, path));
  r.Inc();
  return r;
}

// kubeOpenAPIResultToFieldErrors.
void ToFieldErrors(const OaResult& result, ErrorList* out) {
  for (const OaError& e : result.errors) {
    if (e.code == kComposite) {
      out->push_back({FieldErrorType::kInvalid, "<nil>", "", e.message});
      continue;
    }
    std::string field = e.name.empty() || e.name == "." ? "<nil>" : e.name;
    if (field.front() == '.') field.erase(0, 1);
    Json value = e.value ? *e.value : Json("");
    switch (e.code) {
      case kRequired:
        out->push_back({FieldErrorType::kRequired, field, Json(), ""});
        break;
      case kEnum: {
        std::vector<std::string> values;
        for (const Json& v : e.values)
          values.push_back(v.is_string() ? v.get<std::string>() : GoJsonMarshal(v));
        FieldError fe = NotSupported(FieldPath(), e.value ? *e.value : Json(), values);
        fe.field = field;
        out->push_back(std::move(fe));
        break;
      }
      case kTooLong:
        out->push_back({FieldErrorType::kTooLong, field, value,
                        "may not be more than " + std::to_string(e.valid) +
                            (e.valid == 1 ? " byte" : " bytes")});
        break;
      case kMaxItems:
      case kTooManyProperties:
        out->push_back(
            {FieldErrorType::kTooMany, field, value,
             "must have at most " + std::to_string(e.valid) + (e.valid == 1 ? " item" : " items")});
        break;
      case kInvalidType:
        out->push_back({FieldErrorType::kTypeInvalid, field, value, e.message});
        break;
      default:
        out->push_back({FieldErrorType::kInvalid, field, value, e.message});
    }
  }
}

}  // namespace

ErrorList ValidateAgainst(const SchemaNode& root, const Json& obj) {
  ErrorList errs;
  OaResult result = ValidateNode(root, obj, "");
  ToFieldErrors(result, &errs);
  EmbeddedResources(FieldPath(), obj, &root, &errs);
  if (obj.is_object()) ListTypes(FieldPath(), &root, obj, &errs);
  return errs;
}

}  // namespace lws::api
