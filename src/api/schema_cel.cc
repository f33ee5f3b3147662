// x-kubernetes-validations: compiling each node's rules and evaluating them over an object
// (schema_cel.h), ported from apiextensions-apiserver's pkg/apiserver/schema/cel/validation.go
// and compilation.go, and the blocking-error check of pkg/registry/customresource/strategy.go.
#include "api/schema_cel.h"

#include <algorithm>

#include "api/schema_node.h"

namespace lws::api {
namespace {

std::string TrimSpace(std::string_view s) {
  const char* kSpace = " \t\n\r\f\v";
  std::size_t first = s.find_first_not_of(kSpace);
  if (first == std::string_view::npos) return "";
  return std::string(s.substr(first, s.find_last_not_of(kSpace) - first + 1));
}

FieldErrorType ReasonOf(const std::string& reason) {
  if (reason == "FieldValueForbidden") return FieldErrorType::kForbidden;
  if (reason == "FieldValueRequired") return FieldErrorType::kRequired;
  if (reason == "FieldValueDuplicate") return FieldErrorType::kDuplicate;
  return FieldErrorType::kInvalid;
}

// unescapeSingleQuote of validation.go.
bool UnescapeQuoted(std::string_view s, std::string* out) {
  static constexpr std::string_view kFrom = "abfnrtv'\\", kTo = "\a\b\f\n\r\t\v'\\";
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '\\') {
      *out += s[i];
      continue;
    }
    std::size_t k = i + 1 < s.size() ? kFrom.find(s[i + 1]) : std::string_view::npos;
    if (k == std::string_view::npos) return false;
    *out += kTo[k];
    ++i;
  }
  return true;
}

// ValidFieldPath: a JSON path of fields (.a.b) and quoted keys (['k']) that the schema under
// `node` declares, as a field path ("a.b[k]"); false when it is not one.
bool NormalizeFieldPath(std::string_view path, const SchemaNode& node, std::string* out) {
  FieldPath p;
  const SchemaNode* s = &node;
  for (std::size_t i = 0; i < path.size();) {
    std::string name;
    if (path[i] == '.') {
      std::size_t end = path.find_first_of(".[]", i + 1);
      if (end == std::string_view::npos) end = path.size();
      name = std::string(path.substr(i + 1, end - i - 1));
      i = end;
    } else if (path[i] == '[' && i + 1 < path.size() && path[i + 1] == '\'') {
      std::size_t close = i + 2;
      while (close < path.size() && !(path[close] == '\'' && path[close - 1] != '\\')) ++close;
      if (close + 1 >= path.size() || path[close + 1] != ']') return false;
      if (!UnescapeQuoted(path.substr(i + 2, close - i - 2), &name)) return false;
      i = close + 2;
    } else {
      return false;
    }
    if (name.empty() || s == nullptr) return false;
    if (!s->properties.empty()) {
      auto prop = s->properties.find(name);
      if (prop == s->properties.end()) return false;
      p = p.Child(name);
      s = prop->second.get();
    } else if (s->has_additional) {
      p = p.Key(name);
      s = s->additional.get();
    } else {
      return false;
    }
  }
  *out = p.String();
  return !out->empty();
}

void Collect(const SchemaNode& n, const std::string& path, const std::string& why_all,
             std::vector<std::string>* out) {
  std::string shown = path.empty() ? "<root>" : path;
  for (const std::string& skipped : n.rules_skipped) out->push_back(shown + ": " + skipped);
  if (!why_all.empty()) {
    for (const CelRule& r : n.rules) out->push_back(shown + ": " + r.rule + ": " + why_all);
  }
  for (const auto& [name, prop] : n.properties) {
    Collect(*prop, path.empty() ? name : path + "." + name, why_all, out);
  }
  if (n.items) Collect(*n.items, path + "[*]", why_all, out);
  if (n.additional) Collect(*n.additional, path + "[*]", why_all, out);
  for (const auto& sub : n.all_of) Collect(*sub, path, why_all, out);
  std::string nested = "not evaluated under anyOf, oneOf or not";
  for (const auto& sub : n.any_of) Collect(*sub, path, nested, out);
  for (const auto& sub : n.one_of) Collect(*sub, path, nested, out);
  if (n.not_schema) Collect(*n.not_schema, path, nested, out);
}

// Validator.validate over one object, with the per-object budget (RuntimeCELCostBudget).
class CelWalk {
 public:
  explicit CelWalk(ErrorList* out) : out_(out) {}

  // `r` holds the rules, `t` types the value: the same node, except under allOf, whose rules
  // apply to the value as the node's own schema types it (validation.go, validator()).
  void Walk(const SchemaNode& r, const SchemaNode& t, const Json& x, const FieldPath& path,
            bool resource_root) {
    if (stopped_ || x.is_null() || !r.rules_below) return;
    for (const CelRule& rule : r.rules) {
      if (!Evaluate(rule, t, x, path, resource_root)) return;
    }
    for (const auto& sub : r.all_of) Walk(*sub, t, x, path, resource_root);
    if (x.is_array() && r.items && t.items) {
      for (std::size_t i = 0; i < x.size(); ++i) {
        Walk(*r.items, *t.items, x[i], path.Index(i), t.items->embedded_resource);
      }
    }
    if (!x.is_object()) return;
    if (r.additional && t.additional) {
      for (auto it = x.begin(); it != x.end(); ++it) {
        Walk(*r.additional, *t.additional, *it, path.Key(it.key()),
             t.additional->embedded_resource);
      }
    }
    for (auto it = x.begin(); it != x.end(); ++it) {
      auto rp = r.properties.find(it.key());
      auto tp = t.properties.find(it.key());
      if (rp == r.properties.end() || tp == t.properties.end()) continue;
      Walk(*rp->second, *tp->second, *it, path.Child(it.key()), tp->second->embedded_resource);
    }
  }

