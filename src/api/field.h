// File: api/field.h
//
// Field paths and field errors with the exact wording of Kubernetes' field package
// (k8s.io/apimachinery/pkg/util/validation/field), so that our validation messages read like the
// real API server's: "spec.replicas: Invalid value: -1: replicas must be equal or greater than 0".
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "api/json_fwd.h"
#include "base/status.h"

namespace lws::api {

// A path into an object: "spec.template.spec.containers[0].env[2].name".
class FieldPath {
 public:
  FieldPath() = default;
  explicit FieldPath(std::string_view root) : path_(root) {}
  FieldPath Child(std::string_view name) const;
  FieldPath Index(std::size_t i) const;
  FieldPath Key(std::string_view key) const;  // map entry: "metadata.labels[app]"
  const std::string& String() const { return path_; }
  bool empty() const { return path_.empty(); }

 private:
  std::string path_;
};

enum class FieldErrorType {
  kNotFound,
  kRequired,
  kDuplicate,
  kInvalid,
  kNotSupported,
  kForbidden,
  kTooLong,
  kTooMany,
  kInternal,
  kTypeInvalid,
};

struct FieldError {
  FieldError() = default;
  FieldError(FieldErrorType type_in, std::string field_in, Json bad_value_in, std::string detail_in)
      : type(type_in),
        field(std::move(field_in)),
        bad_value(std::move(bad_value_in)),
        detail(std::move(detail_in)) {}

  FieldErrorType type = FieldErrorType::kInvalid;
  std::string field;
  Json bad_value;  // Printed as Go prints it: numbers bare, strings quoted, null as "null".
  std::string detail;
  // When set, printed verbatim instead of bad_value: for values Go prints as a struct dump,
  // e.g. `intstr.IntOrString{Type:1, IntVal:0, StrVal:"200%"}`.
  std::string rendered_value;

  // "<field>: <body>" exactly as field.Error.Error().
  std::string Error() const;
  // "Invalid value: -1: detail" exactly as field.Error.ErrorBody().
  std::string Body() const;
  // metav1.CauseType: "FieldValueInvalid", "FieldValueRequired", ...
  std::string_view CauseType() const;
  bool operator==(const FieldError&) const = default;
};

using ErrorList = std::vector<FieldError>;

FieldError Invalid(const FieldPath& path, Json value, std::string detail);
FieldError Required(const FieldPath& path, std::string detail);
FieldError Forbidden(const FieldPath& path, std::string detail);
FieldError NotSupported(const FieldPath& path, Json value, const std::vector<std::string>& valid);
FieldError TooLong(const FieldPath& path, Json value, int max_length);
FieldError TypeInvalid(const FieldPath& path, Json value, std::string detail);
FieldError InternalError(const FieldPath& path, std::string detail);

// "a: x" for one error, "[a: x, b: y]" for several, as utilerrors.Aggregate prints.
std::string AggregateMessage(const ErrorList& errors);

// The 422 Status a Kubernetes API server returns for these errors:
// message `<Kind>.<group> "<name>" is invalid: <aggregate>`, one cause per error.
Status InvalidStatus(std::string_view qualified_kind, std::string_view name,
                     const ErrorList& errors);

// The string member `key` of a JSON object; "" when `object` is not an object or the member is
// missing or not a string. For reading loosely typed documents (CRDs, managedFields).
std::string StringMember(const Json& object, std::string_view key);
// object[key] without copying; a null value when `object` is not an object or has no such key.
const Json& ChildOrNull(const Json& object, std::string_view key);

// Go's %q quoting of a string (used in messages that embed user values).
std::string GoQuote(std::string_view s);

// Go's %#v of a []string, as field errors print a value set: []string{"a", "b"}. An empty slice
// prints as []string(nil) when the Go code passes a nil slice, else as []string{}.
enum class EmptySlice { kNil, kEmpty };
std::string GoStringSlice(const std::vector<std::string>& values, EmptySlice empty);

}  // namespace lws::api
