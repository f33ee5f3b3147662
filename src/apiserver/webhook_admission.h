// File: apiserver/webhook_admission.h
//
// Dynamic admission: the webhooks registered by MutatingWebhookConfiguration and
// ValidatingWebhookConfiguration objects, called on every write as kube-apiserver's
// MutatingAdmissionWebhook and ValidatingAdmissionWebhook plugins call them, so that an operator
// (`lws controller`) is exercised against `lws up --no-controller` exactly as deployed.
//
//   Mutate:   the mutating webhooks whose rules and selectors select the request
//             (webhook_match.h), one after the other in configuration-name order, each seeing
//             the object as the previous one patched it; a JSONPatch answer is applied.
//   Validate: every selected validating webhook (upstream calls them in parallel; here in order,
//             all of them), then the first rejection in that order is the answer.
// The server's own defaulting and validation run between the two phases (admission/admission.h).
//
// The transport is injected: a WebhookCaller posts the AdmissionReview to the endpoint (HTTPS
// with the caBundle) within the timeout and returns the decoded answer document, or an error
// whose message is the transport's ("Post \"https://...\": dial tcp ...: connection refused").
// Configurations are read from the store on each write; their parsed form is cached until one of
// them changes (resourceVersion), so a write no webhook selects costs two small LISTs.
//
// Thread-safe: Handles, Mutate and Validate run on the server's request threads concurrently.
#pragma once

#include <functional>
#include <memory>

#include "admission/admission.h"
#include "apiserver/webhook_match.h"
#include "base/clock.h"
#include "base/result.h"
#include "store/store.h"

namespace lws::apiserver {

// Posts `review` to `endpoint` and returns the answer document. Must give up after `timeout`.
using WebhookCaller = std::function<Result<Json>(const WebhookEndpoint& endpoint,
                                                 const Json& review, Duration timeout)>;

struct WebhookAdmissionOptions {
  store::Store* store = nullptr;  // REQUIRED; the configurations and namespaces are read here
  // Null: no transport; every call fails with "no webhook transport in this server", which
  // failurePolicy then decides on.
  WebhookCaller caller;
};

// The plugin; add it to the AdmissionChain after the in-process plugins.
std::shared_ptr<admission::AdmissionPlugin> NewWebhookAdmission(WebhookAdmissionOptions options);

}  // namespace lws::apiserver
