// File: controllers/admission/webhook_denial.h
//
// How a controller-runtime webhook's rejection reaches the client, shared by the LWS, pod and
// DisaggregatedSet webhooks (lws_webhooks.h explains the two wordings).
#pragma once

#include <string_view>

#include "admission/admission.h"
#include "api/field.h"
#include "controllers/admission/lws_webhooks.h"

namespace lws::controllers {

// kube-apiserver's wrapping of a webhook's rejection: the webhook's code, its message prefixed
// with `admission webhook "<webhook>" denied the request`. The webhook itself answers without it.
Status Denied(DenialWording wording, std::string_view webhook, const Status& answer);

// What controller-runtime answers when the validator returns a field.ErrorList: admission.Denied
// with the aggregate's message (repeated messages once), i.e. 403 Forbidden without causes.
Status DeniedByFieldErrors(DenialWording wording, std::string_view webhook,
                           const api::ErrorList& errors);

// A body the webhook cannot decode into its Go type: controller-runtime answers 400.
Status Undecodable(DenialWording wording, std::string_view webhook, const api::ErrorList& errors);

bool CreateOrUpdate(const admission::AdmissionRequest& request);

}  // namespace lws::controllers
