// File: apiserver/api_server.h
//
// The Kubernetes API as an HttpHandler: routing, discovery, OpenAPI, CRUD with the API
// machinery of kube-apiserver (kubectl-compat.md), watches as ResponseStreams, CRDs that add
// resources at run time, and an admission chain. It owns no socket and no thread: the transport
// (http_server.h) calls Handle on its I/O threads, tests call it directly.
//
// The set of served resources changes when CRDs are created or deleted. Each request works on
// one immutable snapshot of the registry (copy on write), so a request never sees half a change
// and a ResourceInfo it holds stays valid for as long as it runs or streams.
//
// Writes pass the admission chain: the in-process plugins of the options, then the webhooks that
// Mutating/ValidatingWebhookConfiguration objects register (webhook_admission.h).
//
// At start the server seeds what every cluster has (namespaces default, kube-system,
// kube-public, kube-node-lease) and, unless told not to, installs the upstream LeaderWorkerSet
// CRD, so a LeaderWorkerSet behaves as after `kubectl apply -f` of that CRD. With a persistent
// store, CRDs stored by an earlier run are served again before the first request.
#pragma once

#include <atomic>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "admission/admission.h"
#include "api/resources.h"
#include "api/schema.h"
#include "apiserver/api_request.h"
#include "apiserver/apply_schema.h"
#include "apiserver/audit_log.h"
#include "apiserver/authenticator.h"
#include "apiserver/authorizer.h"
#include "apiserver/openapi.h"
#include "apiserver/request_target.h"
#include "apiserver/shape_marks.h"
#include "apiserver/webhook_admission.h"
#include "apiserver/write_port.h"
#include "base/clock.h"
#include "base/mutex.h"
#include "base/result.h"
#include "podlog/container_log.h"
#include "store/store.h"
#include "transport/http.h"

namespace lws::apiserver {

struct Answer;  // answer.h

struct ApiServerOptions {
  store::Store* store = nullptr;  // REQUIRED; must outlive the server
  const Clock* clock = nullptr;   // REQUIRED; Age cells, managedFields times, events
  // The administrator's bearer token. Set: authentication and RBAC are on (authenticator.h,
  // authorizer.h), and the bootstrap RBAC policy is seeded. "": every caller is the
  // administrator (the local cluster's insecure mode).
  std::string token;
  // Where the ServiceAccount token signing key is kept (0600); none: a new key each start.
  std::optional<std::filesystem::path> token_key_file;
  // Where the audit log goes (audit_log.h); "": none.
  std::string audit_log_path;
  // host:port clients reach the server at (GET /api serverAddressByClientCIDRs).
  std::string server_address = "127.0.0.1:6443";
  bool install_lws_crd = true;
  // The DisaggregatedSet and DisaggregatedSetRoleScaler CRDs (api/disaggregatedset_crd.h): on in
  // `lws up` and `lws apiserver`, off by default so that tests see only what they install.
  bool install_disaggregatedset_crds = false;
  // In-process plugins (the LWS webhooks of controllers/admission). The server appends the
  // dynamic admission webhooks (webhook_admission.h) after them, always.
  admission::AdmissionChain admission;
  // Posts AdmissionReviews to the registered webhooks; null: every call fails (failurePolicy
  // decides).
  WebhookCaller webhook_caller;
};

// What the server serves at one moment: the registry, plus what is derived from it once.
struct ServedResources {
  api::ResourceRegistry registry;
  // OpenAPI per group/version, made on the first request for it: a CRD change makes a new
  // snapshot, and most snapshots (every one of a simulated world) are never asked for it.
  const std::vector<OpenApiDocument>& openapi() const;
  // Compiled structural schemas of custom resources, by GroupResource() "x.group".
  std::map<std::string, std::shared_ptr<const api::StructuralSchema>> schemas;
  // The same by "group/version/resource", kept so that the next snapshot compiles only the
  // schemas that changed.
  std::map<std::string, std::shared_ptr<const api::StructuralSchema>> schemas_by_version;
  // List types for managedFields and apply, by GroupResource(): every resource.
  std::map<std::string, ListTypeProvider> list_types;
  // The versions that passed the shape check under these list types (shape_marks.h).
  mutable ShapeMarks shape_marks;

