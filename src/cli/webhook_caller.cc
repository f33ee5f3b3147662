// File: cli/webhook_caller.cc
#include "cli/webhook_caller.h"

#include <memory>
#include <string>

#include "client/rest/request_pool.h"

namespace lws::cli {

apiserver::WebhookCaller HttpsWebhookCaller() {
  // Kept-alive connections per webhook, shared by every copy of the caller.
  auto pool = std::make_shared<rest::RequestPool>();
  return [pool](const apiserver::WebhookEndpoint& endpoint, const api::Json& review,
                Duration timeout) -> Result<api::Json> {
    rest::TlsConfig tls;
    tls.ca_pem = endpoint.ca_bundle_pem;  // empty: the system roots, as kube-apiserver
    rest::HttpCall call;
    call.method = "POST";
    call.headers = {{"Content-Type", "application/json"}, {"Accept", "application/json"}};
    call.body = review.dump();
    ASSIGN_OR_RETURN(rest::HttpAnswer answer,
                     pool->Send(endpoint.url, tls, std::move(call), timeout));
    if (answer.status != 200) {
      // client-go's words for an unexpected status on a webhook call.
      return Status::Internal("an error on the server (\"" + answer.body.substr(0, 256) +
                              "\") has prevented the request from succeeding (post " +
                              endpoint.url + ")");
    }
    api::Json decoded = api::Json::parse(answer.body, nullptr, false);
    if (decoded.is_discarded()) {
      return Status::Internal("received invalid webhook response: the body is not JSON");
    }
    return decoded;
  };
}

}  // namespace lws::cli
