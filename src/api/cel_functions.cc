// CEL's standard functions that the subset supports (cel_ast.h, cel-spec doc/langdef.md,
// "List of Standard Definitions"): size, the string tests, matches, the type conversions, type
// and dyn. Conversion errors carry cel-go's messages (common/types/{int,uint,double,string}.go).
#include <charconv>
#include <cmath>

#include "api/cel_ast.h"
#include "api/yaml_scalar.h"

namespace lws::api::cel {
namespace {

Outcome NoOverload() { return Fail(std::string(kNoOverload)); }

Outcome ConversionError(const Value& from, std::string_view to) {
  return Fail("type conversion error from '" + std::string(TypeName(from)) + "' to '" +
              std::string(to) + "'");
}

// strconv's error for a string that does not parse: `strconv.ParseInt: parsing "x": ...`.
Outcome ParseError(std::string_view func, std::string_view s, std::errc ec) {
  std::string why = ec == std::errc::result_out_of_range ? "value out of range" : "invalid syntax";
  return Fail("strconv." + std::string(func) + ": parsing " + GoQuote(s) + ": " + why);
}

// Parses all of `s` as base-10 T, accepting a leading '+' as Go does.
template <class T>
std::errc ParseNumber(std::string_view s, T* out) {
  if (!s.empty() && s[0] == '+') s.remove_prefix(1);
  if (s.empty() || s[0] == '+') return std::errc::invalid_argument;
  auto r = std::from_chars(s.data(), s.data() + s.size(), *out);
  if (r.ec != std::errc()) return r.ec;
  return r.ptr == s.data() + s.size() ? std::errc() : std::errc::invalid_argument;
}

Outcome ToInt(const Value& v) {
  switch (v.kind) {
    case Kind::kInt:
      return Ok(v);
    case Kind::kUint:
      if (v.u > INT64_MAX) return Fail("integer overflow");
      return Ok(Value::Int(static_cast<std::int64_t>(v.u)));
    case Kind::kDouble:
      // doubleToInt64Checked: NaN, infinities and values past the int64 range overflow.
      if (!(v.d > -9223372036854775809.0 && v.d < 9223372036854775808.0)) {
        return Fail("integer overflow");
      }
      return Ok(Value::Int(static_cast<std::int64_t>(v.d)));
    case Kind::kString: {
      std::int64_t n = 0;
      std::errc ec = ParseNumber(v.str, &n);
      if (ec != std::errc()) return ParseError("ParseInt", v.str, ec);
      return Ok(Value::Int(n));
    }
    default:
      return ConversionError(v, "int");
  }
}

Outcome ToUint(const Value& v) {
  switch (v.kind) {
    case Kind::kUint:
      return Ok(v);
    case Kind::kInt:
      if (v.i < 0) return Fail("unsigned integer overflow");
      return Ok(Value::Uint(static_cast<std::uint64_t>(v.i)));
    case Kind::kDouble:
      if (!(v.d >= 0 && v.d < 18446744073709551616.0)) return Fail("unsigned integer overflow");
      return Ok(Value::Uint(static_cast<std::uint64_t>(v.d)));
    case Kind::kString: {
      std::uint64_t n = 0;
      std::errc ec =
          !v.str.empty() && v.str[0] == '-' ? std::errc::invalid_argument : ParseNumber(v.str, &n);
      if (ec != std::errc()) return ParseError("ParseUint", v.str, ec);
      return Ok(Value::Uint(n));
    }
    default:
      return ConversionError(v, "uint");
  }
}

Outcome ToDouble(const Value& v) {
  switch (v.kind) {
    case Kind::kDouble:
      return Ok(v);
    case Kind::kInt:
      return Ok(Value::Double(static_cast<double>(v.i)));
    case Kind::kUint:
      return Ok(Value::Double(static_cast<double>(v.u)));
    case Kind::kString: {
      double d = 0;
      std::errc ec = ParseNumber(v.str, &d);
      if (ec != std::errc()) return ParseError("ParseFloat", v.str, ec);
      return Ok(Value::Double(d));
    }
    default:
      return ConversionError(v, "double");
  }
}

Outcome ToString(const Value& v) {
  switch (v.kind) {
    case Kind::kString:
      return Ok(v);
    case Kind::kBool:
      return Ok(Value::String(v.b ? "true" : "false"));
    case Kind::kInt:
      return Ok(Value::String(std::to_string(v.i)));
    case Kind::kUint:
      return Ok(Value::String(std::to_string(v.u)));
    case Kind::kDouble:  // strconv.FormatFloat(d, 'g', -1, 64)
      return Ok(Value::String(yaml_internal::FormatGoFloat(v.d, 64)));
    default:
      return ConversionError(v, "string");
  }
}

Outcome StringTest(std::string_view f, const Value& s, const Value& x, Budget* budget) {
  if (s.kind != Kind::kString || x.kind != Kind::kString) return NoOverload();
  budget->Charge(ByteSteps(s.str.size() + x.str.size()));
  bool holds = false;
  if (f == "contains") holds = s.str.find(x.str) != std::string_view::npos;
  if (f == "startsWith") holds = s.str.substr(0, x.str.size()) == x.str;
  if (f == "endsWith") {
    holds = s.str.size() >= x.str.size() && s.str.substr(s.str.size() - x.str.size()) == x.str;
  }
  return Ok(Value::Bool(holds));
}

// s.matches(re): RE2 syntax, true when some substring matches. Matching costs
// O(|s| x |re|), charged before it runs (the Kubernetes cost model charges 0.1 per product unit).
Outcome Matches(const Value& s, const Value& re, const SchemaRegex* compiled, Budget* budget) {
  if (s.kind != Kind::kString || re.kind != Kind::kString) return NoOverload();
  std::int64_t steps = 1 + static_cast<std::int64_t>(s.str.size() / 10) *
                               static_cast<std::int64_t>(re.str.size() + 1);
  if (!budget->Charge(steps)) return Fail(std::string(kCostExceeded));
  if (compiled != nullptr) return Ok(Value::Bool(compiled->Search(s.str)));
  auto regex = SchemaRegex::Compile(re.str);
  if (!regex.ok()) return Fail(regex.status().message());
  return Ok(Value::Bool(regex->Search(s.str)));
}

}  // namespace

Outcome Evaluator::EvalCall(const Expr& e) {
  ValueList args;
  for (const auto& a : e.args) {
    Outcome x = Eval(*a);
    if (!x.ok()) return x;
    args.push_back(std::move(x.value));
  }
  const std::string& f = e.name;
  if (f == "size") {
    Kind k = args[0].kind;
    if (k != Kind::kString && k != Kind::kList && k != Kind::kMap) return NoOverload();
    return Ok(Value::Int(Size(args[0])));
  }
  if (f == "contains" || f == "startsWith" || f == "endsWith") {
    return StringTest(f, args[0], args[1], budget_);
  }
  if (f == "matches") return Matches(args[0], args[1], e.regex.get(), budget_);
  if (f == "int") return ToInt(args[0]);
  if (f == "uint") return ToUint(args[0]);
  if (f == "double") return ToDouble(args[0]);
  if (f == "string") return ToString(args[0]);
  if (f == "type") return Ok(Value::Type(TypeName(args[0])));
  if (f == "dyn") return Ok(std::move(args[0]));
  return NoOverload();
}

}  // namespace lws::api::cel