 private:
  mutable std::once_flag openapi_once_;
  mutable std::vector<OpenApiDocument> openapi_;
};

// Whether `target` addresses events.k8s.io/v1 events (served from core/v1, event_versions.h).
bool AddressesEventsV1(const RequestTarget& target);

class ApiServer final : public WritePort {
 public:
  static Result<std::unique_ptr<ApiServer>> Create(ApiServerOptions options);
  ApiServer(const ApiServer&) = delete;
  ApiServer& operator=(const ApiServer&) = delete;

  // Answers one HTTP request. Never throws; every failure is a metav1.Status response.
  transport::HttpResponse Handle(const transport::HttpRequest& request);
  // The write port (write_port.h), for in-process writers: no authentication (the caller is
  // trusted and names its user), no audit record, no bytes.
  Result<store::ObjectPtr> Write(WriteCall call) override;
  std::shared_ptr<const api::ResourceInfo> Served(const std::string& group,
                                                  const std::string& version,
                                                  const std::string& resource) const override;
  std::shared_ptr<const api::ResourceRegistry> ServedRegistry() const override;

  std::shared_ptr<const ServedResources> served() const;
  // The bearer token requests must carry ("" when open), for in-process clients.
  const std::string& token() const { return options_.token; }
  const Authenticator& authenticator() const { return *authenticator_; }
  // Null when authorization is off (no token: everything is allowed).
  const Authorizer* authorizer() const { return authorizer_.get(); }
  void set_server_address(std::string address);
  // Where pods/log reads container logs: the simulated kubelets of `lws up`. Null (the
  // default, `lws apiserver` alone) answers pods/log with a 400 saying no kubelet serves it.
  // The source must outlive the requests that use it: clear it, or stop the server, first.
  void set_pod_log_source(const podlog::PodLogSource* source) { pod_log_source_.store(source); }
  const podlog::PodLogSource* pod_log_source() const { return pod_log_source_.load(); }

 private:
  friend class RequestHandler;
  explicit ApiServer(ApiServerOptions options);

  // events.k8s.io/v1 events, answered from the core/v1 ones (handlers_events_v1.cc).
  Answer HandleEventsV1(const ApiRequest& request, const admission::UserInfo& user);
  // Handle without the audit record: authentication, authorization, the handlers. `audited`
  // (null when the request is not audited) receives the request's attributes and user as far as
  // they are known, computed once for the authorizer and the audit log both.
  transport::HttpResponse HandleAuthenticated(const transport::HttpRequest& request,
                                              AuthorizationAttributes* audited);
  // kube-apiserver's Forbidden Status document, or nothing when `user` may make the request;
  // `known`: the request's attributes when already computed.
  std::optional<Json> Refusal(const std::string& method, const RequestTarget& target,
                              const admission::UserInfo& user,
                              const AuthorizationAttributes* known) const;
  // served_ for Create and its start-up steps below: the server is not shared yet, so they read
  // and replace it without mu_ (InstallCrd's Write takes mu_ itself, in ApplyCrdChange).
  std::shared_ptr<const ServedResources>& served_at_start() NO_THREAD_SAFETY_ANALYSIS {
    return served_;
  }
  Status SeedNamespaces();
  // system-node-critical and system-cluster-critical (api/priority_class.h), when missing.
  Status SeedPriorityClasses();
  Status LoadStoredCrds();
  // Creates `crd` (named `what` in errors) unless a CRD of its name is stored.
  Status InstallCrd(const api::Json& crd, std::string_view what);
  // Rebuilds the served set after CRD `crd` was stored (null: deleted `crd_name`).
  Status ApplyCrdChange(const api::Json* crd, const std::string& crd_name);

  ApiServerOptions options_;
  std::unique_ptr<Authenticator> authenticator_;
  std::unique_ptr<Authorizer> authorizer_;
  std::unique_ptr<AuditLog> audit_;  // null without options.audit_log_path
  mutable Mutex mu_;
  std::shared_ptr<const ServedResources> served_ GUARDED_BY(mu_);
  std::string server_address_ GUARDED_BY(mu_);
  std::atomic<const podlog::PodLogSource*> pod_log_source_{nullptr};
};

}  // namespace lws::apiserver
