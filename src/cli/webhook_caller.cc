// File: cli/webhook_caller.cc
#include "cli/webhook_caller.h"

#include <string>

#include "client/rest/http_transport.h"

namespace lws::cli {

apiserver::WebhookCaller HttpsWebhookCaller() {
  return [](const apiserver::WebhookEndpoint& endpoint, const api::Json& review,
            Duration timeout) -> Result<api::Json> {
    rest::TlsConfig tls;
    tls.ca_pem = endpoint.ca_bundle_pem;  // empty: the system roots, as kube-apiserver
    rest::HttpCall call;
    call.method = "POST";
    call.headers = {{"Content-Type", "application/json"}, {"Accept", "application/json"}};
    call.body = review.dump();
    ASSIGN_OR_RETURN(rest::HttpAnswer answer,
                     rest::SendRequest(endpoint.url, tls, std::move(call), timeout));
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
