// Evaluation half of jsonpath.h: client-go's jsonpath.go walk over nlohmann Json values. Values
// flow as pointers into the document; literals and string bytes live in an arena that outlives
// the walk. Comparisons follow Go's text/template eq/lt (same basic kind only).
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <limits>

#include "api/go_json.h"
#include "apiserver/jsonpath.h"

namespace lws::apiserver {

namespace {

using Node = JsonPath::Node;
using Kind = JsonPath::Node::Kind;
using Values = std::vector<const Json*>;

// Deeper documents are refused by recursive descent rather than risking the stack.
constexpr int kMaxRecursiveDepth = 256;

Status EvalError(std::string message) { return Status::BadRequest(std::move(message)); }

// The Go type name client-go's messages print for a value decoded into interface{}.
std::string GoTypeName(const Json& v) {
  switch (v.type()) {
    case Json::value_t::object:
      return "map[string]interface {}";
    case Json::value_t::array:
      return "[]interface {}";
    case Json::value_t::string:
      return "string";
    case Json::value_t::boolean:
      return "bool";
    case Json::value_t::number_float:
      return "float64";
    case Json::value_t::number_integer:
    case Json::value_t::number_unsigned:
      return "int64";
    default:
      return "<nil>";
  }
}

// Go text/template basic kinds of comparison operands.
enum class BasicKind { kBool, kInt, kFloat, kString, kInvalid };

BasicKind KindOf(const Json& v) {
  switch (v.type()) {
    case Json::value_t::boolean:
      return BasicKind::kBool;
    case Json::value_t::number_integer:
      return BasicKind::kInt;
    case Json::value_t::number_unsigned:
      // Go decodes integers beyond int64 as float64.
      return v.get<std::uint64_t>() >
                     static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())
                 ? BasicKind::kFloat
                 : BasicKind::kInt;
    case Json::value_t::number_float:
      return BasicKind::kFloat;
    case Json::value_t::string:
      return BasicKind::kString;
    default:
      return BasicKind::kInvalid;
  }
}

Result<BasicKind> CommonKind(const Json& a, const Json& b) {
  BasicKind ka = KindOf(a);
  BasicKind kb = KindOf(b);
  if (ka == BasicKind::kInvalid || kb == BasicKind::kInvalid) {
    return EvalError("invalid type for comparison");
  }
  if (ka != kb) return EvalError("incompatible types for comparison");
  return ka;
}

Result<bool> Equal(const Json& a, const Json& b) {
  ASSIGN_OR_RETURN(BasicKind kind, CommonKind(a, b));
  switch (kind) {
    case BasicKind::kBool:
      return a.get<bool>() == b.get<bool>();
    case BasicKind::kInt:
      return a.get<std::int64_t>() == b.get<std::int64_t>();
    case BasicKind::kFloat:
      return a.get<double>() == b.get<double>();
    default:
      return a.get_ref<const std::string&>() == b.get_ref<const std::string&>();
  }
}

Result<bool> Less(const Json& a, const Json& b) {
  ASSIGN_OR_RETURN(BasicKind kind, CommonKind(a, b));
  switch (kind) {
    case BasicKind::kBool:
      return EvalError("invalid type for comparison");
    case BasicKind::kInt:
      return a.get<std::int64_t>() < b.get<std::int64_t>();
    case BasicKind::kFloat:
      return a.get<double>() < b.get<double>();
    default:
      return a.get_ref<const std::string&>() < b.get_ref<const std::string&>();
  }
}

Result<bool> Compare(const std::string& op, const Json& a, const Json& b) {
  if (op == "==") return Equal(a, b);
  if (op == "!=") {
    ASSIGN_OR_RETURN(bool eq, Equal(a, b));
    return !eq;
  }
  if (op == "<") return Less(a, b);
  if (op == ">=") {
    ASSIGN_OR_RETURN(bool lt, Less(a, b));
    return !lt;
  }
  if (op == "<=" || op == ">") {
    ASSIGN_OR_RETURN(bool lt, Less(a, b));
    bool le = lt;
    if (!lt) {
      ASSIGN_OR_RETURN(le, Equal(a, b));
    }
    return op == "<=" ? le : !le;
  }
  return EvalError("unrecognized filter operator " + op);
}

class Evaluator {
 public:
  explicit Evaluator(bool allow_missing_keys) : allow_missing_keys_(allow_missing_keys) {}

