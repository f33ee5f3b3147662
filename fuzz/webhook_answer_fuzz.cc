// Fuzzes what the API server reads from outside when it calls admission webhooks: a webhook's
// answer document and a stored webhook configuration. Input: "<answer JSON>\0<configuration
// JSON>" (without a NUL byte the whole input is the answer and the configuration is a pod
// webhook with an objectSelector). Reading an answer is deterministic and never crashes; an
// accepted mutating answer with a patch carries a JSON array and the JSONPatch type is checked
// by the caller; a denial is never answered below 400; base64 round-trips the raw input; a
// parsed configuration decides on a pod write without crashing.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "api/base64.h"
#include "apiserver/admission_review.h"
#include "apiserver/webhook_match.h"

namespace {

using lws::apiserver::Json;
using lws::apiserver::WebhookType;

constexpr std::string_view kDefaultConfiguration = R"({"metadata":{"name":"c"},"webhooks":[
  {"name":"w","clientConfig":{"url":"https://127.0.0.1:9443/w"},"sideEffects":"None",
   "objectSelector":{"matchExpressions":[{"key":"app","operator":"Exists"}]},
   "rules":[{"operations":["CREATE"],"apiGroups":[""],"apiVersions":["v1"],
             "resources":["pods"]}]}]})";

void CheckAnswer(const Json& answer) {
  for (WebhookType type : {WebhookType::kMutating, WebhookType::kValidating}) {
    auto verdict = lws::apiserver::ReadAdmissionReview(answer, "uid-1", type);
    auto again = lws::apiserver::ReadAdmissionReview(answer, "uid-1", type);
    if (verdict.ok() != again.ok()) std::abort();
    if (!verdict.ok()) {
      if (verdict.status() != again.status()) std::abort();
      continue;
    }
    if (!verdict->patch.is_null() && !verdict->patch.is_array()) std::abort();
    if (type == WebhookType::kValidating && !verdict->patch.is_null()) std::abort();
    if (!verdict->allowed) {
      lws::Status denied = lws::apiserver::WebhookDenied("w", verdict->status);
      if (denied.ok() || denied.http_code() < 400) std::abort();
    }
  }
}

void CheckConfiguration(const Json& configuration) {
  Json pod = {{"metadata", {{"name", "p"}, {"labels", {{"app", "x"}}}}}};
  lws::apiserver::WebhookMatchRequest request;
  request.operation = "CREATE";
  request.version = "v1";
  request.resource = "pods";
  request.kind = "Pod";
  request.namespace_ = "default";
  request.object = &pod;
  lws::api::StringMap namespace_labels = {{"team", "a"}};
  for (WebhookType type : {WebhookType::kMutating, WebhookType::kValidating}) {
    for (const auto& hook : lws::apiserver::ParseWebhookConfiguration(configuration, type)) {
      (void)lws::apiserver::ShouldCallWebhook(hook, request, &namespace_labels);
      (void)lws::apiserver::WebhookMayHandle(hook, "", "v1", "pods", "status");
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  auto decoded = lws::api::Base64Decode(lws::api::Base64Encode(input));
  if (!decoded.ok() || *decoded != input) std::abort();
  (void)lws::api::Base64Decode(input);

  const std::size_t nul = input.find('\0');
  const std::string_view answer_text = nul == std::string_view::npos ? input : input.substr(0, nul);
  const std::string_view configuration_text =
      nul == std::string_view::npos ? kDefaultConfiguration : input.substr(nul + 1);
  const Json answer = Json::parse(answer_text, nullptr, false);
  if (!answer.is_discarded()) CheckAnswer(answer);
  const Json configuration = Json::parse(configuration_text, nullptr, false);
  if (!configuration.is_discarded()) CheckConfiguration(configuration);
  return 0;
}
