// File: cli/webhook_caller.h
//
// How `lws apiserver` and `lws up` reach the admission webhooks that webhook configuration
// objects register: the API server layer decides whom to call and what the answer means
// (apiserver/webhook_admission.h), and this is the HTTPS POST in between, over the REST client's
// transport (client/rest/http_transport.h), trusting the webhook's caBundle. The two layers
// meet here because the API server sits below client/rest.
#pragma once

#include "apiserver/webhook_admission.h"

namespace lws::cli {

// POSTs the AdmissionReview to the endpoint's URL within the timeout and decodes the answer.
// Errors read as kube-apiserver words them after "failed to call webhook: ": the transport's
// (`Post "https://127.0.0.1:9443/...": dial tcp ...: connect: connection refused`), a status
// other than 200, or a body that is not JSON.
apiserver::WebhookCaller HttpsWebhookCaller();

}  // namespace lws::cli
