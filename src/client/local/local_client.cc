#include "client/local/local_client.h"

#include <utility>

#include "client/request_bodies.h"
#include "store/object.h"

namespace lws::client {

namespace {

std::string Namespace(const Json& object) { return store::MetaString(object, "namespace"); }
std::string Name(const Json& object) { return store::MetaString(object, "name"); }

}  // namespace

LocalClient::LocalClient(apiserver::ApiServer* server, store::Store* store,
                         std::string field_manager)
    : server_(server), store_(store), field_manager_(std::move(field_manager)) {}

Result<store::ObjectPtr> LocalClient::Send(const std::string& method, const std::string& target,
                                           Json* body, const std::string& content_type) const {
  apiserver::HttpRequest request;
  request.method = method;
  request.target = target;
  request.remote = "in-process:" + field_manager_;
  request.in_process = true;
  request.headers.Add("User-Agent", field_manager_ + "/v1.32.0 (lws-cpp in-process)");
  request.headers.Add("Accept", "application/json");
  if (!server_->token().empty()) request.headers.Add("Authorization", "Bearer " + server_->token());
  if (body) {
    request.headers.Add("Content-Type", content_type);
    request.parsed_body = body;
  }
  apiserver::HttpResponse response = server_->Handle(request);
  if (response.status < 300 && response.object) return std::move(response.object);
  Json answer = Json::parse(response.body, nullptr, /*allow_exceptions=*/false);
  if (response.status >= 300) return StatusFromAnswer(response.status, answer);
  if (answer.is_discarded()) {
    return Status::Internal("unparseable answer to " + method + " " + target);
  }
  return AnswerObject(std::move(answer));
}

Result<store::ObjectPtr> LocalClient::Create(const Resource& resource, Json object) const {
  const std::string path = resource.Path(Namespace(object));
  return Send("POST", path, &object);
}

Result<store::ObjectPtr> LocalClient::Update(const Resource& resource, Json object) const {
  const std::string path = resource.Path(Namespace(object), Name(object));
  return Send("PUT", path, &object);
}

Result<store::ObjectPtr> LocalClient::UpdateStatus(const Resource& resource, Json object) const {
  const std::string path = resource.Path(Namespace(object), Name(object), "status");
  return Send("PUT", path, &object);
}

Result<store::ObjectPtr> LocalClient::Patch(const Resource& resource, const std::string& ns,
                                            const std::string& name, client::PatchType type,
                                            const Json& patch,
                                            const std::string& subresource) const {
  std::string target = resource.Path(ns, name, subresource);
  if (type == client::PatchType::kApply)
    target += "?fieldManager=" + field_manager_ + "&force=true";
  Json body = patch;
  return Send("PATCH", target, &body, std::string(client::PatchContentType(type)));
}

Result<store::ObjectPtr> LocalClient::Delete(const Resource& resource, const std::string& ns,
                                             const std::string& name,
                                             const DeleteOptions& options) const {
  Json body = DeleteOptionsBody(options);
  return Send("DELETE", resource.Path(ns, name), &body);
}

Status LocalClient::Bind(const std::string& ns, const std::string& pod, const std::string& pod_uid,
                         const std::string& node) const {
  Json binding = BindingBody(ns, pod, pod_uid, node);
  Result<store::ObjectPtr> answer = Send("POST", kPods.Path(ns, pod, "binding"), &binding);
  return answer.ok() ? Status::Ok() : answer.status();
}

Status LocalClient::Evict(const std::string& ns, const std::string& pod) const {
  Json eviction = EvictionBody(ns, pod);
  return Send("POST", kPods.Path(ns, pod, "eviction"), &eviction).status();
}

}  // namespace lws::client
