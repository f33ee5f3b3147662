// File: client/rest/rest_client.h
//
// client::Client over HTTP to any kube-apiserver (and to our own `lws apiserver` / `lws up`), so
// the runtime's informers, the event recorder and the LWS controllers run unchanged against a
// real cluster (DESIGN.md 2.2, world 1 and 2).
//
// Every request goes the same way (Send): wait for the client-side rate limiter (QPS/burst as
// client-go's token bucket), add User-Agent, Accept and the Authorization header of the
// CredentialSource (a 401 makes it refresh for the next request), send it through the
// HttpTransport's keep-alive pool, and let the RetryPolicy decide about failures: 429 for every
// verb (Retry-After honoured), 5xx and connection errors only for the verbs that cannot apply a
// change twice. Each retry, and each time it gives up, is one log line ("rest" logger).
//
// Answers become what the in-process LocalClient returns: the server's JSON for writes,
// store::StoredObject (resourceVersion parsed from metadata) for reads, and errors through
// client::StatusFromAnswer, with the server's reason, message and field causes. Writes carry
// fieldManager=field_manager(); an apply patch also force=true, as LocalClient sends it.
//
// Watch lists (in pages), delivers an ADDED per object, then streams changes from the list's
// resourceVersion on a thread of its own (one per watch; see rest_watch.h for how it resumes,
// re-lists and stops).
//
// Waiting. The Client interface is synchronous, so a request waits where it was called: for a
// rate-limiter token and between retries, with RestClientOptions::sleep (a real sleep unless a
// test replaces it). Called from an EventLoop task, that blocks the loop as client-go's blocking
// Wait blocks a worker goroutine: give controllers a QPS that does not starve them (upstream
// LWS: 500/500, spec 21.1).
//
// Threading: every method may be called from any thread at once.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "base/mutex.h"
#include "client/client.h"
#include "client/rest/credential_source.h"
#include "client/rest/http_transport.h"
#include "client/rest/rate_limiter.h"
#include "client/rest/rest_config.h"
#include "client/rest/retry_policy.h"

namespace lws::rest {

using api::Json;

// "lws/<version> (<os>/<arch>) <commit>", upstream LWS's user agent (spec 21.1). An empty
// version is the build's project version, an empty commit "unknown".
std::string UserAgent(std::string_view version = "", std::string_view commit = "");

struct RestClientOptions {
  std::string field_manager = "lws";  // managedFields and events' reporting component
  std::string user_agent;             // "": UserAgent()
  double qps = 5;                     // client-go's defaults; <= 0: unlimited
  int burst = 10;
  RetryPolicy::Options retry;
  std::uint64_t seed = 0;  // the retry policy's jitter stream
  // Timeouts and pool size; server and tls come from the RestConfig.
  TransportOptions transport;
  CredentialOptions credentials;
  const Clock* clock = nullptr;  // rate limiter and token refresh; null: the real clock
  // How a request waits for the rate limiter and between retries; empty: sleep the thread.
  std::function<void(Duration)> sleep;

  // Watches: the first delay before resuming a failed stream (doubling up to the cap, reset by
  // a stream that delivered something), the page size of their lists, and the server-side
  // timeout of one watch request (client-go: 5 to 10 minutes, drawn at random).
  Duration watch_backoff_base = std::chrono::milliseconds(200);
  Duration watch_backoff_cap = std::chrono::seconds(30);
  std::int64_t watch_list_page_size = 500;
  Duration watch_timeout_min = std::chrono::minutes(5);
};

// One request as RestClient sends it.
struct RestRequest {
  std::string method;  // "GET", ...
  std::string path;    // "/api/v1/namespaces/default/pods"
  std::string query;   // "" or "?watch=1&..." (already escaped: QueryString)
  const std::string* body = nullptr;
  std::string content_type = "application/json";
};

class RestClient final : public client::Client {
 public:
  // Builds the transport (TLS context) and credential source; contacts nobody.
  static Result<std::unique_ptr<RestClient>> FromConfig(RestConfig config,
                                                        RestClientOptions options = {});
  ~RestClient() override;
  RestClient(const RestClient&) = delete;
  RestClient& operator=(const RestClient&) = delete;

