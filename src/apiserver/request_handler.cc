// File: apiserver/request_handler.cc
//
// Dispatch from the target and method to a verb, and the response helpers every verb shares.
#include "apiserver/request_handler.h"

#include "apiserver/status_json.h"
#include "base/log.h"
#include "store/document_object.h"

namespace lws::apiserver {

RequestHandler::RequestHandler(ApiServer* server, const ApiRequest& request,
                               std::shared_ptr<const ServedResources> served,
                               admission::UserInfo user)
    : server_(server),
      user_(std::move(user)),
      request_(request),
      target_(request.target),
      served_(std::move(served)),
      store_(server->options_.store),
      now_(server->options_.clock->Now()) {}

Answer RequestHandler::Run() {
  if (target_.kind == TargetKind::kResource) return RunResource();
  return RunDiscovery();
}

Answer RequestHandler::RunDiscovery() {
  if (request_.method != "GET" && request_.method != "HEAD") {
    return ErrorResponse(target_.kind == TargetKind::kUnknown ? UnknownPathError()
                                                              : MethodNotAllowedError());
  }
  Result<Answer> response = Status(Code::kNotFound, "");
  switch (target_.kind) {
    case TargetKind::kVersion:
      response = Version();
      break;
    case TargetKind::kHealth:
      response = Health();
      break;
    case TargetKind::kCoreVersions:
      response = CoreVersionsOrAggregated(true);
      break;
    case TargetKind::kGroupList:
      response = CoreVersionsOrAggregated(false);
      break;
    case TargetKind::kGroup:
      response = GroupDocument();
      break;
    case TargetKind::kResourceList:
      response = ResourceListDocument();
      break;
    case TargetKind::kOpenApiV2:
      response = OpenApiV2Document();
      break;
    case TargetKind::kOpenApiRoot:
      response = OpenApiRootDocument();
      break;
    case TargetKind::kOpenApiDoc:
      response = OpenApiGroupDocument();
      break;
    default:
      response = UnknownPathError();
      break;
  }
  if (!response.ok()) return ErrorResponse(response.status());
  return std::move(*response);
}

Result<Answer> RequestHandler::ResourceAnswer() {
  info_ = served_->registry.Find(target_.group, target_.version, target_.resource);
  bool shape_ok = info_ != nullptr && (info_->namespaced || target_.namespace_.empty()) &&
                  (!info_->namespaced || !target_.namespace_.empty() || target_.name.empty());
  if (!shape_ok) {
    info_ = nullptr;
    return UnknownPathError();
  }
  Result<Answer> response = target_.subresource.empty() ? RunVerb() : RunSubresource();
  auto log = Logger("apiserver");
  if (response.ok() && log->should_log(spdlog::level::debug)) {
    log->debug("{} {} -> {}", request_.method, request_.log_target, response->http.status);
  }
  return response;
}

Answer RequestHandler::RunResource() {
  Result<Answer> response = ResourceAnswer();
  if (!response.ok()) return ErrorResponse(response.status());
  AddWarnings(&response->http);
  return std::move(*response);
}

Result<store::ObjectPtr> RequestHandler::RunWrite() {
  Result<Answer> response = ResourceAnswer();
  if (!response.ok()) {
    LogIfInternal(response.status());
    return response.status();
  }
  return PortAnswer(std::move(*response), request_);
}

Result<store::ObjectPtr> PortAnswer(Answer answer, const ApiRequest& request) {
  if (answer.object) return std::move(answer.object);
  const transport::HttpResponse& response = answer.http;
  // A Status document (a delete of an object that is gone at once, a binding) or an answer the
  // handler built as JSON.
  Json document = Json::parse(response.body, nullptr, /*allow_exceptions=*/false);
  // A refusal some handlers answer themselves (an eviction's 429 carries Retry-After).
  if (response.status >= 300) return store::StatusFromDocument(response.status, document);
  if (document.is_discarded()) {
    return Status::Internal("unparseable answer to " + request.method + " " + request.log_target);
  }
  return store::DocumentObject(std::move(document));
}

Result<Answer> RequestHandler::RunVerb() {
  const std::string& m = request_.method;
  if (info_->create_only) {
    if (m == "POST" && target_.name.empty()) return Review();
    return MethodNotAllowedError();
  }
  if (target_.name.empty()) {
    if (m == "GET") return target_.query.GetBool("watch") ? Watch() : List();
    if (m == "POST") return Create();
    if (m == "DELETE") return DeleteCollection();
  } else {
    if (m == "GET") return Get();
    if (m == "PUT") return Update(false);
    if (m == "PATCH") return Patch("");
    if (m == "DELETE") return Delete();
  }
  return MethodNotAllowedError();
}

Result<Answer> RequestHandler::RunSubresource() {
  const std::string& sub = target_.subresource;
  const std::string& m = request_.method;
  if (target_.name.empty()) return UnknownPathError();
  if (sub == "status" && info_->has_status) {
    if (m == "GET") return GetStatus();
    if (m == "PUT") return Update(true);
    if (m == "PATCH") return Patch("status");
    return MethodNotAllowedError();
  }
  if (sub == "scale" && info_->scale.has_value()) return Scale();
  if (sub == "binding" && info_->resource == "pods" && info_->group.empty()) {
    if (m == "POST") return Binding();
    return MethodNotAllowedError();
  }
  if (sub == "eviction" && info_->resource == "pods" && info_->group.empty()) {
    if (m == "POST") return Eviction();
    return MethodNotAllowedError();
  }
  const bool core_pods = info_->resource == "pods" && info_->group.empty();
  if (sub == "log" && core_pods && server_->pod_log_source() != nullptr) return PodLog();
  if ((sub == "log" || sub == "exec" || sub == "attach" || sub == "portforward" ||
       sub == "ephemeralcontainers") &&
      core_pods) {
    return KubeletSubresource();
  }
  if (sub == "token" && info_->resource == "serviceaccounts" && info_->group.empty()) {
    if (m == "POST") return IssueServiceAccountToken();
    return MethodNotAllowedError();
  }
  if (sub == "finalize" && info_->resource == "namespaces" && info_->group.empty()) {
    if (m == "PUT") return Update(false);
    return MethodNotAllowedError();
  }
  return UnknownPathError();
}

Answer RequestHandler::ObjectResponse(int code, const store::ObjectPtr& object) {
  Answer answer;
  answer.http.status = code;
  answer.http.headers.Add("Content-Type", "application/json");
  if (!request_.in_process) answer.http.body = object->bytes();
  answer.object = object;
  return answer;
}

Answer RequestHandler::JsonResponse(int code, const Json& body, std::string content_type) {
  transport::HttpResponse response;
  response.status = code;
  response.headers.Add("Content-Type", std::move(content_type));
  response.body = store::Serialize(body);
  return response;
}

transport::HttpResponse RequestHandler::ErrorResponse(const Status& status) {
  StatusContext context{info_, target_.name.empty() ? body_name_ : target_.name};
  transport::HttpResponse response =
      JsonResponse(status.http_code(), StatusJson(status, context)).http;
  AddWarnings(&response);
  LogIfInternal(status);
  return response;
}

void RequestHandler::LogIfInternal(const Status& status) const {
  if (status.code() != Code::kInternal) return;
  Logger("apiserver")->error("{} {}: {}", request_.method, request_.log_target, status.message());
}

void RequestHandler::AddWarnings(transport::HttpResponse* response) const {
  for (const std::string& warning : warnings_) {
    response->headers.Add("Warning", "299 - " + api::GoQuote(warning));
  }
}

bool RequestHandler::DryRun() const { return request_.options.dry_run; }

Result<FieldValidation> RequestHandler::FieldValidationMode() const {
  const std::string& mode = request_.options.field_validation;
  if (mode.empty() || mode == "Warn") return FieldValidation::kWarn;
  if (mode == "Strict") return FieldValidation::kStrict;
  if (mode == "Ignore") return FieldValidation::kIgnore;
  return Status::BadRequest("fieldValidation must be one of Ignore, Warn, or Strict, got " + mode);
}

std::string RequestHandler::FieldManager() const {
  const std::string& manager = request_.options.field_manager;
  return manager.empty() ? request_.default_field_manager : manager;
}

}  // namespace lws::apiserver