  Result<Values> Walk(const Values& input, const Node& node) {
    switch (node.kind) {
      case Kind::kList: {
        Values cur = input;
        for (const Node& step : node.children) {
          ASSIGN_OR_RETURN(cur, Walk(cur, step));
        }
        return cur;
      }
      case Kind::kText:
        return Values{Own(Json(node.text))};
      case Kind::kInt:
        return Values(input.size(), Own(Json(node.int_value)));
      case Kind::kFloat:
        return Values(input.size(), Own(Json(node.float_value)));
      case Kind::kBool:
        return Values(input.size(), Own(Json(node.bool_value)));
      case Kind::kField:
        return EvalField(input, node.text);
      case Kind::kArray:
        return EvalArray(input, node);
      case Kind::kFilter:
        return EvalFilter(input, node);
      case Kind::kWildcard:
        return EvalWildcard(input);
      case Kind::kRecursive:
        return EvalRecursive(input, 0);
      case Kind::kUnion: {
        Values out;
        for (const Node& branch : node.children) {
          ASSIGN_OR_RETURN(Values part, Walk(input, branch));
          out.insert(out.end(), part.begin(), part.end());
        }
        return out;
      }
      case Kind::kIdentifier:
        return EvalError("unrecognized identifier " + node.text);
    }
    return EvalError("unexpected node");
  }

 private:
  const Json* Own(Json value) {
    arena_.push_back(std::move(value));
    return &arena_.back();
  }

  Result<Values> EvalField(const Values& input, const std::string& name) {
    Values out;
    if (input.empty()) return out;
    for (const Json* v : input) {
      if (!v->is_object()) continue;
      auto it = v->find(name);
      if (it != v->end()) out.push_back(&*it);
    }
    if (out.empty() && !allow_missing_keys_) return EvalError(name + " is not found");
    return out;
  }

  // client-go evalArray, including its early return when a slice selects nothing.
  Result<Values> EvalArray(const Values& input, const Node& node) {
    Values out;
    for (const Json* v : input) {
      if (v->is_null()) continue;
      if (!v->is_array()) return EvalError(GoTypeName(*v) + " is not array or slice");
      const auto length = static_cast<std::int64_t>(v->size());
      std::array<JsonPath::SliceParam, 3> p = node.slice;
      if (!p[0].known) p[0].value = 0;
      if (p[0].value < 0) p[0].value += length;
      if (!p[1].known) p[1].value = length;
      if (p[1].value < 0 || (p[1].value == 0 && p[1].derived)) p[1].value += length;
      if (p[1].value == p[0].value) return out;
      if (p[0].value >= length || p[0].value < 0) {
        return EvalError("array index out of bounds: index " + std::to_string(p[0].value) +
                         ", length " + std::to_string(length));
      }
      if (p[1].value > length || p[1].value < 0) {
        return EvalError("array index out of bounds: index " + std::to_string(p[1].value - 1) +
                         ", length " + std::to_string(length));
      }
      if (p[0].value > p[1].value) {
        return EvalError("starting index " + std::to_string(p[0].value) +
                         " is greater than ending index " + std::to_string(p[1].value));
      }
      std::int64_t step = 1;
      if (p[2].known) {
        if (p[2].value <= 0) return EvalError("step must be > 0");
        step = p[2].value;
      }
      for (std::int64_t i = p[0].value; i < p[1].value; i += step) {
        out.push_back(&(*v)[static_cast<std::size_t>(i)]);
        if (p[1].value - i <= step) break;  // avoid overflow of i + step
      }
    }
    return out;
  }

  Result<Values> EvalFilter(const Values& input, const Node& node) {
    Values out;
    const Node& left = node.children[0];
    const Node& right = node.children[1];
    for (const Json* v : input) {
      if (!v->is_array()) {
        return EvalError(JsonPathText(*v) + " is not array or slice and cannot be filtered");
      }
      for (const Json& element : *v) {
        Values item{&element};
        Result<Values> lefts = Walk(item, left);
        if (node.text == "exists") {
          if (lefts.ok() && !lefts->empty()) out.push_back(&element);
          continue;
        }
        if (!lefts.ok()) return lefts.status();
        if (lefts->empty()) continue;
        if (lefts->size() > 1) return EvalError("can only compare one element at a time");
        ASSIGN_OR_RETURN(Values rights, Walk(item, right));
        if (rights.empty()) continue;
        if (rights.size() > 1) return EvalError("can only compare one element at a time");
        ASSIGN_OR_RETURN(bool pass, Compare(node.text, *lefts->front(), *rights.front()));
        if (pass) out.push_back(&element);
      }
    }
    return out;
  }

