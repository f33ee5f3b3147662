#include "api/selector.h"

#include <algorithm>

#include "api/field.h"
#include "api/intstr.h"
#include "api/name_validation.h"

namespace lws::api {

namespace {

using Op = SelectionOperator;

std::string InvalidText(std::string_view path, std::string_view shown_value,
                        std::string_view detail) {
  return std::string(path) + ": Invalid value: " + std::string(shown_value) + ": " +
         std::string(detail);
}

// utilerrors.Aggregate.Error(): one message alone, several in brackets, duplicates once.
std::string Aggregate(const std::vector<std::string>& messages) {
  std::vector<std::string> unique;
  for (const auto& m : messages) {
    if (std::find(unique.begin(), unique.end(), m) == unique.end()) unique.push_back(m);
  }
  if (unique.size() == 1) return unique[0];
  std::string out = "[";
  for (std::size_t i = 0; i < unique.size(); ++i) out += (i > 0 ? ", " : "") + unique[i];
  return out + "]";
}

bool HasValue(const std::vector<std::string>& values, const std::string& v) {
  return std::find(values.begin(), values.end(), v) != values.end();
}

void SortByKey(std::vector<Requirement>& requirements) {
  std::stable_sort(requirements.begin(), requirements.end(),
                   [](const Requirement& a, const Requirement& b) { return a.key() < b.key(); });
}

}  // namespace

// Implemented in selector_parse.cc: the lexer and recursive-descent parser of labels.Parse.
Result<std::vector<Requirement>> ParseLabelRequirements(std::string_view text);

std::string_view OperatorName(SelectionOperator op) {
  switch (op) {
    case Op::kDoesNotExist:
      return "!";
    case Op::kEquals:
      return "=";
    case Op::kDoubleEquals:
      return "==";
    case Op::kIn:
      return "in";
    case Op::kNotEquals:
      return "!=";
    case Op::kNotIn:
      return "notin";
    case Op::kExists:
      return "exists";
    case Op::kGreaterThan:
      return "gt";
    case Op::kLessThan:
      return "lt";
  }
  return "";
}

Result<Requirement> Requirement::Make(std::string key, SelectionOperator op,
                                      std::vector<std::string> values) {
  std::vector<std::string> errs;
  if (auto key_errs = IsQualifiedName(key); !key_errs.empty()) {
    errs.push_back(InvalidText("key", GoQuote(key), JoinErrors(key_errs)));
  }
  const std::string shown = GoStringSlice(values, EmptySlice::kNil);
  switch (op) {
    case Op::kIn:
    case Op::kNotIn:
      if (values.empty()) {
        errs.push_back(
            InvalidText("values", shown, "for 'in', 'notin' operators, values set can't be empty"));
      }
      break;
    case Op::kEquals:
    case Op::kDoubleEquals:
    case Op::kNotEquals:
      if (values.size() != 1) {
        errs.push_back(
            InvalidText("values", shown, "exact-match compatibility requires one single value"));
      }
      break;
    case Op::kExists:
    case Op::kDoesNotExist:
      if (!values.empty()) {
        errs.push_back(
            InvalidText("values", shown, "values set must be empty for exists and does not exist"));
      }
      break;
    case Op::kGreaterThan:
    case Op::kLessThan:
      if (values.size() != 1) {
        errs.push_back(InvalidText("values", shown,
                                   "for 'Gt', 'Lt' operators, exactly one value is required"));
      }
      for (std::size_t i = 0; i < values.size(); ++i) {
        if (!GoAtoi(values[i]).ok()) {
          errs.push_back(InvalidText("values[" + std::to_string(i) + "]", GoQuote(values[i]),
                                     "for 'Gt', 'Lt' operators, the value must be an integer"));
        }
      }
      break;
  }
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (auto value_errs = IsValidLabelValue(values[i]); !value_errs.empty()) {
      errs.push_back(InvalidText("values[" + std::to_string(i) + "][" + key + "]",
                                 GoQuote(values[i]), JoinErrors(value_errs)));
    }
  }
  if (!errs.empty()) return Status::BadRequest(Aggregate(errs));
  return Requirement(std::move(key), op, std::move(values));
}

