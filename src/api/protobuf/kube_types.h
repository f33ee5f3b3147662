// File: api/protobuf/kube_types.h
//
// The message types of Kubernetes' built-in kinds, as the protobuf wire format defines them
// (proto/ holds the definitions, with Kubernetes' message and field numbers). Built once, on first
// use, from the descriptor set protoc compiled at build time; read-only afterwards, so every
// thread may share it.
//
// Kubernetes' JSON and its protobuf differ in a few places that the codecs (proto_json.h,
// json_proto.h) must know about, and this is where they are named:
//   - Special messages whose JSON is a scalar or raw JSON (Time, Quantity, IntOrString, ...).
//   - Go pointer fields: client-go writes every non-pointer scalar even when zero, so only a
//     pointer field's zero means "set" (replicas: 0, gracePeriodSeconds: 0).
//   - Go struct fields: a message field whose Go type is a struct, not a pointer, is written by
//     encoding/json even when empty ("metadata":{}); the rest are pointers, left out when nil.
//   - Inline fields: a Go struct embedded with `json:",inline"` (Probe's handler, Volume's source)
//     is a message field in protobuf and flattened into its parent in JSON.
#pragma once

#include <google/protobuf/descriptor.h>
#include <google/protobuf/dynamic_message.h>

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>

namespace lws::api::protobuf {

namespace pb = google::protobuf;

// A message whose JSON form is not an object of its fields.
enum class Special {
  kNone,
  kTime,            // meta/v1 Time: RFC 3339 seconds, null when zero
  kMicroTime,       // meta/v1 MicroTime: RFC 3339 with microseconds
  kDuration,        // meta/v1 Duration: Go duration text ("1h0m0s")
  kFieldsV1,        // meta/v1 FieldsV1: raw JSON
  kRawExtension,    // runtime RawExtension: raw JSON
  kIntOrString,     // util/intstr IntOrString: a number or a string
  kQuantity,        // api/resource Quantity: a string
  kRawJson,         // apiextensions/v1 JSON: raw JSON
  kStringList,      // ExtraValue, Verbs: a list of strings
  kSchemaOrArray,   // JSONSchemaPropsOrArray: a schema or a list of schemas
  kSchemaOrBool,    // JSONSchemaPropsOrBool: a boolean or a schema
  kSchemaOrStrings  // JSONSchemaPropsOrStringArray: a schema or a list of strings
};

class KubeTypes {
 public:
  // The one instance; built on first use (thread-safe).
  static const KubeTypes& Get();

  // The message of a kind ("apps/v1", "StatefulSet"), or of a list kind ("PodList"); the
  // meta/v1 kinds every group serves (Status, DeleteOptions, WatchEvent) for any apiVersion.
  // nullptr when the kind has no protobuf form (custom resources, Table).
  const pb::Descriptor* Find(std::string_view api_version, std::string_view kind) const;

  Special SpecialOf(const pb::Descriptor* message) const;
  bool IsGoPointer(const pb::FieldDescriptor* field) const;
  bool IsInline(const pb::FieldDescriptor* field) const;
  // A field without `omitempty` that is not a struct: Go writes a scalar even when zero, and a
  // slice, map or pointer as null when nil.
  bool IsAlwaysWritten(const pb::FieldDescriptor* field) const;
  // A message field whose Go type is a struct (not a pointer to one): Go writes it even when
  // empty, as omitempty never omits a struct. Listed for core/v1 and meta/v1 only.
  bool IsGoStruct(const pb::FieldDescriptor* field) const;

  // The field's name in JSON ("$ref" for JSONSchemaProps' `ref`), and the field of that name.
  const std::string& JsonName(const pb::FieldDescriptor* field) const;
  const pb::FieldDescriptor* FieldByJsonName(const pb::Descriptor* message,
                                             const std::string& name) const;

  // A new, empty message of `type` (owned by the caller).
  std::unique_ptr<pb::Message> New(const pb::Descriptor* type) const;

  // The Go name of a message's type as encoding/json reports it: "v1.PodSpec".
  static std::string GoTypeName(const pb::Descriptor* message);

  const pb::DescriptorPool& pool() const { return pool_; }

 private:
  KubeTypes();

  pb::DescriptorPool pool_;
  mutable pb::DynamicMessageFactory factory_;
  using FieldSet = std::unordered_set<const pb::FieldDescriptor*>;
  FieldSet ReadFieldList(const char* begin, const char* end, const char* file) const;

  std::unordered_map<const pb::Descriptor*, Special> specials_;
  FieldSet pointers_;
  FieldSet inline_;
  FieldSet always_;
  FieldSet structs_;
  std::unordered_map<const pb::FieldDescriptor*, std::string> json_names_;
  std::map<std::pair<const pb::Descriptor*, std::string>, const pb::FieldDescriptor*> by_json_name_;
};

// The protobuf package of an API group and version: "" and "v1" is "k8s.io.api.core.v1".
std::string PackageOf(std::string_view group, std::string_view version);

}  // namespace lws::api::protobuf
