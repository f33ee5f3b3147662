// File: operator/webhook/webhook_handler.h
//
// What the operator's webhook server answers, as plain functions of the HTTP request (no
// sockets, no clock): the four LWS webhooks of spec 21.6 behind their paths, each running the
// in-process admission plugin of controllers/admission with the webhook's own wording.
//
//   /mutate-leaderworkerset-x-k8s-io-v1-leaderworkerset    mleaderworkerset.kb.io  defaulting
//   /validate-leaderworkerset-x-k8s-io-v1-leaderworkerset  vleaderworkerset.kb.io  validation
//   /mutate--v1-pod                                        mpod.kb.io              pod mutation
//   /validate--v1-pod                                      vpod.kb.io              admits all
//
// Each behaves as controller-runtime's Webhook.ServeHTTP around a CustomDefaulter or
// CustomValidator (pkg/webhook/admission http.go, defaulter_custom.go, validator_custom.go):
//   - the HTTP status is 200 whatever the outcome; failures are inside the review;
//   - an empty body, a body of 7 MiB or more, a Content-Type other than exactly
//     "application/json", or an undecodable review answer an untyped review (no kind/apiVersion)
//     with status {code 400 (413 for the size), message}: "request body is empty",
//     "request entity is too large; limit is 7340032 bytes",
//     "contentType=text/plain, expected application/json", the decoder's message;
//   - a mutation answers the JSON patch from the object as sent to the defaulted object (nothing
//     when they are equal), with status {code 200};
//   - a denial answers {code 403, reason Forbidden, message: the webhook's message alone;
//     kube-apiserver prefixes `admission webhook "<name>" denied the request: `};
//   - an object the webhook cannot decode answers {code 400, message};
//   - validating webhooks answer `unknown operation request "CONNECT"` (400) for operations
//     other than CREATE, UPDATE, DELETE; mutating webhooks admit DELETE untouched;
//   - a missing object (oldObject on UPDATE and DELETE) is "there is no content to decode" (400).
// One deviation: the answer says Content-Type application/json, where Go's net/http sniffs
// "text/plain; charset=utf-8" from the bytes; kube-apiserver accepts either.
//
// Paths other than these are Go ServeMux's 404 "404 page not found".
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "admission/admission.h"
#include "api/pod_mutation.h"
#include "operator/webhook/admission_review.h"
#include "transport/http.h"

namespace lws::operator_webhook {

// controller-runtime's maxRequestSize: two objects of 3 MB plus the rest of the review.
inline constexpr std::size_t kMaxReviewBytes = 7 * 1024 * 1024;

// One served webhook: where kube-apiserver sends its reviews and which plugin answers them.
struct WebhookEndpoint {
  std::string path;  // "/mutate--v1-pod"
  std::string name;  // "mpod.kb.io": the registration's name, for logs
  bool mutating = false;
  std::shared_ptr<admission::AdmissionPlugin> plugin;
};

// The four LWS webhooks, in the order of the table above.
std::vector<WebhookEndpoint> LwsWebhookEndpoints(const api::PodMutationOptions& pod_options = {});

// The answer of `endpoint` to a decoded request (rules in the file comment); uid not yet set.
// The plugin sees no ResourceInfo (AdmissionRequest::resource is null): the path, not the
// request's resource, chooses the webhook, as in controller-runtime.
AdmissionResponse Admit(const WebhookEndpoint& endpoint, const AdmissionReviewRequest& request);

// One HTTP exchange of `endpoint`, as Webhook.ServeHTTP.
transport::HttpResponse ServeWebhook(const WebhookEndpoint& endpoint,
                                     const transport::HttpRequest& request);

// The endpoint serving `target`'s path (the query is ignored), or null.
const WebhookEndpoint* FindEndpoint(const std::vector<WebhookEndpoint>& endpoints,
                                    std::string_view target);

// Go ServeMux's answer for a path nobody serves.
transport::HttpResponse NotFoundResponse();

}  // namespace lws::operator_webhook
