// File: controllers/admission/webhook_denial.cc
#include "controllers/admission/webhook_denial.h"

#include <set>
#include <string>

namespace lws::controllers {
namespace {

// field.ErrorList.ToAggregate(): errors with the same message are reported once.
api::ErrorList WithoutRepeats(const api::ErrorList& errors) {
  api::ErrorList out;
  std::set<std::string> seen;
  for (const api::FieldError& e : errors) {
    if (seen.insert(e.Error()).second) out.push_back(e);
  }
  return out;
}

}  // namespace

Status Denied(DenialWording wording, std::string_view webhook, const Status& answer) {
  if (wording == DenialWording::kWebhook) return answer;
  std::string message = "admission webhook \"" + std::string(webhook) + "\" denied the request";
  message += answer.message().empty() ? " without explanation" : ": " + answer.message();
  return Status(answer.code(), std::move(message));
}

Status DeniedByFieldErrors(DenialWording wording, std::string_view webhook,
                           const api::ErrorList& errors) {
  return Denied(wording, webhook,
                Status(Code::kForbidden, api::AggregateMessage(WithoutRepeats(errors))));
}

Status Undecodable(DenialWording wording, std::string_view webhook, const api::ErrorList& errors) {
  return Denied(wording, webhook, Status(Code::kBadRequest, api::AggregateMessage(errors)));
}

bool CreateOrUpdate(const admission::AdmissionRequest& request) {
  return request.operation == admission::AdmissionOperation::kCreate ||
         request.operation == admission::AdmissionOperation::kUpdate;
}

}  // namespace lws::controllers
