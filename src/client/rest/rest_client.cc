// File: client/rest/rest_client.cc
//
// The request pipeline (Send, Stream) and the writes. Reads are in rest_reads.cc, watches in
// rest_watch.cc.
#include "client/rest/rest_client.h"

#include <thread>

#include "base/log.h"
#include "client/request_bodies.h"
#include "client/rest/http_url.h"
#include "client/rest/rest_decode.h"
#include "client/rest/rest_watch.h"
#include "store/object.h"

#ifndef LWS_VERSION
#define LWS_VERSION "0.0.0"
#endif

namespace lws::rest {
namespace {

#if defined(__x86_64__)
constexpr char kArch[] = "amd64";
#elif defined(__aarch64__)
constexpr char kArch[] = "arm64";
#else
constexpr char kArch[] = "unknown";
#endif

const Clock& RealTime() {
  static const RealClock clock;
  return clock;
}

std::string Namespace(const Json& object) { return store::MetaString(object, "namespace"); }
std::string Name(const Json& object) { return store::MetaString(object, "name"); }

// The path part of a target, for log lines.
std::string_view PathOf(std::string_view path) { return path.substr(0, path.find('?')); }

}  // namespace

std::string UserAgent(std::string_view version, std::string_view commit) {
  std::string v = version.empty() ? "v" LWS_VERSION : std::string(version);
  return "lws/" + v + " (linux/" + kArch + ") " +
         (commit.empty() ? "unknown" : std::string(commit));
}

Result<std::unique_ptr<RestClient>> RestClient::FromConfig(RestConfig config,
                                                           RestClientOptions options) {
  TransportOptions transport_options = options.transport;
  transport_options.server = config.server;
  transport_options.tls = config.tls;
  ASSIGN_OR_RETURN(std::unique_ptr<HttpTransport> transport,
                   HttpTransport::Create(std::move(transport_options)));
  return std::unique_ptr<RestClient>(
      new RestClient(std::move(config), std::move(options), std::move(transport)));
}

RestClient::RestClient(RestConfig config, RestClientOptions options,
                       std::shared_ptr<HttpTransport> transport)
    : config_(std::move(config)),
      options_(std::move(options)),
      user_agent_(options_.user_agent.empty() ? UserAgent() : options_.user_agent),
      clock_(options_.clock ? options_.clock : &RealTime()),
      credentials_(config_.credentials, ClusterInfoFor(config_), options_.credentials),
      limiter_(options_.qps, options_.burst),
      retry_(options_.retry, Rng(options_.seed).Derive("rest-retry")),
      transport_(std::move(transport)) {}

RestClient::~RestClient() = default;

std::size_t RestClient::dial_count() const {
  MutexLock lock(&mu_);
  return retired_dials_ + transport_->dial_count();
}

bool RestClient::Wait(Duration delay, CancelToken* cancel) const {
  if (delay <= Duration::zero()) return !(cancel && cancel->cancelled());
  if (options_.sleep) {
    options_.sleep(delay);
    return !(cancel && cancel->cancelled());
  }
  if (cancel) return cancel->WaitFor(delay);
  std::this_thread::sleep_for(delay);
  return true;
}

bool RestClient::Throttle(CancelToken* cancel) const {
  Duration wait;
  {
    MutexLock lock(&mu_);
    wait = limiter_.Reserve(clock_->Now());
  }
  return Wait(wait, cancel);
}

Result<std::shared_ptr<HttpTransport>> RestClient::Prepare(const RestRequest& request,
                                                           HttpCall* call) const {
  Result<RequestCredentials> credentials = credentials_.Get(clock_->Now());
  if (!credentials.ok()) {
    return Status(credentials.status().code(), "getting credentials for " + config_.server + ": " +
                                                   credentials.status().message());
  }
  call->method = request.method;
  call->target = request.path + request.query;
  call->headers = {{"User-Agent", user_agent_}, {"Accept", "application/json"}};
  if (!credentials->authorization.empty()) {
    call->headers.emplace_back("Authorization", credentials->authorization);
  }
  if (request.body) {
    call->headers.emplace_back("Content-Type", request.content_type);
    call->body = *request.body;
  }
  MutexLock lock(&mu_);
  if (credentials->client_cert_pem != transport_cert_) {
    // An exec plugin handed out a (new) client certificate: TLS contexts hold one each.
    TransportOptions options = transport_->options();
    options.tls.client_cert_pem = credentials->client_cert_pem;
    options.tls.client_key_pem = credentials->client_key_pem;
    if (credentials->client_cert_pem.empty()) options.tls = config_.tls;
    ASSIGN_OR_RETURN(std::unique_ptr<HttpTransport> transport, HttpTransport::Create(options));
    retired_dials_ += transport_->dial_count();
    transport_ = std::move(transport);
    transport_cert_ = credentials->client_cert_pem;
  }
  return transport_;
}

Result<HttpAnswer> RestClient::Send(const RestRequest& request, CancelToken* cancel) const {
  const RetryRequest what{request.method, std::string(PathOf(request.path))};
  for (int attempt = 1;; ++attempt) {
    if (!Throttle(cancel)) return Status(Code::kServiceUnavailable, "request canceled");
    HttpCall call;
    ASSIGN_OR_RETURN(std::shared_ptr<HttpTransport> transport, Prepare(request, &call));
    Result<HttpAnswer> answer = transport->RoundTrip(call, cancel);
    AttemptOutcome outcome;
    if (!answer.ok()) {
      if (!IsTransientTransportError(answer.status()) || (cancel && cancel->cancelled())) {
        return answer.status();
      }
      outcome = AttemptOutcome::ConnectionError(answer.status().message());
    } else {
      if (answer->status == 401) credentials_.Invalidate();
      outcome = AttemptOutcome::Http(answer->status, answer->Header("Retry-After"));
      if (!RetryPolicy::IsRetryable(request.method, outcome)) return answer;
    }
    RetryDecision decision;
    {
      MutexLock lock(&mu_);
      decision = retry_.Decide(what, outcome, attempt);
    }
    Logger("rest")->warn("{}", decision.message);
    if (!decision.retry) return answer;
    if (!Wait(decision.delay, cancel)) return Status(Code::kServiceUnavailable, "request canceled");
  }
}

Result<HttpAnswer> RestClient::Stream(const RestRequest& request, const ObjectCallback& on_object,
                                      CancelToken* cancel) const {
  if (!Throttle(cancel)) return Status(Code::kServiceUnavailable, "request canceled");
  HttpCall call;
  ASSIGN_OR_RETURN(std::shared_ptr<HttpTransport> transport, Prepare(request, &call));
  Result<HttpAnswer> answer = transport->Stream(call, on_object, cancel);
  if (answer.ok() && answer->status == 401) credentials_.Invalidate();
  return answer;
}

Result<Json> RestClient::SendJson(const RestRequest& request) const {
  ASSIGN_OR_RETURN(HttpAnswer answer, Send(request));
  return DecodeAnswer(answer, request.method, config_.server + request.path + request.query);
}

std::string RestClient::WriteQuery(bool apply) const {
  std::vector<std::pair<std::string, std::string>> parameters;
  if (!options_.field_manager.empty())
    parameters.emplace_back("fieldManager", options_.field_manager);
  if (apply) parameters.emplace_back("force", "true");
  return QueryString(parameters);
}

Result<store::ObjectPtr> RestClient::SendForObject(const RestRequest& request) const {
  ASSIGN_OR_RETURN(Json answer, SendJson(request));
  return client::AnswerObject(std::move(answer));
}

Result<store::ObjectPtr> RestClient::Create(const client::Resource& resource, Json object) const {
  const std::string body = object.dump();
  return SendForObject({"POST", resource.Path(Namespace(object)), WriteQuery(), &body});
}

Result<store::ObjectPtr> RestClient::Update(const client::Resource& resource, Json object) const {
  const std::string body = object.dump();
  return SendForObject(
      {"PUT", resource.Path(Namespace(object), Name(object)), WriteQuery(), &body});
}

Result<store::ObjectPtr> RestClient::UpdateStatus(const client::Resource& resource,
                                                  Json object) const {
  const std::string body = object.dump();
  return SendForObject(
      {"PUT", resource.Path(Namespace(object), Name(object), "status"), WriteQuery(), &body});
}

Result<store::ObjectPtr> RestClient::Patch(const client::Resource& resource, const std::string& ns,
                                           const std::string& name, client::PatchType type,
                                           const Json& patch,
                                           const std::string& subresource) const {
  const std::string body = patch.dump();
  const bool apply = type == client::PatchType::kApply;
  return SendForObject({"PATCH", resource.Path(ns, name, subresource), WriteQuery(apply), &body,
                        std::string(client::PatchContentType(type))});
}

Result<store::ObjectPtr> RestClient::Delete(const client::Resource& resource, const std::string& ns,
                                            const std::string& name,
                                            const client::DeleteOptions& options) const {
  const std::string body = client::DeleteOptionsBody(options).dump();
  return SendForObject({"DELETE", resource.Path(ns, name), "", &body});
}

Status RestClient::Bind(const std::string& ns, const std::string& pod, const std::string& pod_uid,
                        const std::string& node) const {
  const std::string body = client::BindingBody(ns, pod, pod_uid, node).dump();
  Result<Json> answer =
      SendJson({"POST", client::kPods.Path(ns, pod, "binding"), WriteQuery(), &body});
  return answer.ok() ? Status::Ok() : answer.status();
}

Result<std::unique_ptr<client::Subscription>> RestClient::Watch(
    EventLoop* loop, const client::Resource& resource, const std::string& ns,
    client::WatchHandler handler) const {
  return StartRestWatch(this, loop, resource, ns, std::move(handler));
}

}  // namespace lws::rest
