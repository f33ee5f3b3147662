// File: api/schema_node.h
//
// The compiled form of one openAPIV3Schema node, shared by the pruning/defaulting code
// (schema.cc) and the validator (schema_validate.cc). Internal to api/.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "api/field.h"
#include "api/schema_cel.h"
#include "api/schema_regex.h"

namespace lws::api {

struct SchemaNode;
using SchemaNodePtr = std::shared_ptr<const SchemaNode>;

struct SchemaNode {
  std::vector<std::string> types;  // {"integer", "string"} for x-kubernetes-int-or-string
  bool nullable = false;
  std::string format;  // "" when absent or not one the server validates

  std::map<std::string, SchemaNodePtr> properties;
  SchemaNodePtr items;
  bool has_additional = false;    // additionalProperties present
  bool additional_allows = true;  // additionalProperties: false -> false
  SchemaNodePtr additional;       // its schema, when it is one

  std::vector<std::string> required;
  std::optional<Json> enum_values;  // array
  std::optional<Json> default_value;

  std::optional<double> maximum, minimum, multiple_of;
  bool exclusive_maximum = false, exclusive_minimum = false;
  std::optional<std::int64_t> max_length, min_length, max_items, min_items, max_properties,
      min_properties;
  bool unique_items = false;
  std::string pattern;
  std::optional<SchemaRegex> regex;
  std::string regex_error;  // Go's compile error for an invalid pattern

  std::vector<SchemaNodePtr> all_of, any_of, one_of;
  SchemaNodePtr not_schema;

  bool preserve_unknown_fields = false;
  bool embedded_resource = false;
  std::string list_type;
  std::vector<std::string> list_map_keys;

  std::vector<CelRule> rules;              // x-kubernetes-validations evaluated here
  std::vector<std::string> rules_skipped;  // "<rule>: <why>" for the entries that are not
  bool rules_below = false;                // rules here or in properties, items, ... or allOf

  bool HasType(std::string_view t) const {
    for (const auto& x : types) {
      if (x == t) return true;
    }
    return false;
  }
  // The schema for key `k` of an object: a property, else additionalProperties' schema.
  const SchemaNode* Field(const std::string& k, bool* known) const;
};

// Validation half (schema_validate.cc).
ErrorList ValidateAgainst(const SchemaNode& root, const Json& obj);

// Formats (schema_format.cc): whether the server validates `format` on strings, and the check.
bool IsKnownStringFormat(std::string_view format);
bool MatchesStringFormat(std::string_view format, const std::string& value);

// Go's json.Marshal of a JSON value (floats as Go writes them), used where the server compares
// or prints marshalled values.
std::string GoJsonMarshal(const Json& v);

}  // namespace lws::api