  // Object members in key order (Go's map order is random; any order is faithful), array
  // elements, and the bytes of a string as integers.
  Result<Values> EvalWildcard(const Values& input) {
    Values out;
    for (const Json* v : input) {
      if (v->is_object() || v->is_array()) {
        for (const Json& child : *v) out.push_back(&child);
      } else if (v->is_string()) {
        for (unsigned char c : v->get_ref<const std::string&>()) out.push_back(Own(Json(c)));
      }
    }
    return out;
  }

  // Every container under the input, itself first. Strings count as containers of bytes, which
  // have no children, so a non-empty string is listed and not descended into.
  Result<Values> EvalRecursive(const Values& input, int depth) {
    if (depth > kMaxRecursiveDepth) return EvalError("document nested too deeply");
    Values out;
    for (const Json* v : input) {
      if (v->is_string()) {
        if (!v->get_ref<const std::string&>().empty()) out.push_back(v);
        continue;
      }
      if (!(v->is_object() || v->is_array()) || v->empty()) continue;
      out.push_back(v);
      Values children;
      for (const Json& child : *v) children.push_back(&child);
      ASSIGN_OR_RETURN(Values nested, EvalRecursive(children, depth + 1));
      out.insert(out.end(), nested.begin(), nested.end());
    }
    return out;
  }

  bool allow_missing_keys_;
  std::deque<Json> arena_;  // stable addresses for literals and string bytes
};

}  // namespace

Result<std::vector<std::vector<Json>>> JsonPath::FindResults(const Json& data,
                                                             bool allow_missing_keys) const {
  Evaluator evaluator(allow_missing_keys);
  const Values start{&data};
  std::vector<std::vector<Json>> full;
  for (const Node& node : root_) {
    ASSIGN_OR_RETURN(Values results, evaluator.Walk(start, node));
    std::vector<Json> copies;
    copies.reserve(results.size());
    for (const Json* v : results) copies.push_back(*v);
    full.push_back(std::move(copies));
  }
  return full;
}

std::string FormatGoFloatG(double f) {
  if (std::isnan(f)) return "NaN";
  if (std::isinf(f)) return f > 0 ? "+Inf" : "-Inf";
  if (f == 0) return std::signbit(f) ? "-0" : "0";
  // Shortest digits that read back to f, as strconv's shortest formatting finds them.
  char buf[64];
  for (int precision = 1; precision <= 17; ++precision) {
    std::snprintf(buf, sizeof buf, "%.*e", precision - 1, f);
    if (std::strtod(buf, nullptr) == f) break;
  }
  std::string text(buf);
  bool negative = text[0] == '-';
  if (negative) text.erase(0, 1);
  std::size_t e = text.find('e');
  std::string digits = text.substr(0, 1) + (e > 2 ? text.substr(2, e - 2) : "");
  int exponent = std::atoi(text.c_str() + e + 1);
  std::string out = negative ? "-" : "";
  // %g with shortest precision switches to %e when the exponent is < -4 or >= 6 (strconv).
  if (exponent < -4 || exponent >= 6) {
    out += digits.substr(0, 1);
    if (digits.size() > 1) out += "." + digits.substr(1);
    char exp_buf[16];
    std::snprintf(exp_buf, sizeof exp_buf, "e%c%02d", exponent < 0 ? '-' : '+', std::abs(exponent));
    return out + exp_buf;
  }
  if (exponent < 0)
    return out + "0." + std::string(static_cast<std::size_t>(-exponent - 1), '0') + digits;
  auto int_digits = static_cast<std::size_t>(exponent + 1);
  if (digits.size() <= int_digits)
    return out + digits + std::string(int_digits - digits.size(), '0');
  return out + digits.substr(0, int_digits) + "." + digits.substr(int_digits);
}

std::string JsonPathText(const Json& value) {
  switch (value.type()) {
    case Json::value_t::string:
      return value.get<std::string>();
    case Json::value_t::boolean:
      return value.get<bool>() ? "true" : "false";
    case Json::value_t::number_integer:
      return std::to_string(value.get<std::int64_t>());
    case Json::value_t::number_unsigned:
      return std::to_string(value.get<std::uint64_t>());
    case Json::value_t::number_float:
      return FormatGoFloatG(value.get<double>());
    case Json::value_t::object:
    case Json::value_t::array:
      return api::MarshalGoJson(value);
    default:
      return "<nil>";
  }
}

}  // namespace lws::apiserver
