// File: api/selector.h
//
// Label selectors as k8s.io/apimachinery/pkg/labels: the string grammar kubectl sends in
// `?labelSelector=` ("app=web,tier in (a,b),!canary,gen>3"), the typed metav1.LabelSelector of
// object specs, and matching against a label map. Field selectors live in field_selector.h.
//
// Invariants, as upstream:
//   1. A Selector is an AND of Requirements sorted by key (stable, so requirements on one key
//      keep their written order). String() prints them in that order, each value set sorted, so
//      Parse(String()) gives the same String().
//   2. The empty selector matches everything; Nothing() matches nothing. A nil LabelSelector
//      converts to Nothing(), an empty one to Everything().
//   3. Parse and FromLabelSelector validate keys and values with upstream's messages and report
//      failures as BadRequest.
//
// Immutable value type.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "api/meta.h"
#include "base/result.h"

namespace lws::api {

// selection.Operator.
enum class SelectionOperator {
  kDoesNotExist,  // "!"
  kEquals,        // "="
  kDoubleEquals,  // "=="
  kIn,            // "in"
  kNotEquals,     // "!="
  kNotIn,         // "notin"
  kExists,        // "exists"
  kGreaterThan,   // "gt"
  kLessThan,      // "lt"
};

// The selection.Operator string: "!", "=", "==", "in", "!=", "notin", "exists", "gt", "lt".
std::string_view OperatorName(SelectionOperator op);

// One term of a selector: a key, an operator and the values it relates.
class Requirement {
 public:
  // labels.NewRequirement: validates the key, the value count for the operator, integer values
  // for gt/lt, and every value as a label value. The error message is the aggregate of field
  // errors upstream prints ("values[0][app]: Invalid value: ...").
  static Result<Requirement> Make(std::string key, SelectionOperator op,
                                  std::vector<std::string> values);

  // Requirement.Matches: e.g. notin and != also match when the key is absent; gt/lt need an
  // integer label value.
  bool Matches(const StringMap& labels) const;
  // "key in (a,b)", "!key", "key>3".
  std::string String() const;

  const std::string& key() const { return key_; }
  SelectionOperator op() const { return op_; }
  const std::vector<std::string>& values() const { return values_; }
  bool operator==(const Requirement&) const = default;

 private:
  friend class Selector;  // FromSet builds unvalidated requirements, as upstream does.
  Requirement(std::string key, SelectionOperator op, std::vector<std::string> values)
      : key_(std::move(key)), op_(op), values_(std::move(values)) {}
  std::string key_;
  SelectionOperator op_ = SelectionOperator::kExists;
  std::vector<std::string> values_;
};

class Selector {
 public:
  // The selector that matches everything (labels.Everything()).
  Selector() = default;
  static Selector Everything() { return Selector(); }
  // The selector that matches nothing (labels.Nothing()).
  static Selector Nothing();

  // labels.Parse; errors are BadRequest with upstream's message, e.g.
  // "unable to parse requirement: found '', expected: in, notin, =, ==, !=, gt, lt".
  static Result<Selector> Parse(std::string_view text);
  // metav1.LabelSelectorAsSelector: nullptr is Nothing(), no terms is Everything().
  static Result<Selector> FromLabelSelector(const LabelSelector* selector);
  // labels.SelectorFromSet: key=value for every entry, without validation.
  static Selector FromSet(const StringMap& labels);

  // A copy with `requirement` added in key order (Selector.Add).
  Selector Add(Requirement requirement) const;

  bool Matches(const StringMap& labels) const;
  // True iff the selector does not restrict (Everything(), or parsed from "").
  bool Empty() const { return !nothing_ && requirements_.empty(); }
  bool MatchesNothing() const { return nothing_; }
  // Comma-separated requirements; "" for Everything() and Nothing().
  std::string String() const;
  const std::vector<Requirement>& requirements() const { return requirements_; }
  // The single value this selector requires `key` to have (=, == or in with one value), if any.
  std::optional<std::string> RequiresExactMatch(std::string_view key) const;

  bool operator==(const Selector&) const = default;

 private:
  std::vector<Requirement> requirements_;
  bool nothing_ = false;
};

}  // namespace lws::api
