// File: api/protobuf/kube_types.cc
#include "api/protobuf/kube_types.h"

#include <google/protobuf/descriptor.pb.h>
#include <google/protobuf/stubs/logging.h>
#include <spdlog/spdlog.h>

#include <cstdlib>
#include <map>
#include <sstream>

// Defined in the generated k8s_proto_data.S.
extern "C" const char lws_k8s_descriptors_begin[];
extern "C" const char lws_k8s_descriptors_end[];
extern "C" const char lws_go_pointer_fields_begin[];
extern "C" const char lws_go_pointer_fields_end[];
extern "C" const char lws_go_inline_fields_begin[];
extern "C" const char lws_go_inline_fields_end[];
extern "C" const char lws_go_always_fields_begin[];
extern "C" const char lws_go_always_fields_end[];
extern "C" const char lws_go_struct_fields_begin[];
extern "C" const char lws_go_struct_fields_end[];
extern "C" const char lws_json_names_begin[];
extern "C" const char lws_json_names_end[];

namespace lws::api::protobuf {

namespace {

constexpr std::string_view kMeta = "k8s.io.apimachinery.pkg.apis.meta.v1";

// By full name; the constructor resolves them to descriptors once.
constexpr std::pair<const char*, Special> kSpecialMessages[] = {
    {"k8s.io.apimachinery.pkg.apis.meta.v1.Time", Special::kTime},
    {"k8s.io.apimachinery.pkg.apis.meta.v1.MicroTime", Special::kMicroTime},
    {"k8s.io.apimachinery.pkg.apis.meta.v1.Duration", Special::kDuration},
    {"k8s.io.apimachinery.pkg.apis.meta.v1.FieldsV1", Special::kFieldsV1},
    {"k8s.io.apimachinery.pkg.apis.meta.v1.Verbs", Special::kStringList},
    {"k8s.io.apimachinery.pkg.runtime.RawExtension", Special::kRawExtension},
    {"k8s.io.apimachinery.pkg.util.intstr.IntOrString", Special::kIntOrString},
    {"k8s.io.apimachinery.pkg.api.resource.Quantity", Special::kQuantity},
    {"k8s.io.api.authentication.v1.ExtraValue", Special::kStringList},
    {"k8s.io.api.authorization.v1.ExtraValue", Special::kStringList},
    {"k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.JSON", Special::kRawJson},
    {"k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrArray",
     Special::kSchemaOrArray},
    {"k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrBool",
     Special::kSchemaOrBool},
    {"k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrStringArray",
     Special::kSchemaOrStrings},
};

// The build embeds a descriptor set compiled from the repository's own files: failing to read it
// is a build defect, not an input error.
[[noreturn]] void Corrupt(const std::string& what) {
  spdlog::critical("embedded Kubernetes protobuf descriptors: {}", what);
  std::abort();
}

}  // namespace

std::string PackageOf(std::string_view group, std::string_view version) {
  std::string v(version);
  if (group.empty()) return "k8s.io.api.core." + v;
  if (group == "meta.k8s.io") return std::string(kMeta.substr(0, kMeta.size() - 2)) + v;
  if (group == "apiextensions.k8s.io") {
    return "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions." + v;
  }
  std::string name(group);
  if (name == "rbac.authorization.k8s.io") name = "rbac";
  const std::string suffix = ".k8s.io";
  if (name.size() > suffix.size() &&
      name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0) {
    name.resize(name.size() - suffix.size());
  }
  return "k8s.io.api." + name + "." + v;
}

KubeTypes::KubeTypes() {
  // libprotobuf logs every string field that is not UTF-8 as an ERROR; a client's bad bytes are
  // answered with a BadRequest (proto_json.cc), so its log lines go to the debug level.
  pb::SetLogHandler([](pb::LogLevel level, const char* file, int line, const std::string& message) {
    if (level >= pb::LOGLEVEL_FATAL) spdlog::critical("libprotobuf {}:{}: {}", file, line, message);
    spdlog::debug("libprotobuf {}:{}: {}", file, line, message);
  });
  pb::FileDescriptorSet set;
  if (!set.ParseFromArray(lws_k8s_descriptors_begin,
                          static_cast<int>(lws_k8s_descriptors_end - lws_k8s_descriptors_begin))) {
    Corrupt("the descriptor set does not parse");
  }
  for (const pb::FileDescriptorProto& file : set.file()) {
    if (pool_.BuildFile(file) == nullptr) Corrupt("cannot build " + file.name());
  }
  for (const auto& [name, special] : kSpecialMessages) {
    const pb::Descriptor* message = pool_.FindMessageTypeByName(name);
    if (message == nullptr) Corrupt(std::string("no special message ") + name);
    specials_[message] = special;
  }
  pointers_ =
      ReadFieldList(lws_go_pointer_fields_begin, lws_go_pointer_fields_end, "go_pointer_fields");
  inline_ = ReadFieldList(lws_go_inline_fields_begin, lws_go_inline_fields_end, "go_inline_fields");
  always_ = ReadFieldList(lws_go_always_fields_begin, lws_go_always_fields_end, "go_always_fields");
  structs_ =
      ReadFieldList(lws_go_struct_fields_begin, lws_go_struct_fields_end, "go_struct_fields");
  std::istringstream names(std::string(lws_json_names_begin, lws_json_names_end));
  for (std::string field_name, json_name; names >> field_name;) {
    if (field_name[0] == '#') {
      std::getline(names, field_name);
      continue;
    }
    names >> json_name;
    const pb::FieldDescriptor* field = pool_.FindFieldByName(field_name);
    if (field == nullptr) Corrupt("json_names.txt names an unknown field " + field_name);
    json_names_[field] = json_name;
    by_json_name_[{field->containing_type(), json_name}] = field;
  }
}

KubeTypes::FieldSet KubeTypes::ReadFieldList(const char* begin, const char* end,
                                             const char* file) const {
  FieldSet fields;
  std::istringstream lines(std::string(begin, end));
  for (std::string line; std::getline(lines, line);) {
    if (line.empty() || line[0] == '#') continue;
    const pb::FieldDescriptor* field = pool_.FindFieldByName(line);
    if (field == nullptr) Corrupt(std::string(file) + ".txt names an unknown field " + line);
    fields.insert(field);
  }
  return fields;
}

const KubeTypes& KubeTypes::Get() {
  static const KubeTypes* types = new KubeTypes();
  return *types;
}

const pb::Descriptor* KubeTypes::Find(std::string_view api_version, std::string_view kind) const {
  std::string_view group, version = api_version;
  if (std::size_t slash = api_version.find('/'); slash != std::string_view::npos) {
    group = api_version.substr(0, slash);
    version = api_version.substr(slash + 1);
  }
  if (version.empty() || kind.empty()) return nullptr;
  const std::string k(kind);
  if (const pb::Descriptor* own =
          pool_.FindMessageTypeByName(PackageOf(group, version) + "." + k)) {
    return own;
  }
  if (version != "v1") return nullptr;
  for (const char* meta_kind : {"Status", "DeleteOptions", "WatchEvent", "APIResourceList",
                                "APIGroupList", "APIGroup", "APIVersions"}) {
    if (k == meta_kind) return pool_.FindMessageTypeByName(std::string(kMeta) + "." + k);
  }
  return nullptr;
}

Special KubeTypes::SpecialOf(const pb::Descriptor* message) const {
  auto it = specials_.find(message);
  return it == specials_.end() ? Special::kNone : it->second;
}

bool KubeTypes::IsGoPointer(const pb::FieldDescriptor* field) const {
  return pointers_.count(field) > 0;
}

bool KubeTypes::IsInline(const pb::FieldDescriptor* field) const {
  return inline_.count(field) > 0;
}

bool KubeTypes::IsAlwaysWritten(const pb::FieldDescriptor* field) const {
  return always_.count(field) > 0;
}

bool KubeTypes::IsGoStruct(const pb::FieldDescriptor* field) const {
  return structs_.count(field) > 0;
}

const std::string& KubeTypes::JsonName(const pb::FieldDescriptor* field) const {
  auto it = json_names_.find(field);
  return it == json_names_.end() ? field->name() : it->second;
}

const pb::FieldDescriptor* KubeTypes::FieldByJsonName(const pb::Descriptor* message,
                                                      const std::string& name) const {
  if (auto it = by_json_name_.find({message, name}); it != by_json_name_.end()) return it->second;
  const pb::FieldDescriptor* field = message->FindFieldByName(name);
  // A field renamed in JSON answers only to its JSON name.
  return field != nullptr && json_names_.count(field) == 0 ? field : nullptr;
}

std::unique_ptr<pb::Message> KubeTypes::New(const pb::Descriptor* type) const {
  return std::unique_ptr<pb::Message>(factory_.GetPrototype(type)->New());
}

std::string KubeTypes::GoTypeName(const pb::Descriptor* message) {
  const std::string& package = message->file()->package();
  std::size_t dot = package.rfind('.');
  return (dot == std::string::npos ? package : package.substr(dot + 1)) + "." + message->name();
}

}  // namespace lws::api::protobuf
