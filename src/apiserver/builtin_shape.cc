// File: apiserver/builtin_shape.cc
#include "apiserver/builtin_shape.h"

#include "api/protobuf/json_proto.h"
#include "api/protobuf/kube_types.h"
#include "api/protobuf/unknown_fields.h"

namespace lws::apiserver {

Result<std::vector<std::string>> DecodeBuiltin(const api::ResourceInfo& resource,
                                               api::Json* object) {
  const auto& types = api::protobuf::KubeTypes::Get();
  const auto* type = types.Find(resource.ApiVersion(), resource.kind);
  if (type == nullptr) return std::vector<std::string>{};
  std::unique_ptr<google::protobuf::Message> message = types.New(type);
  Status status = api::protobuf::JsonToMessage(*object, message.get());
  if (status.ok()) return api::protobuf::PruneUnknownFields(object, type);
  return Status::BadRequest(resource.kind + " in version " + api::GoQuote(resource.version) +
                            " cannot be handled as a " + resource.kind + ": " + status.message());
}

}  // namespace lws::apiserver