  Result<store::ObjectPtr> Create(const client::Resource& resource, Json object) const override;
  Result<store::ObjectPtr> Update(const client::Resource& resource, Json object) const override;
  Result<store::ObjectPtr> UpdateStatus(const client::Resource& resource,
                                        Json object) const override;
  Result<store::ObjectPtr> Patch(const client::Resource& resource, const std::string& ns,
                                 const std::string& name, client::PatchType type, const Json& patch,
                                 const std::string& subresource = "") const override;
  Result<store::ObjectPtr> Delete(const client::Resource& resource, const std::string& ns,
                                  const std::string& name,
                                  const client::DeleteOptions& options = {}) const override;
  Status Bind(const std::string& ns, const std::string& pod, const std::string& pod_uid,
              const std::string& node) const override;

  Result<store::ObjectPtr> Get(const client::Resource& resource, const std::string& ns,
                               const std::string& name) const override;
  // One page when options.limit > 0 (continue with options.continue_token), else everything.
  Result<store::ListResult> List(const client::Resource& resource,
                                 const store::ListOptions& options = {}) const override;
  // The same, abandoned when `cancel` is cancelled (a watch's re-list, ended by Stop).
  Result<store::ListResult> List(const client::Resource& resource,
                                 const store::ListOptions& options, CancelToken* cancel) const;
  // REQUIRES: this client outlives the subscription.
  Result<std::unique_ptr<client::Subscription>> Watch(EventLoop* loop,
                                                      const client::Resource& resource,
                                                      const std::string& ns,
                                                      client::WatchHandler handler) const override;

  const std::string& field_manager() const override { return options_.field_manager; }

  // The request pipeline under every method above (rate limit, credentials, retries): for
  // requests the Client interface has no method for (GET /version, a lease). The answer
  // whatever its HTTP status; a Status only when no usable answer came (connection errors
  // after the retries, cancellation).
  Result<HttpAnswer> Send(const RestRequest& request, CancelToken* cancel = nullptr) const;
  // A streamed GET (a watch): rate-limited and authenticated like Send, never retried (the
  // watch decides). `on_object` gets each JSON object of a 2xx body (false: enough).
  Result<HttpAnswer> Stream(const RestRequest& request, const ObjectCallback& on_object,
                            CancelToken* cancel) const;

  const RestConfig& config() const { return config_; }
  const RestClientOptions& options() const { return options_; }
  // Connections dialled so far, over every transport (reuse shows as fewer dials than calls).
  std::size_t dial_count() const;

 private:
  RestClient(RestConfig config, RestClientOptions options,
             std::shared_ptr<HttpTransport> transport);

  // Waits for the rate limiter; false when cancelled meanwhile.
  bool Throttle(CancelToken* cancel) const;
  bool Wait(Duration delay, CancelToken* cancel) const;
  // The call's headers and the transport for its credentials (an exec plugin may hand out a
  // client certificate, which needs a transport of its own).
  Result<std::shared_ptr<HttpTransport>> Prepare(const RestRequest& request, HttpCall* call) const;
  Result<Json> SendJson(const RestRequest& request) const;
  // SendJson, its answer as a stored version (client::AnswerObject): GET and every write.
  Result<store::ObjectPtr> SendForObject(const RestRequest& request) const;
  std::string WriteQuery(bool apply = false) const;

  const RestConfig config_;
  const RestClientOptions options_;
  const std::string user_agent_;
  const Clock* clock_;
  mutable CredentialSource credentials_;
  mutable Mutex mu_;
  mutable RateLimiter limiter_ GUARDED_BY(mu_);
  mutable RetryPolicy retry_ GUARDED_BY(mu_);
  mutable std::shared_ptr<HttpTransport> transport_ GUARDED_BY(mu_);
  mutable std::string transport_cert_ GUARDED_BY(mu_);     // the exec certificate in use
  mutable std::size_t retired_dials_ GUARDED_BY(mu_) = 0;  // of replaced transports
};

}  // namespace lws::rest
