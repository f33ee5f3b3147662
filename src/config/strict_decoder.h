// File: config/strict_decoder.h
//
// Helpers for decoding a JSON document into C++ structs the way Kubernetes' strict decoder
// (sigs.k8s.io/json with DisallowUnknownFields) decodes into Go structs: every member not known
// to the struct is collected by its full field path, and a value of the wrong JSON type is an
// error worded as Go's json.UnmarshalTypeError, naming the innermost Go struct and the path:
//   json: cannot unmarshal string into Go struct field ControllerWebhook.webhook.port of type int
// A JSON null leaves the field unset, as Go's decoder does for pointers, strings and structs.
// Internal to lws_config; the configuration decoder is its only user.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "api/field.h"
#include "base/clock.h"

namespace lws::config::internal {

// What decoding found wrong; the caller turns it into one Status.
struct DecodeProblems {
  std::vector<std::string> unknown_fields;  // full paths, in document order per object
  std::optional<std::string> first_error;   // Go returns the first type error only

  void Fail(std::string message) {
    if (!first_error) first_error = std::move(message);
  }
};

// One JSON object being decoded into the Go struct `go_struct` found at `path` ("" at the root).
class StructScope {
 public:
  StructScope(DecodeProblems* problems, const api::Json* object, std::string go_struct,
              std::string path)
      : problems_(problems),
        object_(object),
        go_struct_(std::move(go_struct)),
        path_(std::move(path)) {}

  // Records every member not in `known` as an unknown field.
  void CheckKnown(std::initializer_list<std::string_view> known);

  void String(std::string_view key, std::string* out);
  void OptionalString(std::string_view key, std::optional<std::string>* out);
  void OptionalBool(std::string_view key, std::optional<bool>* out);
  // An integer within [min, max]; `go_type` ("int", "int32") names it in errors.
  void OptionalInt(std::string_view key, std::int64_t min, std::int64_t max,
                   std::string_view go_type, std::optional<std::int64_t>* out);
  void OptionalFloat32(std::string_view key, std::optional<float>* out);
  // metav1.Duration: a string in Go's duration syntax.
  void GoDuration(std::string_view key, Duration* out);
  void StringList(std::string_view key, std::vector<std::string>* out);

  // The nested struct at `key` (Go type `go_type`, e.g. "v1alpha1.ControllerWebhook", whose own
  // name is `go_struct`); nullopt when absent, null, or not an object (a type error).
  std::optional<StructScope> Child(std::string_view key, std::string_view go_type,
                                   std::string go_struct);

 private:
  // The member at `key`, or nullptr when absent or null.
  const api::Json* Member(std::string_view key) const;
  std::string PathOf(std::string_view key) const;
  void TypeError(std::string_view value_description, std::string_view key,
                 std::string_view go_type);

  DecodeProblems* problems_;
  const api::Json* object_;
  std::string go_struct_;
  std::string path_;
};

// How Go's decoder names a JSON value in type errors: "string", "number", "bool", "array",
// "object" (a number that did not fit is named with its literal: "number 1.5").
std::string_view JsonKind(const api::Json& value);

}  // namespace lws::config::internal
