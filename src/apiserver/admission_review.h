// File: apiserver/admission_review.h
//
// The admission.k8s.io/v1 AdmissionReview exchange of kube-apiserver with one webhook, as pure
// functions: the request it sends, how it reads the answer, and the errors the client then sees
// (webhook/request/admissionreview.go, webhook/errors/statuserror.go and the mutating and
// validating dispatchers, kube-apiserver v1.32). The messages are upstream's:
//
//   denial:        the webhook's status, code raised to 400 when below, message
//                  `admission webhook "<name>" denied the request: <status.message>` (or
//                  `...: <status.reason>`, or `... denied the request without explanation`)
//   call failure:  500 `Internal error occurred: failed calling webhook "<name>": <reason>`,
//                  where reason is `failed to call webhook: <transport error>` or
//                  `received invalid webhook response: <what was wrong>`; under
//                  failurePolicy Ignore the request is admitted instead
//   dry run:       400 `admission webhook "<name>" does not support dry run` when sideEffects
//                  is not None or NoneOnDryRun, whatever the failurePolicy
//
// Deviation: the answer's reason is the one of the Code the status maps to (a webhook's 403
// without a reason reaches the client as reason Forbidden, upstream leaves it empty), and its
// details are those this server builds for the code.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "admission/user_info.h"
#include "apiserver/webhook_match.h"
#include "base/result.h"
#include "store/object.h"

namespace lws::apiserver {

// One admission as the server describes it to a webhook.
// What the webhook was matched on (operation, group/version/resource/subresource, kind — the
// kind's group is the resource's — namespace, objects), plus what only the review carries.
struct ReviewRequest : WebhookMatchRequest {
  std::string uid;
  std::string name;
  bool dry_run = false;
  std::string field_manager;  // the request's ?fieldManager=, "" when not given
  const store::StoredObject* old_version = nullptr;  // as AdmissionRequest's
  const admission::UserInfo* user = nullptr;         // as AdmissionRequest's
};

// The AdmissionReview v1 request document kube-apiserver posts for `request`: uid, kind,
// resource, subResource, requestKind, requestResource, requestSubResource, name, namespace,
// operation, userInfo, object, oldObject, dryRun and options (Create/Update/DeleteOptions).
Json BuildAdmissionReview(const ReviewRequest& request);

// A webhook's answer, checked.
struct WebhookVerdict {
  bool allowed = false;
  Json status;  // response.status (metav1.Status) or null
  Json patch;   // the decoded JSON patch (an array), null when the webhook sent none
  std::string patch_type;
  std::vector<std::string> warnings;
};

// Reads a response document for the request `uid` (VerifyAdmissionResponse): the kind must be
// admission.k8s.io/v1 AdmissionReview, response.uid must be `uid`, a mutating webhook sends
// patch and patchType together, a validating one neither. An error Status's message is the
// call-failure reason (`received invalid webhook response: ...`, `failed to call webhook: ...`);
// the caller decides by failurePolicy.
Result<WebhookVerdict> ReadAdmissionReview(const Json& review, std::string_view uid,
                                           WebhookType type);

// The error of a denial (ToStatusErr) for response.status `status` (may be null).
Status WebhookDenied(std::string_view webhook, const Json& status);
// 500 for a webhook that could not be called or answered nonsense, under failurePolicy Fail.
Status WebhookCallFailed(std::string_view webhook, std::string_view reason);
// 400 for a dry-run request to a webhook that may have side effects.
Status WebhookDryRunUnsupported(std::string_view webhook);
// True iff a dry-run request may be sent to a webhook with this sideEffects class.
bool SideEffectsAllowDryRun(std::string_view side_effects);

}  // namespace lws::apiserver
