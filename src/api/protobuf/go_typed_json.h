// File: api/protobuf/go_typed_json.h
//
// The bytes Go's encoding/json.Marshal writes for a typed Kubernetes value: the JSON of an object
// is decoded into its Go struct (corev1.PodTemplateSpec, ...) and that struct is marshalled again.
// Upstream controllers hash such bytes to name what they create (DisaggregatedSet: SHA-256 of
// json.Marshal of a struct that holds PodTemplateSpecs), so the rules are those of a Go struct,
// not of a map (api/go_json.h marshals a decoded interface{}):
//   1. Fields come in Go declaration order, which is the order of the .proto files; a struct
//      embedded with `json:",inline"` (Probe's handler) is written in place, flattened.
//   2. `omitempty` leaves out a zero scalar and a nil or empty slice or map. A field without it is
//      always written: a scalar even when zero, a nil slice, map or pointer as null.
//   3. A pointer field is written when set, zero included. A struct field is always written, as
//      omitempty never omits a struct: "metadata":{}, "resources":{}, a zero Time as null.
//   4. Map keys are sorted; integers print as integers; strings are escaped as Go escapes them
//      (`<`, `>` and `&` as \u003c, \u003e, \u0026).
//   5. Special types print as their MarshalJSON does: a Quantity in canonical form ("1000m" is
//      "1"), a Time in RFC 3339 seconds or null, a MicroTime with microseconds, a Duration as Go
//      prints it ("1m30s"), an IntOrString as a number or a string.
// Which fields are pointers, structs or without omitempty comes from KubeTypes (proto/go_*.txt).
// Fields the Go type does not have are dropped, as Go's decoder drops them; a key must match its
// field's name exactly, upper and lower case included, as in Kubernetes' decoder
// (sigs.k8s.io/json; encoding/json alone would also take "Name" for "name").
//
// Known differences from Go, all outside what controllers hash: raw JSON (RawExtension, FieldsV1,
// apiextensions JSON) is written with sorted keys and float64 numbers, where Go copies the input
// text; a Quantity given as a JSON number is read from its value, so 1e3 prints "1k" where Go
// keeps the exponent form ("1e3"); a float32 field prints with float64 digits.
//
// Stateless; safe to call from any thread.
#pragma once

#include <google/protobuf/descriptor.h>

#include <string>
#include <string_view>

#include "api/field.h"
#include "base/result.h"

namespace lws::api::protobuf {

// json.Marshal of the Go value of type `message_full_name` ("k8s.io.api.core.v1.PodTemplateSpec")
// that `object` decodes into. BadRequest, worded as JsonToMessage words it, when a value does not
// fit its field; NotFound for an unknown type.
Result<std::string> MarshalGoTyped(const Json& object, std::string_view message_full_name);

// The same for a top-level object whose apiVersion and kind name its type: every kind's Go struct
// embeds metav1.TypeMeta first, so "kind" and "apiVersion" lead (each left out when empty).
Result<std::string> MarshalGoTypedObject(const Json& object);

// Appends json.Marshal of one value of `type` to `out`, for a caller that writes a larger Go value
// around it (a struct of its own holding PodTemplateSpecs). JSON null is the zero value. On error
// `out` is left as it was.
Status AppendGoTyped(const Json& object, const google::protobuf::Descriptor* type,
                     std::string* out);

}  // namespace lws::api::protobuf
