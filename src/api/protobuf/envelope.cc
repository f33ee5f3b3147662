// File: api/protobuf/envelope.cc
#include "api/protobuf/envelope.h"

#include "api/protobuf/json_proto.h"
#include "api/protobuf/kube_types.h"
#include "api/protobuf/proto_json.h"

namespace lws::api::protobuf {

namespace {

constexpr std::string_view kMagic("k8s\0", 4);

const pb::Descriptor* Unknown() {
  static const pb::Descriptor* unknown =
      KubeTypes::Get().pool().FindMessageTypeByName("k8s.io.apimachinery.pkg.runtime.Unknown");
  return unknown;
}

const pb::FieldDescriptor* Field(const pb::Descriptor* type, const char* name) {
  return type->FindFieldByName(name);
}

std::string Serialize(const pb::Message& m) {
  std::string out;
  m.SerializeToString(&out);
  return out;
}

}  // namespace

bool HasProtobuf(std::string_view api_version, std::string_view kind) {
  return KubeTypes::Get().Find(api_version, kind) != nullptr;
}

Result<std::string> EncodeObject(const Json& object) {
  const std::string api_version = object.value("apiVersion", "");
  const std::string kind = object.value("kind", "");
  const KubeTypes& types = KubeTypes::Get();
  const pb::Descriptor* type = types.Find(api_version, kind);
  if (type == nullptr) {
    return Status::BadRequest("no protobuf form for kind " + kind + " of " + api_version);
  }
  std::unique_ptr<pb::Message> message = types.New(type);
  RETURN_IF_ERROR(JsonToMessage(object, message.get()));

  std::unique_ptr<pb::Message> unknown = types.New(Unknown());
  const pb::Reflection* r = unknown->GetReflection();
  pb::Message* type_meta = r->MutableMessage(unknown.get(), Field(Unknown(), "typeMeta"));
  const pb::Descriptor* tm = type_meta->GetDescriptor();
  type_meta->GetReflection()->SetString(type_meta, Field(tm, "apiVersion"), api_version);
  type_meta->GetReflection()->SetString(type_meta, Field(tm, "kind"), kind);
  r->SetString(unknown.get(), Field(Unknown(), "raw"), Serialize(*message));
  r->SetString(unknown.get(), Field(Unknown(), "contentEncoding"), "");
  r->SetString(unknown.get(), Field(Unknown(), "contentType"), "");
  return std::string(kMagic) + Serialize(*unknown);
}

Result<Json> DecodeObject(std::string_view bytes) {
  if (bytes.substr(0, kMagic.size()) != kMagic) {
    return Status::BadRequest(
        "provided data does not appear to be a protobuf message, expected prefix [107 56 115 0]");
  }
  bytes.remove_prefix(kMagic.size());
  const KubeTypes& types = KubeTypes::Get();
  std::unique_ptr<pb::Message> unknown = types.New(Unknown());
  if (!unknown->ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
    return Status::BadRequest("the protobuf envelope (runtime.Unknown) does not parse");
  }
  const pb::Reflection* r = unknown->GetReflection();
  const pb::Message& type_meta = r->GetMessage(*unknown, Field(Unknown(), "typeMeta"));
  const pb::Descriptor* tm = type_meta.GetDescriptor();
  const std::string api_version =
      type_meta.GetReflection()->GetString(type_meta, Field(tm, "apiVersion"));
  const std::string kind = type_meta.GetReflection()->GetString(type_meta, Field(tm, "kind"));
  const pb::Descriptor* type = types.Find(api_version, kind);
  if (type == nullptr) {
    // Custom resources have no protobuf form (kube-apiserver refuses them the same way).
    return Status(
        Code::kUnsupportedMediaType,
        "the body of the request was in an unknown format - accepted media types include: "
        "application/json, application/yaml (" +
            kind + " of " + api_version + " has no protobuf form)");
  }
  std::unique_ptr<pb::Message> message = types.New(type);
  const std::string raw = r->GetString(*unknown, Field(Unknown(), "raw"));
  if (!message->ParseFromString(raw)) {
    return Status::BadRequest("the " + kind + " message of the protobuf envelope does not parse");
  }
  ASSIGN_OR_RETURN(Json object, MessageToJson(*message));
  object["apiVersion"] = api_version;
  object["kind"] = kind;
  return object;
}

Result<std::string> EncodeWatchFrame(std::string_view type, const Json& object) {
  ASSIGN_OR_RETURN(std::string inner, EncodeObject(object));
  const KubeTypes& types = KubeTypes::Get();
  const pb::Descriptor* event_type =
      types.pool().FindMessageTypeByName("k8s.io.apimachinery.pkg.apis.meta.v1.WatchEvent");
  std::unique_ptr<pb::Message> event = types.New(event_type);
  const pb::Reflection* r = event->GetReflection();
  r->SetString(event.get(), Field(event_type, "type"), std::string(type));
  pb::Message* raw_ext = r->MutableMessage(event.get(), Field(event_type, "object"));
  raw_ext->GetReflection()->SetString(raw_ext, Field(raw_ext->GetDescriptor(), "raw"),
                                      std::move(inner));
  const std::string body = Serialize(*event);
  const auto n = static_cast<std::uint32_t>(body.size());
  std::string frame = {static_cast<char>(n >> 24), static_cast<char>(n >> 16),
                       static_cast<char>(n >> 8), static_cast<char>(n)};
  return frame + body;
}

}  // namespace lws::api::protobuf
