// File: controllers/admission/disaggregatedset_webhook.h
//
// vdisaggregatedset.kb.io (disaggregatedsets CREATE/UPDATE): the DisaggregatedSet validating
// webhook (api/disaggregatedset_validation.h) as an admission plugin, for the embedded API server
// and the operator's webhook server. There is no mutating webhook: the CRD's schema defaults are
// all a DisaggregatedSet gets. Denials are worded as lws_webhooks.h describes; warnings (an
// External role that sets replicas) go back to the client.
#pragma once

#include <memory>

#include "admission/admission.h"
#include "controllers/admission/lws_webhooks.h"

namespace lws::controllers {

std::shared_ptr<admission::AdmissionPlugin> DisaggregatedSetWebhookPlugin(
    DenialWording wording = DenialWording::kApiServer);

}  // namespace lws::controllers