 private:
  // field.Error at `path`; a nil path prints as "<nil>", as the root's does upstream.
  void Add(FieldErrorType type, const FieldPath& path, Json value, std::string detail) {
    out_->emplace_back(type, path.empty() ? "<nil>" : path.String(), std::move(value),
                       std::move(detail));
  }

  // validateExpressions for one rule; false once no further rule may run.
  bool Evaluate(const CelRule& rule, const SchemaNode& t, const Json& x, const FieldPath& path,
                bool resource_root) {
    // field.Invalid(fldPath, sts.Type, ...): the schema's type name is the "value".
    Json type = t.types.size() == 1 ? t.types.front() : "";
    std::string shown = TrimSpace(rule.message.empty() ? rule.rule : rule.message);
    if (budget_ <= 0) {
      Add(FieldErrorType::kInvalid, path, type,
          "validation failed due to running out of cost budget, no further validation rules "
          "will be run");
      stopped_ = true;
      return false;
    }
    std::int64_t call = std::min(kCelStepsPerCall, budget_);
    std::int64_t left = call;
    CelResult result = rule.program.Evaluate(x, &t, resource_root, &left);
    budget_ -= call - left;
    if (result.kind == CelResult::Kind::kOutOfBudget) {
      Add(FieldErrorType::kInvalid, path, type,
          call < kCelStepsPerCall
              ? "validation failed due to running out of cost budget, no further validation "
                "rules will be run"
              : "'" + result.error +
                    "': no further validation rules will be run due to call cost exceeds limit "
                    "for rule: " +
                    shown);
      stopped_ = true;
      return false;
    }
    if (result.kind == CelResult::Kind::kError) {
      if (result.error.rfind("no such overload", 0) == 0) {
        Add(FieldErrorType::kInvalid, path, type,
            "'" + result.error +
                "': call arguments did not match a supported operator, function or macro "
                "signature for rule: " +
                shown);
      } else {
        Add(FieldErrorType::kInvalid, path, type, result.error + " evaluating rule: " + shown);
      }
      return true;
    }
    if (!result.value) Failed(rule, path, std::move(type));
    return true;
  }

  // fieldErrorForReason, with ruleMessageOrDefault's detail at the rule's fieldPath.
  void Failed(const CelRule& rule, const FieldPath& path, Json type) {
    FieldPath at = rule.field_path.empty() ? path : path.Child(rule.field_path);
    std::string detail =
        rule.message.empty() ? "failed rule: " + TrimSpace(rule.rule) : TrimSpace(rule.message);
    if (rule.reason == FieldErrorType::kDuplicate) {
      Add(FieldErrorType::kDuplicate, at, std::move(type), "");
    } else if (rule.reason == FieldErrorType::kInvalid) {
      Add(FieldErrorType::kInvalid, at, std::move(type), std::move(detail));
    } else {
      Add(rule.reason, at, Json(), std::move(detail));
    }
  }

  ErrorList* out_;
  std::int64_t budget_ = kCelStepsPerObject;
  bool stopped_ = false;
};

}  // namespace

void CompileCelRules(const Json& j, SchemaNode* n) {
  auto it = j.find("x-kubernetes-validations");
  if (it == j.end() || !it->is_array()) return;
  for (const Json& entry : *it) {
    std::string rule = StringMember(entry, "rule");
    if (TrimSpace(rule).empty()) continue;  // compileRule leaves an empty rule uncompiled
    auto program = CelProgram::Compile(rule);
    if (!program.ok()) {
      n->rules_skipped.push_back(rule + ": " + program.status().message());
      continue;
    }
    CelRule r{rule, StringMember(entry, "message"), ReasonOf(StringMember(entry, "reason")), "",
              *program};
    // An invalid fieldPath is ignored, as compileRule does (the CRD's own validation rejects it).
    std::string field_path = StringMember(entry, "fieldPath");
    if (!field_path.empty()) NormalizeFieldPath(field_path, *n, &r.field_path);
    n->rules.push_back(std::move(r));
  }
}

std::vector<std::string> CollectSkippedRules(const SchemaNode& root) {
  std::vector<std::string> out;
  Collect(root, "", "", &out);
  return out;
}

void ValidateCelRules(const SchemaNode& root, const Json& obj, ErrorList* errors) {
  if (!root.rules_below) return;
  // hasBlockingErr: type, required, enum, maxLength, maxItems and maxProperties violations
  // would make rules fail confusingly (or expensively), so none runs.
  for (const FieldError& e : *errors) {
    FieldErrorType t = e.type;
    if (t == FieldErrorType::kNotSupported || t == FieldErrorType::kRequired ||
        t == FieldErrorType::kTooLong || t == FieldErrorType::kTooMany ||
        t == FieldErrorType::kTypeInvalid) {
      // field.Invalid(nil, nil, ...): a nil value prints as "null", quoted.
      errors->emplace_back(FieldErrorType::kInvalid, "<nil>", Json("null"),
                           "some validation rules were not checked because the object was "
                           "invalid; correct the existing errors to complete validation");
      return;
    }
  }
  CelWalk(errors).Walk(root, root, obj, FieldPath(), /*resource_root=*/true);
}

}  // namespace lws::api
