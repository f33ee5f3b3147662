// File: apiserver/admission.cc
#include "apiserver/admission.h"

namespace lws::apiserver {

Status AdmissionChain::Run(AdmissionRequest& request) const {
  for (const auto& plugin : plugins_) {
    if (!plugin->Handles(*request.resource, request.subresource)) continue;
    RETURN_IF_ERROR(plugin->Mutate(request));
  }
  for (const auto& plugin : plugins_) {
    if (!plugin->Handles(*request.resource, request.subresource)) continue;
    RETURN_IF_ERROR(plugin->Validate(request));
  }
  return Status::Ok();
}

}  // namespace lws::apiserver
