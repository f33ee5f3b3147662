// File: admission/admission.cc
#include "admission/admission.h"

#include "base/assert.h"

namespace lws::admission {

std::string_view OperationName(AdmissionOperation operation) {
  switch (operation) {
    case AdmissionOperation::kCreate:
      return "CREATE";
    case AdmissionOperation::kUpdate:
      return "UPDATE";
    case AdmissionOperation::kDelete:
      return "DELETE";
  }
  return "";
}

const api::ResourceInfo& BuiltinResource(const std::string& group, const std::string& resource) {
  static const api::ResourceRegistry registry = api::ResourceRegistry::WithBuiltins();
  const api::ResourceInfo* info = registry.Find(group, "v1", resource);
  LWS_ASSERT(info != nullptr, "built-in resource " + resource + " missing");
  return *info;
}

Status AdmissionChain::Run(AdmissionRequest& request) const {
  RETURN_IF_ERROR(RunMutating(request));
  return RunValidating(request);
}

Status AdmissionChain::RunMutating(AdmissionRequest& request) const {
  for (const auto& plugin : plugins_) {
    if (!plugin->Handles(*request.resource, request.subresource)) continue;
    Status mutated = plugin->Mutate(request);
    request.typed_object.Forget();
    RETURN_IF_ERROR(mutated);
  }
  return Status::Ok();
}

Status AdmissionChain::RunValidating(const AdmissionRequest& request) const {
  // The server defaults and prunes the object again between the phases.
  request.typed_object.Forget();
  for (const auto& plugin : plugins_) {
    if (!plugin->Handles(*request.resource, request.subresource)) continue;
    RETURN_IF_ERROR(plugin->Validate(request));
  }
  return Status::Ok();
}

bool AdmissionChain::Handles(const api::ResourceInfo& resource,
                             std::string_view subresource) const {
  for (const auto& plugin : plugins_) {
    if (plugin->Handles(resource, subresource)) return true;
  }
  return false;
}

}  // namespace lws::admission
