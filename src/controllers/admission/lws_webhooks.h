// File: controllers/admission/lws_webhooks.h
//
// The LWS webhooks (spec 3.3, 3.4, 14, 21.6) as admission plugins of the embedded API server,
// so that a LeaderWorkerSet or a pod written by anyone (kubectl, the embedded StatefulSet
// controller) is treated as on a cluster with the LWS webhook server installed:
//
//   mleaderworkerset.kb.io  leaderworkersets CREATE/UPDATE   webhook defaults (lws_defaults.h)
//   vleaderworkerset.kb.io  leaderworkersets CREATE/UPDATE   rules V1-V20 (lws_validation.h),
//                                                            on update against the stored object
//   mpod.kb.io              pods CREATE, name label present  labels, env, affinities
//   (pod_mutation.h) vpod.kb.io              pods CREATE/UPDATE, name label   admits everything
//
// The webhook configurations name the main resources only, so writes to leaderworkersets/status,
// leaderworkersets/scale and pods/status never reach these plugins.
//
// A denial is answered as kube-apiserver answers a controller-runtime webhook that returns a
// plain error (LWS returns `field.ErrorList.ToAggregate()`, not an API status): the webhook's
// code (403 Forbidden for a denial; 500 for a recovered panic), no causes, and the message
// `admission webhook "<name>" denied the request: <aggregate of the field errors>`. Errors the
// server's own schema check finds (enums, minimum, required) stay 422 Invalid with causes: the
// server validates between the mutating and validating plugins.
//
// The operator's webhook server (operator/webhook) runs the same plugins with
// DenialWording::kWebhook: a denial is then the webhook's own answer, without the prefix that
// kube-apiserver adds, and an object the webhook cannot decode is a 400 from the mutating webhook
// too (controller-runtime's defaulter decodes before defaulting; in-process, the server's schema
// check words that error instead).
#pragma once

#include <memory>

#include "admission/admission.h"
#include "api/pod_mutation.h"

namespace lws::controllers {

// Who words a rejection: kube-apiserver, showing a webhook's denial to its client (in-process
// admission), or the webhook itself, answering kube-apiserver (the operator's webhook server).
enum class DenialWording { kApiServer, kWebhook };

// mleaderworkerset.kb.io and vleaderworkerset.kb.io.
std::shared_ptr<admission::AdmissionPlugin> LwsWebhookPlugin(
    DenialWording wording = DenialWording::kApiServer);

// mpod.kb.io and vpod.kb.io.
std::shared_ptr<admission::AdmissionPlugin> PodWebhookPlugin(
    api::PodMutationOptions options = {}, DenialWording wording = DenialWording::kApiServer);

// Adds the LWS, pod and DisaggregatedSet (disaggregatedset_webhook.h) plugins to `chain`, in
// that order.
void InstallLwsWebhooks(admission::AdmissionChain* chain,
                        const api::PodMutationOptions& pod_options = {});

}  // namespace lws::controllers
