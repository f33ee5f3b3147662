// File: client/rest/rest_server_testing.h
//
// The real API server (store, ApiServer, HttpServer on an ephemeral loopback port, HTTP or
// HTTPS) for the REST client's tests, with a fault-injection seam in front of it: every request
// is recorded, an `intercept` hook may answer instead of the server (429, 500, 410), and
// `end_streams_after` cuts watch streams after a number of events, as a proxy dropping
// connections would. Plus EventLog, which collects watch events from the loop and lets a test
// wait for a condition on them (a condition wait with a generous bound, never a sleep).
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "apiserver/api_server.h"
#include "client/client.h"
#include "client/rest/rest_config.h"
#include "store/store.h"
#include "transport/http_server.h"
#include "transport/tls_certificates.h"

namespace lws::rest::testing {

inline constexpr auto kPatience = std::chrono::seconds(20);

// A watch stream that ends (cleanly, as a dropped proxy connection looks to HTTP) after
// `events` lines of the server's stream.
class EndAfter final : public transport::ResponseStream {
 public:
  EndAfter(std::shared_ptr<transport::ResponseStream> inner, int events)
      : inner_(std::move(inner)), left_(events) {}
  void Start(std::function<void()> wake) override { inner_->Start(std::move(wake)); }
  bool Next(std::string* out) override {
    std::string lines;
    bool alive = inner_->Next(&lines);
    for (std::size_t at = 0; at < lines.size() && left_ > 0;) {
      std::size_t end = lines.find('\n', at);
      if (end == std::string::npos) end = lines.size() - 1;
      out->append(lines, at, end + 1 - at);
      at = end + 1;
      --left_;
    }
    if (left_ > 0) return alive;
    inner_->Cancel();
    return false;
  }
  void Cancel() override { inner_->Cancel(); }

 private:
  std::shared_ptr<transport::ResponseStream> inner_;
  int left_;
};

struct LiveServerOptions {
  bool tls = false;
  std::string token;
  std::size_t history_size = 10'000;
};

class LiveServer {
 public:
  using Intercept =
      std::function<std::optional<transport::HttpResponse>(const transport::HttpRequest&)>;

  explicit LiveServer(LiveServerOptions options = {}) : options_(std::move(options)) {
    store::StoreOptions store_options;
    store_options.clock = &clock_;
    store_options.seed = 11;
    store_options.history_size = options_.history_size;
    store_ = store::Store::Open(store_options).value();
    apiserver::ApiServerOptions server_options;
    server_options.store = store_.get();
    server_options.clock = &clock_;
    server_options.token = options_.token;
    server_ = apiserver::ApiServer::Create(std::move(server_options)).value();
    transport::HttpServerOptions http;
    if (options_.tls) {
      identity_ = transport::CreateSelfSigned({}, clock_.Now()).value();
      http.tls = transport::HttpTlsOptions{identity_.cert_pem, identity_.key_pem};
    }
    http_ = transport::HttpServer::Start(std::move(http), [this](const transport::HttpRequest& r) {
              return Handle(r);
            }).value();
  }
  ~LiveServer() { http_->Stop(); }

  std::string url() const {
    return std::string(options_.tls ? "https://" : "http://") +
           "127.0.0.1:" + std::to_string(http_->port());
  }
  // What a kubeconfig for this server would resolve to (token included when the server wants one).
  RestConfig config() const {
    RestConfig config;
    config.server = url();
    config.tls.ca_pem = identity_.ca_pem;
    config.credentials.token = options_.token;
    config.source = "test";
    return config;
  }
  const transport::TlsIdentity& identity() const { return identity_; }
  store::Store* store() { return store_.get(); }
  uint16_t port() const { return http_->port(); }

  void set_intercept(Intercept intercept) {
    std::lock_guard lock(mu_);
    intercept_ = std::move(intercept);
  }
  // Watch streams opened from now on end after `events` events (nullopt: never).
  void set_end_streams_after(std::optional<int> events) {
    std::lock_guard lock(mu_);
    end_streams_after_ = events;
  }
  std::vector<transport::HttpRequest> requests() const {
    std::lock_guard lock(mu_);
    return requests_;
  }
  // The recorded requests whose target contains `part`.
  std::vector<transport::HttpRequest> RequestsTo(const std::string& part) const {
    std::vector<transport::HttpRequest> out;
    for (const transport::HttpRequest& r : requests()) {
      if (r.target.find(part) != std::string::npos) out.push_back(r);
    }
    return out;
  }

 private:
  transport::HttpResponse Handle(const transport::HttpRequest& request) {
    Intercept intercept;
    std::optional<int> end_after;
    {
      std::lock_guard lock(mu_);
      requests_.push_back(request);
      intercept = intercept_;
      end_after = end_streams_after_;
    }
    if (intercept) {
      if (std::optional<transport::HttpResponse> injected = intercept(request)) return *injected;
    }
    transport::HttpResponse response = server_->Handle(request);
    if (response.stream && end_after) {
      response.stream = std::make_shared<EndAfter>(response.stream, *end_after);
    }
    return response;
  }

  const LiveServerOptions options_;
  RealClock clock_;
  std::unique_ptr<store::Store> store_;
  std::unique_ptr<apiserver::ApiServer> server_;
  transport::TlsIdentity identity_;
  std::unique_ptr<transport::HttpServer> http_;
  mutable std::mutex mu_;
  std::vector<transport::HttpRequest> requests_;
  Intercept intercept_;
  std::optional<int> end_streams_after_;
};

// A metav1.Status answer, as the server writes one.
inline transport::HttpResponse StatusAnswer(int code, const std::string& reason,
                                            const std::string& message) {
  transport::HttpResponse response;
  response.status = code;
  response.headers.Add("Content-Type", "application/json");
  response.body = api::Json{{"kind", "Status"}, {"apiVersion", "v1"}, {"status", "Failure"},
                            {"code", code},     {"reason", reason},   {"message", message}}
                      .dump();
  return response;
}

// Watch events as the handler saw them, on the loop; tests wait on them from their own thread.
class EventLog {
 public:
  client::WatchHandler Handler() {
    return [this](const store::WatchEvent& event) {
      std::lock_guard lock(mu_);
      events_.push_back(event);
      cv_.notify_all();
    };
  }
  // Waits until `condition(events)` holds; false after kPatience.
  bool WaitFor(const std::function<bool(const std::vector<store::WatchEvent>&)>& condition) {
    std::unique_lock lock(mu_);
    return cv_.wait_for(lock, kPatience, [&] { return condition(events_); });
  }
  bool WaitForCount(std::size_t count) {
    return WaitFor([count](const auto& events) { return events.size() >= count; });
  }
  std::vector<store::WatchEvent> events() const {
    std::lock_guard lock(mu_);
    return events_;
  }
  // "ADDED a", "DELETED b": type and name of each event, for readable expectations.
  std::vector<std::string> Summary() const {
    std::vector<std::string> out;
    for (const store::WatchEvent& event : events()) {
      out.push_back(std::string(store::EventTypeName(event.type)) + " " +
                    event.object->name().name);
    }
    return out;
  }

 private:
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::vector<store::WatchEvent> events_;
};

}  // namespace lws::rest::testing
