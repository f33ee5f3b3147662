// File: fuzz/apiserver_request_fuzz.cc
//
// Any request at all through ApiServer::Handle (routing, query parsing, body decoding, every
// verb, patches, apply, scale, binding, watches, the LWS webhooks): it must answer with a Status,
// never crash, and leave the store consistent. Input: "METHOD\nTARGET\nCONTENT-TYPE\nACCEPT\nBODY".
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "apiserver/api_server.h"
#include "base/clock.h"
#include "controllers/admission/lws_webhooks.h"
#include "store/store.h"

namespace {

using lws::apiserver::ApiServer;

struct Server {
  lws::ManualClock clock;
  std::unique_ptr<lws::store::Store> store;
  std::unique_ptr<ApiServer> api;
  int uses = 0;

  void Reset() {
    api.reset();
    lws::store::StoreOptions options;
    options.clock = &clock;
    options.history_size = 100;
    store = lws::store::Store::Open(options).value();
    lws::apiserver::ApiServerOptions server_options;
    server_options.store = store.get();
    server_options.clock = &clock;
    // With the LWS webhooks, as `lws up` and `lws apiserver` serve: LWS and pod writes also go
    // through the mutating and validating plugins.
    lws::controllers::InstallLwsWebhooks(&server_options.admission);
    api = ApiServer::Create(std::move(server_options)).value();
    uses = 0;
  }
};

std::string_view NextLine(std::string_view* rest) {
  std::size_t end = rest->find('\n');
  std::string_view line = rest->substr(0, end);
  *rest = end == std::string_view::npos ? std::string_view() : rest->substr(end + 1);
  return line;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static Server server;
  // A fresh store now and then keeps memory bounded (every create adds an object).
  if (server.api == nullptr || ++server.uses > 2000) server.Reset();
  std::string_view rest(reinterpret_cast<const char*>(data), size);
  lws::transport::HttpRequest request;
  request.method = std::string(NextLine(&rest));
  request.target = std::string(NextLine(&rest));
  std::string_view content_type = NextLine(&rest);
  std::string_view accept = NextLine(&rest);
  if (!content_type.empty()) request.headers.Add("Content-Type", std::string(content_type));
  if (!accept.empty()) request.headers.Add("Accept", std::string(accept));
  request.body = std::string(rest);
  lws::transport::HttpResponse response = server.api->Handle(request);
  if (response.stream) {
    response.stream->Start([] {});
    std::string out;
    response.stream->Next(&out);
    response.stream->Cancel();
  }
  if (response.status < 200 || response.status > 599) __builtin_trap();
  return 0;
}
