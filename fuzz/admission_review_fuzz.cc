// Fuzzes the operator's webhook server on arbitrary request bodies: the AdmissionReview decoder
// and every endpoint behind it (the LWS and pod webhooks). Nothing may crash; a body the decoder
// refuses is a BadRequest; every answer is one JSON document whose uid is the request's; a
// mutation's patch applies to the object sent.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "apiserver/patch.h"
#include "client/rest/rest_util.h"
#include "operator/webhook/webhook_handler.h"

namespace {

using lws::api::Json;
namespace webhook = lws::operator_webhook;

[[noreturn]] void Fail(const char* what, std::string_view body) {
  std::fprintf(stderr, "%s for body %.*s\n", what, static_cast<int>(body.size()), body.data());
  std::abort();
}

void CheckAnswer(const webhook::WebhookEndpoint& endpoint, const webhook::AdmissionReview& review,
                 std::string_view body) {
  webhook::AdmissionResponse answer = webhook::Admit(endpoint, review.request);
  answer.uid = review.request.uid;
  const std::string bytes = webhook::EncodeAdmissionReview(answer, review.api_version, review.kind);
  const Json parsed = Json::parse(bytes, nullptr, /*allow_exceptions=*/false);
  if (parsed.is_discarded()) Fail("the answer is not JSON", body);
  if (parsed["response"]["uid"] != review.request.uid) Fail("the answer lost the uid", body);
  if (!answer.patch) return;
  if (!endpoint.mutating || !answer.allowed) Fail("a patch from a validating webhook", body);
  if (!review.request.object) Fail("a patch without an object", body);
  if (!lws::apiserver::ApplyJsonPatch(*review.request.object, *answer.patch).ok()) {
    Fail("the patch does not apply to the object sent", body);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view body(reinterpret_cast<const char*>(data), size);
  static const auto* endpoints = new auto(webhook::LwsWebhookEndpoints());
  auto review = webhook::DecodeAdmissionReview(body);
  if (!review.ok()) {
    if (review.status().code() != lws::Code::kBadRequest) Fail("not a BadRequest", body);
    return 0;
  }
  for (const webhook::WebhookEndpoint& endpoint : *endpoints) CheckAnswer(endpoint, *review, body);
  // The same bytes through the HTTP layer of one endpoint.
  lws::transport::HttpRequest request;
  request.method = "POST";
  request.target = endpoints->front().path;
  request.headers.Add("Content-Type", "application/json");
  request.body = std::string(body);
  const lws::transport::HttpResponse response = webhook::ServeWebhook(endpoints->front(), request);
  if (response.status != 200) Fail("an HTTP status other than 200", body);
  if (Json::parse(response.body, nullptr, false).is_discarded()) {
    Fail("an HTTP answer not JSON", body);
  }
  return 0;
}
