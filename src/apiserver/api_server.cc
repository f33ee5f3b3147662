// File: apiserver/api_server.cc
#include "apiserver/api_server.h"

#include "api/disaggregatedset_crd.h"
#include "api/lws_crd.h"
#include "api/priority_class.h"
#include "apiserver/access_review.h"
#include "apiserver/list_types.h"
#include "apiserver/priority_admission.h"
#include "apiserver/protobuf_response.h"
#include "apiserver/quota_admission.h"
#include "apiserver/rbac_escalation.h"
#include "apiserver/request_handler.h"
#include "apiserver/status_json.h"
#include "base/assert.h"
#include "base/log.h"

namespace lws::apiserver {
namespace {

const api::ResourceInfo& Builtin(const api::ResourceRegistry& registry, const char* group,
                                 const char* resource) {
  const api::ResourceInfo* info = registry.Find(group, "v1", resource);
  LWS_ASSERT(info != nullptr, "built-in resource missing from the registry");
  return *info;
}

std::string VersionKey(const api::ResourceInfo& info) {
  return info.group + "/" + info.version + "/" + info.resource;
}

// The compiled schema of a custom resource version: `previous`'s when its schema there is the
// same (installing one CRD does not recompile the others), else compiled now.
Result<std::shared_ptr<const api::StructuralSchema>> SchemaOf(const api::ResourceInfo& info,
                                                              const ServedResources* previous) {
  if (previous != nullptr) {
    auto kept = previous->schemas_by_version.find(VersionKey(info));
    const api::ResourceInfo* was = previous->registry.Find(info.group, info.version, info.resource);
    if (kept != previous->schemas_by_version.end() && was != nullptr &&
        was->openapi_schema == info.openapi_schema) {
      return kept->second;
    }
  }
  ASSIGN_OR_RETURN(api::StructuralSchema schema,
                   api::StructuralSchema::Compile(info.openapi_schema));
  for (const std::string& skipped : schema.SkippedRules()) {
    Logger("apiserver")
        ->warn("{}: x-kubernetes-validations rule not evaluated: {}", info.GroupResource(),
               skipped);
  }
  return std::make_shared<const api::StructuralSchema>(std::move(schema));
}

// The derived documents of a registry: compiled CRD schemas (those of `previous`, the snapshot
// it replaces, kept where unchanged) and list types; OpenAPI when first asked for.
Result<std::shared_ptr<const ServedResources>> BuildServed(
    api::ResourceRegistry registry, const ServedResources* previous = nullptr) {
  auto served = std::make_shared<ServedResources>();
  for (const api::ResourceInfo* info : registry.All()) {
    served->list_types[info->GroupResource()] = ListTypesFor(*info);
    if (!info->custom || info->openapi_schema.is_null()) continue;
    ASSIGN_OR_RETURN(std::shared_ptr<const api::StructuralSchema> schema,
                     SchemaOf(*info, previous));
    served->schemas_by_version[VersionKey(*info)] = schema;
    served->schemas[info->GroupResource()] = std::move(schema);
  }
  served->registry = std::move(registry);
  return std::shared_ptr<const ServedResources>(std::move(served));
}

transport::HttpResponse StatusAnswer(const Status& status) {
  transport::HttpResponse response;
  response.status = status.http_code();
  response.headers.Add("Content-Type", "application/json");
  response.body = StatusJson(status).dump();
  return response;
}

}  // namespace

ApiServer::ApiServer(ApiServerOptions options)
    : options_(std::move(options)), server_address_(options_.server_address) {}

Result<std::unique_ptr<ApiServer>> ApiServer::Create(ApiServerOptions options) {
  LWS_ASSERT(options.store != nullptr && options.clock != nullptr,
             "ApiServerOptions needs a store and a clock");
  store::Store* store = options.store;
  WebhookCaller caller = std::move(options.webhook_caller);
  options.admission.AddFirst(NewPriorityAdmission(store));
  options.admission.Add(NewWebhookAdmission({store, std::move(caller)}));
  // Last, as kube-apiserver orders ResourceQuota after the webhooks: only what every other
  // plugin admitted is counted.
  options.admission.Add(NewQuotaAdmission(store));
  ASSIGN_OR_RETURN(std::unique_ptr<TokenSigner> signer,
                   TokenSigner::Create(options.token_key_file));
  std::unique_ptr<ApiServer> server(new ApiServer(std::move(options)));
  if (!server->options_.audit_log_path.empty()) {
    ASSIGN_OR_RETURN(server->audit_,
                     AuditLog::Open(server->options_.audit_log_path, server->options_.clock));
  }
  server->authenticator_ = std::make_unique<Authenticator>(
      store, server->options_.clock, server->options_.token, std::move(signer));
  if (server->authenticator_->enabled()) {
    server->authorizer_ = std::make_unique<Authorizer>(store);
    // Before the webhooks, as kube-apiserver checks escalation in the RBAC registry.
    server->options_.admission.AddFirst(NewRbacEscalationAdmission(server->authorizer_.get()));
    RETURN_IF_ERROR(SeedBootstrapPolicy(store));
  }
  ASSIGN_OR_RETURN(server->served_at_start(), BuildServed(api::ResourceRegistry::WithBuiltins()));
  RETURN_IF_ERROR(server->LoadStoredCrds());
  RETURN_IF_ERROR(server->SeedNamespaces());
  RETURN_IF_ERROR(server->SeedPriorityClasses());
  if (server->options_.install_lws_crd) {
    RETURN_IF_ERROR(server->InstallCrd(api::LwsCrd(), "LeaderWorkerSet"));
  }
  if (server->options_.install_disaggregatedset_crds) {
    RETURN_IF_ERROR(server->InstallCrd(api::DisaggregatedSetCrd(), "DisaggregatedSet"));
    RETURN_IF_ERROR(
        server->InstallCrd(api::DisaggregatedSetRoleScalerCrd(), "DisaggregatedSetRoleScaler"));
  }
  return server;
}

std::shared_ptr<const ServedResources> ApiServer::served() const {
  MutexLock lock(&mu_);
  return served_;
}

void ApiServer::set_server_address(std::string address) {
  MutexLock lock(&mu_);
  server_address_ = std::move(address);
}

transport::HttpResponse ApiServer::Handle(const transport::HttpRequest& request) {
  if (audit_ == nullptr) return HandleAuthenticated(request, nullptr);
  const Time received = options_.clock->Now();
  AuthorizationAttributes attributes;
  transport::HttpResponse response = HandleAuthenticated(request, &attributes);
  audit_->Record(attributes, request, received, response.status);
  return response;
}

transport::HttpResponse ApiServer::HandleAuthenticated(const transport::HttpRequest& request,
                                                       AuthorizationAttributes* audited) {
  Result<admission::UserInfo> user = authenticator_->Authenticate(request);
  Result<RequestTarget> target = ParseRequestTarget(request.target);
  if (audited != nullptr) {
    if (target.ok()) *audited = AttributesFor(request.method, *target);
    audited->user = user.ok() ? *user : admission::UserInfo{.name = "system:anonymous"};
  }
  if (!user.ok()) return StatusAnswer(user.status());
  if (!target.ok()) return StatusAnswer(target.status());
  if (std::optional<Json> refused = Refusal(request.method, *target, *user, audited)) {
    transport::HttpResponse response;
    response.status = 403;
    response.headers.Add("Content-Type", "application/json");
    response.body = refused->dump();
    return response;
  }
  ApiRequest api_request = FromHttp(request, std::move(*target));
  transport::HttpResponse response =
      AddressesEventsV1(api_request.target)
          ? HandleEventsV1(api_request, *user).http
          : RequestHandler(this, api_request, served(), *user).Run().http;
  if (PrefersProtobuf(api_request.accept)) EncodeAsProtobuf(&response);
  return response;
}

std::optional<Json> ApiServer::Refusal(const std::string& method, const RequestTarget& target,
                                       const admission::UserInfo& user,
                                       const AuthorizationAttributes* known) const {
  if (authorizer_ == nullptr) return std::nullopt;
  AuthorizationAttributes computed;
  if (known == nullptr) {
    computed = AttributesFor(method, target);
    computed.user = user;
  }
  const AuthorizationAttributes& attributes = known != nullptr ? *known : computed;
  AuthorizationDecision decision = authorizer_->Authorize(attributes);
  if (decision.allowed) return std::nullopt;
  Logger("apiserver")
      ->info("forbidden: {} {} by {}: {}", method, target.path, user.name,
             decision.reason.empty() ? "no RBAC rule allows it" : decision.reason);
  return ForbiddenStatusJson(attributes, decision.reason);
}

Status ApiServer::SeedNamespaces() {
  const api::ResourceInfo& namespaces = Builtin(served_at_start()->registry, "", "namespaces");
  for (const char* name : {"default", "kube-system", "kube-public", "kube-node-lease"}) {
    if (options_.store->Get(namespaces, "", name).ok()) continue;
    Json ns = {{"apiVersion", "v1"},
               {"kind", "Namespace"},
               {"metadata", {{"name", name}, {"labels", {{"kubernetes.io/metadata.name", name}}}}},
               {"spec", {{"finalizers", {"kubernetes"}}}}};
    store::CreateOptions create;
    create.initial_status = {{"phase", "Active"}};
    RETURN_IF_ERROR(options_.store->Create(namespaces, std::move(ns), create).status());
  }
  return Status::Ok();
}

Status ApiServer::SeedPriorityClasses() {
  const api::ResourceInfo& classes =
      Builtin(served_at_start()->registry, "scheduling.k8s.io", "priorityclasses");
  for (api::Json pc : api::SystemPriorityClasses()) {
    if (options_.store->Get(classes, "", store::MetaString(pc, "name")).ok()) continue;
    RETURN_IF_ERROR(
        options_.store->Create(classes, std::move(pc), store::CreateOptions{}).status());
  }
  return Status::Ok();
}

Status ApiServer::LoadStoredCrds() {
  const api::ResourceInfo& crds =
      Builtin(served_at_start()->registry, "apiextensions.k8s.io", "customresourcedefinitions");
  ASSIGN_OR_RETURN(store::ListResult list, options_.store->List(crds, {}));
  if (list.items.empty()) return Status::Ok();
  api::ResourceRegistry registry = served_at_start()->registry;
  for (const store::ObjectPtr& crd : list.items) {
    Status added = registry.AddCustomResource(crd->document());
    if (!added.ok()) {
      Logger("apiserver")->warn("not serving stored CRD {}: {}", crd->name().name, added.message());
    }
  }
  ASSIGN_OR_RETURN(served_at_start(), BuildServed(std::move(registry)));
  return Status::Ok();
}

Status ApiServer::InstallCrd(const api::Json& crd, std::string_view what) {
  const api::ResourceInfo& crds =
      Builtin(served_at_start()->registry, "apiextensions.k8s.io", "customresourcedefinitions");
  std::string name = store::MetaString(crd, "name");
  if (options_.store->Get(crds, "", name).ok()) return Status::Ok();
  // Through the same path as `kubectl create -f crd.yaml`, so the CRD gets its status too.
  WriteCall call;
  call.group = "apiextensions.k8s.io";
  call.version = "v1";
  call.resource = "customresourcedefinitions";
  call.body = crd;
  call.field_manager = "lws";
  Result<store::ObjectPtr> created = Write(std::move(call));
  if (!created.ok()) {
    return Status(Code::kInternal, "installing the " + std::string(what) +
                                       " CRD failed: " + created.status().message());
  }
  return Status::Ok();
}

Status ApiServer::ApplyCrdChange(const api::Json* crd, const std::string& crd_name) {
  MutexLock lock(&mu_);
  api::ResourceRegistry registry = served_->registry;
  if (crd != nullptr) {
    RETURN_IF_ERROR(registry.AddCustomResource(*crd));
  } else {
    registry.RemoveCustomResource(crd_name);
  }
  ASSIGN_OR_RETURN(served_, BuildServed(std::move(registry), served_.get()));
  return Status::Ok();
}

const std::vector<OpenApiDocument>& ServedResources::openapi() const {
  std::call_once(openapi_once_, [this] { openapi_ = OpenApiDocuments(registry); });
  return openapi_;
}

}  // namespace lws::apiserver
