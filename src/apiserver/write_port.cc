// File: apiserver/write_port.cc
//
// ApiServer::Write: a typed WriteCall becomes the ApiRequest the handlers read, with the
// request's resource, options and body as values, and goes down the same RequestHandler as an
// HTTP request; the answer is the stored object or the Status, never bytes.
#include <string>
#include <utility>

#include "admission/user_info.h"
#include "api/resource_path.h"
#include "apiserver/api_server.h"
#include "apiserver/request_handler.h"
#include "store/document_object.h"

namespace lws::apiserver {
namespace {

const char* MethodOf(WriteVerb verb) {
  switch (verb) {
    case WriteVerb::kCreate:
      return "POST";
    case WriteVerb::kUpdate:
      return "PUT";
    case WriteVerb::kPatch:
      return "PATCH";
    case WriteVerb::kDelete:
      return "DELETE";
  }
  return "POST";
}

// The target an HTTP client would have sent; its path is for logs and the authorizer.
RequestTarget TargetOf(const WriteCall& call) {
  RequestTarget target;
  target.kind = TargetKind::kResource;
  target.path = api::ResourcePath(call.group, call.version, call.namespace_, call.resource,
                                  call.name, call.subresource);
  target.group = call.group;
  target.version = call.version;
  target.namespace_ = call.namespace_;
  target.resource = call.resource;
  target.name = call.name;
  target.subresource = call.subresource;
  return target;
}

}  // namespace

Result<store::ObjectPtr> ApiServer::Write(WriteCall call) {
  ApiRequest request;
  request.method = MethodOf(call.verb);
  request.target = TargetOf(call);
  request.options.dry_run = call.dry_run;
  if (call.verb == WriteVerb::kPatch) {
    request.content_type = std::string(api::PatchContentType(call.patch_type));
    if (call.patch_type == api::PatchType::kApply) {
      request.options.field_manager = call.field_manager;
      request.options.force = true;
    }
  } else {
    request.content_type = "application/json";
  }
  request.default_field_manager = call.field_manager;
  request.body_value = &call.body;
  request.in_process = true;
  request.log_target = request.target.path;

  admission::UserInfo user = call.user != nullptr ? *call.user : admission::AdminUser();
  // The administrator may do anything (system:masters): only a named user is authorized.
  if (call.user != nullptr) {
    if (std::optional<Json> refused = Refusal(request.method, request.target, user, nullptr)) {
      return store::StatusFromDocument(403, *refused);
    }
  }
  if (!AddressesEventsV1(request.target)) {
    return RequestHandler(this, request, served(), std::move(user)).RunWrite();
  }
  return PortAnswer(HandleEventsV1(request, user), request);
}

std::shared_ptr<const api::ResourceInfo> ApiServer::Served(const std::string& group,
                                                           const std::string& version,
                                                           const std::string& resource) const {
  std::shared_ptr<const ServedResources> snapshot = served();
  const api::ResourceInfo* info = snapshot->registry.Find(group, version, resource);
  if (info == nullptr) return nullptr;
  return std::shared_ptr<const api::ResourceInfo>(std::move(snapshot),
                                                  info);  // shares the snapshot
}

std::shared_ptr<const api::ResourceRegistry> ApiServer::ServedRegistry() const {
  std::shared_ptr<const ServedResources> snapshot = served();
  const api::ResourceRegistry* registry = &snapshot->registry;
  return std::shared_ptr<const api::ResourceRegistry>(std::move(snapshot), registry);
}

}  // namespace lws::apiserver
