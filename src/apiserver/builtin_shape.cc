// File: apiserver/builtin_shape.cc
#include "apiserver/builtin_shape.h"

#include "api/protobuf/json_proto.h"
#include "api/protobuf/kube_types.h"

namespace lws::apiserver {

Status CheckBuiltinShape(const api::ResourceInfo& resource, const api::Json& object) {
  const auto& types = api::protobuf::KubeTypes::Get();
  const auto* type = types.Find(resource.ApiVersion(), resource.kind);
  if (type == nullptr) return Status::Ok();
  std::unique_ptr<google::protobuf::Message> message = types.New(type);
  Status status = api::protobuf::JsonToMessage(object, message.get());
  if (status.ok()) return status;
  return Status::BadRequest(resource.kind + " in version " + api::GoQuote(resource.version) +
                            " cannot be handled as a " + resource.kind + ": " + status.message());
}

}  // namespace lws::apiserver