bool Requirement::Matches(const StringMap& labels) const {
  const auto it = labels.find(key_);
  const bool present = it != labels.end();
  switch (op_) {
    case Op::kIn:
    case Op::kEquals:
    case Op::kDoubleEquals:
      return present && HasValue(values_, it->second);
    case Op::kNotIn:
    case Op::kNotEquals:
      return !present || !HasValue(values_, it->second);
    case Op::kExists:
      return present;
    case Op::kDoesNotExist:
      return !present;
    case Op::kGreaterThan:
    case Op::kLessThan: {
      if (!present || values_.size() != 1) return false;
      auto label_value = GoAtoi(it->second);
      auto bound = GoAtoi(values_[0]);
      if (!label_value.ok() || !bound.ok()) return false;
      return op_ == Op::kGreaterThan ? *label_value > *bound : *label_value < *bound;
    }
  }
  return false;
}

std::string Requirement::String() const {
  std::string out = op_ == Op::kDoesNotExist ? "!" + key_ : key_;
  switch (op_) {
    case Op::kEquals:
      out += "=";
      break;
    case Op::kDoubleEquals:
      out += "==";
      break;
    case Op::kNotEquals:
      out += "!=";
      break;
    case Op::kIn:
      out += " in (";
      break;
    case Op::kNotIn:
      out += " notin (";
      break;
    case Op::kGreaterThan:
      out += ">";
      break;
    case Op::kLessThan:
      out += "<";
      break;
    case Op::kExists:
    case Op::kDoesNotExist:
      return out;
  }
  std::vector<std::string> sorted = values_;
  std::sort(sorted.begin(), sorted.end());
  for (std::size_t i = 0; i < sorted.size(); ++i) out += (i > 0 ? "," : "") + sorted[i];
  if (op_ == Op::kIn || op_ == Op::kNotIn) out += ")";
  return out;
}

Selector Selector::Nothing() {
  Selector s;
  s.nothing_ = true;
  return s;
}

Result<Selector> Selector::Parse(std::string_view text) {
  ASSIGN_OR_RETURN(std::vector<Requirement> requirements, ParseLabelRequirements(text));
  SortByKey(requirements);
  Selector s;
  s.requirements_ = std::move(requirements);
  return s;
}

Result<Selector> Selector::FromLabelSelector(const LabelSelector* selector) {
  if (selector == nullptr) return Nothing();
  Selector s;
  for (const auto& [key, value] : selector->match_labels) {
    ASSIGN_OR_RETURN(Requirement r, Requirement::Make(key, Op::kEquals, {value}));
    s.requirements_.push_back(std::move(r));
  }
  for (const auto& expr : selector->match_expressions) {
    Op op;
    if (expr.operator_ == "In") {
      op = Op::kIn;
    } else if (expr.operator_ == "NotIn") {
      op = Op::kNotIn;
    } else if (expr.operator_ == "Exists") {
      op = Op::kExists;
    } else if (expr.operator_ == "DoesNotExist") {
      op = Op::kDoesNotExist;
    } else {
      return Status::BadRequest(GoQuote(expr.operator_) +
                                " is not a valid label selector operator");
    }
    ASSIGN_OR_RETURN(Requirement r, Requirement::Make(expr.key, op, expr.values));
    s.requirements_.push_back(std::move(r));
  }
  SortByKey(s.requirements_);
  return s;
}

Selector Selector::FromSet(const StringMap& labels) {
  Selector s;
  for (const auto& [key, value] : labels) {
    s.requirements_.push_back(Requirement(key, Op::kEquals, {value}));
  }
  return s;  // std::map iteration is already in key order.
}

Selector Selector::Add(Requirement requirement) const {
  Selector s = *this;
  s.requirements_.push_back(std::move(requirement));
  SortByKey(s.requirements_);
  return s;
}

bool Selector::Matches(const StringMap& labels) const {
  if (nothing_) return false;
  return std::all_of(requirements_.begin(), requirements_.end(),
                     [&](const Requirement& r) { return r.Matches(labels); });
}

std::string Selector::String() const {
  std::string out;
  for (std::size_t i = 0; i < requirements_.size(); ++i) {
    out += (i > 0 ? "," : "") + requirements_[i].String();
  }
  return out;
}

std::optional<std::string> Selector::RequiresExactMatch(std::string_view key) const {
  for (const auto& r : requirements_) {
    if (r.key() != key) continue;
    const bool exact = r.op() == Op::kEquals || r.op() == Op::kDoubleEquals || r.op() == Op::kIn;
    if (exact && r.values().size() == 1) return r.values()[0];
    return std::nullopt;
  }
  return std::nullopt;
}

}  // namespace lws::api
