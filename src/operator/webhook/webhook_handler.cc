// File: operator/webhook/webhook_handler.cc
#include "operator/webhook/webhook_handler.h"

#include <utility>

#include "controllers/admission/disaggregatedset_webhook.h"
#include "controllers/admission/lws_webhooks.h"

namespace lws::operator_webhook {
namespace {

using admission::AdmissionOperation;
using transport::HttpRequest;
using transport::HttpResponse;

constexpr std::string_view kNoContent = "there is no content to decode";

// The plugin's rejection as controller-runtime answers it: a denial (403 Forbidden) keeps its
// reason; a decoding failure (400) and anything else are admission.Errored with their code.
AdmissionResponse Rejection(const Status& status) {
  if (status.code() == Code::kForbidden) return Denied(status.message());
  return Errored(status.http_code(), status.message());
}

std::optional<AdmissionOperation> ParseOperation(std::string_view operation) {
  if (operation == "CREATE") return AdmissionOperation::kCreate;
  if (operation == "UPDATE") return AdmissionOperation::kUpdate;
  if (operation == "DELETE") return AdmissionOperation::kDelete;
  return std::nullopt;
}

admission::AdmissionRequest PluginRequest(const AdmissionReviewRequest& review,
                                          AdmissionOperation operation) {
  admission::AdmissionRequest request;
  request.operation = operation;
  request.subresource = review.sub_resource;
  request.namespace_ = review.namespace_;
  request.name = review.name;
  request.old_object = review.old_object ? &*review.old_object : nullptr;
  request.dry_run = review.dry_run;
  return request;
}

// nlohmann's diff appends to an array with the path ".../-"; controller-runtime's jsonpatch
// names the index. Rewrites those paths with the index each element lands at, replaying the
// patch on a copy of the original to know the array's length at that point.
Json WithExplicitIndices(const Json& original, Json patch) {
  Json working = original;
  try {
    for (Json& operation : patch) {
      const std::string path = operation.value("path", "");
      if (operation.value("op", "") == "add" && path.ends_with("/-")) {
        const std::string parent = path.substr(0, path.size() - 2);
        const Json& array = working.at(Json::json_pointer(parent));
        operation["path"] = parent + "/" + std::to_string(array.size());
      }
      working.patch_inplace(Json::array({operation}));
    }
  } catch (const Json::exception&) {
    // Cannot happen for a patch diff made from `original`; the "-" form is valid RFC 6902 too.
  }
  return patch;
}

// defaulter_custom.go: DELETE passes; otherwise decode, default, answer the difference.
AdmissionResponse Mutate(admission::AdmissionPlugin& plugin, const AdmissionReviewRequest& review) {
  const std::optional<AdmissionOperation> operation = ParseOperation(review.operation);
  if (operation == AdmissionOperation::kDelete) return Allowed();
  if (!review.object) return Errored(400, std::string(kNoContent));
  // The LWS defaulters act on CREATE and UPDATE only, the only operations registered; other
  // operations are admitted unchanged.
  if (!operation) return Allowed();
  Json mutated = *review.object;
  admission::AdmissionRequest request = PluginRequest(review, *operation);
  request.object = &mutated;
  if (Status status = plugin.Mutate(request); !status.ok()) return Rejection(status);
  AdmissionResponse response = Allowed();
  Json patch = Json::diff(*review.object, mutated);
  if (!patch.empty()) response.patch = WithExplicitIndices(*review.object, std::move(patch));
  return response;
}

// validator_custom.go: CREATE reads object, UPDATE object and oldObject, DELETE oldObject.
AdmissionResponse Validate(admission::AdmissionPlugin& plugin,
                           const AdmissionReviewRequest& review) {
  const std::optional<AdmissionOperation> operation = ParseOperation(review.operation);
  if (!operation) {
    return Errored(400, "unknown operation request \"" + review.operation + "\"");
  }
  const bool needs_object = *operation != AdmissionOperation::kDelete;
  const bool needs_old_object = *operation != AdmissionOperation::kCreate;
  if ((needs_object && !review.object) || (needs_old_object && !review.old_object)) {
    return Errored(400, std::string(kNoContent));
  }
  Json object = review.object.value_or(Json());
  admission::AdmissionRequest request = PluginRequest(review, *operation);
  request.object = review.object ? &object : nullptr;
  std::vector<std::string> warnings;
  request.warnings = &warnings;
  if (Status status = plugin.Validate(request); !status.ok()) return Rejection(status);
  AdmissionResponse response = Allowed();
  response.warnings = std::move(warnings);
  return response;
}

HttpResponse JsonResponse(std::string body) {
  HttpResponse response;
  response.status = 200;  // net/http's default: controller-runtime never sets a status
  response.headers.Add("Content-Type", "application/json");
  response.body = std::move(body);
  return response;
}

// writeResponse: a review without type information.
HttpResponse Untyped(AdmissionResponse answer) {
  return JsonResponse(EncodeAdmissionReview(answer, "", ""));
}

}  // namespace

std::vector<WebhookEndpoint> LwsWebhookEndpoints(const api::PodMutationOptions& pod_options) {
  using controllers::DenialWording;
  auto lws = controllers::LwsWebhookPlugin(DenialWording::kWebhook);
  auto pod = controllers::PodWebhookPlugin(pod_options, DenialWording::kWebhook);
  auto ds = controllers::DisaggregatedSetWebhookPlugin(DenialWording::kWebhook);
  return {
      {"/mutate-leaderworkerset-x-k8s-io-v1-leaderworkerset", "mleaderworkerset.kb.io", true, lws},
      {"/validate-leaderworkerset-x-k8s-io-v1-leaderworkerset", "vleaderworkerset.kb.io", false,
       lws},
      {"/mutate--v1-pod", "mpod.kb.io", true, pod},
      {"/validate--v1-pod", "vpod.kb.io", false, pod},
      {"/validate-disaggregatedset-x-k8s-io-v1-disaggregatedset", "vdisaggregatedset.kb.io", false,
       ds},
  };
}

AdmissionResponse Admit(const WebhookEndpoint& endpoint, const AdmissionReviewRequest& request) {
  return endpoint.mutating ? Mutate(*endpoint.plugin, request)
                           : Validate(*endpoint.plugin, request);
}

HttpResponse ServeWebhook(const WebhookEndpoint& endpoint, const HttpRequest& request) {
  if (request.body.empty()) return Untyped(Errored(400, "request body is empty"));
  if (request.body.size() >= kMaxReviewBytes) {
    return Untyped(Errored(413, "request entity is too large; limit is " +
                                    std::to_string(kMaxReviewBytes) + " bytes"));
  }
  const std::string content_type = request.headers.Get("Content-Type");
  if (content_type != "application/json") {
    return Untyped(Errored(400, "contentType=" + content_type + ", expected application/json"));
  }
  Result<AdmissionReview> review = DecodeAdmissionReview(request.body);
  if (!review.ok()) return Untyped(Errored(400, review.status().message()));
  AdmissionResponse answer = Admit(endpoint, review->request);
  answer.uid = review->request.uid;
  const bool untyped = review->api_version.empty() && review->kind.empty();
  return JsonResponse(EncodeAdmissionReview(answer, untyped ? kAdmissionV1 : review->api_version,
                                            untyped ? kAdmissionReviewKind : review->kind));
}

const WebhookEndpoint* FindEndpoint(const std::vector<WebhookEndpoint>& endpoints,
                                    std::string_view target) {
  const std::string_view path = target.substr(0, target.find('?'));
  for (const WebhookEndpoint& endpoint : endpoints) {
    if (endpoint.path == path) return &endpoint;
  }
  return nullptr;
}

HttpResponse NotFoundResponse() {
  HttpResponse response;
  response.status = 404;
  response.headers.Add("Content-Type", "text/plain; charset=utf-8");
  response.headers.Add("X-Content-Type-Options", "nosniff");
  response.body = "404 page not found\n";
  return response;
}

}  // namespace lws::operator_webhook
