// File: apiserver/authorizer.cc
#include "apiserver/authorizer.h"

#include "admission/admission.h"
#include "apiserver/rbac_bootstrap.h"

namespace lws::apiserver {
namespace {

const char kRbacGroup[] = "rbac.authorization.k8s.io";

}  // namespace

Authorizer::Authorizer(store::Store* store)
    : store_(store),
      resources_{&admission::BuiltinResource(kRbacGroup, "roles"),
                 &admission::BuiltinResource(kRbacGroup, "clusterroles"),
                 &admission::BuiltinResource(kRbacGroup, "rolebindings"),
                 &admission::BuiltinResource(kRbacGroup, "clusterrolebindings")} {}

std::shared_ptr<const RbacPolicy> Authorizer::Policy() const {
  // Read before listing: a write in between makes the next call build again.
  std::array<std::uint64_t, 4> last_write;
  for (std::size_t i = 0; i < resources_.size(); ++i)
    last_write[i] = store_->LastWrite(*resources_[i]);
  {
    MutexLock lock(&mu_);
    if (policy_ != nullptr && last_write == built_at_) return policy_;
  }
  std::array<store::ListResult, 4> lists;
  for (std::size_t i = 0; i < resources_.size(); ++i) {
    Result<store::ListResult> list = store_->List(*resources_[i], store::ListOptions{});
    if (list.ok()) lists[i] = std::move(*list);
  }
  RbacObjects objects;
  std::array<std::vector<const Json*>*, 4> into = {&objects.roles, &objects.cluster_roles,
                                                   &objects.role_bindings,
                                                   &objects.cluster_role_bindings};
  for (std::size_t i = 0; i < lists.size(); ++i) {
    for (const store::ObjectPtr& item : lists[i].items) into[i]->push_back(&item->document());
  }
  std::shared_ptr<const RbacPolicy> policy = RbacPolicy::Build(objects);
  MutexLock lock(&mu_);
  policy_ = policy;
  built_at_ = last_write;
  return policy;
}

AuthorizationDecision Authorizer::Authorize(const AuthorizationAttributes& attributes) const {
  if (attributes.user.InGroup(admission::kMastersGroup)) return {true, ""};
  return Policy()->Authorize(attributes);
}

Json ForbiddenStatusJson(const AuthorizationAttributes& a, std::string_view reason) {
  std::string why = ForbiddenMessage(a);
  if (!reason.empty()) why += ": " + std::string(reason);
  Json details = Json::object();
  std::string message;
  if (!a.resource_request) {
    message = "forbidden: " + why;
  } else {
    const std::string qualified = a.api_group.empty() ? a.resource : a.resource + "." + a.api_group;
    message = a.name.empty() ? qualified + " is forbidden: " + why
                             : qualified + " " + api::GoQuote(a.name) + " is forbidden: " + why;
    if (!a.name.empty()) details["name"] = a.name;
    if (!a.api_group.empty()) details["group"] = a.api_group;
    details["kind"] = a.resource;
  }
  return {{"kind", "Status"},    {"apiVersion", "v1"}, {"metadata", Json::object()},
          {"status", "Failure"}, {"message", message}, {"reason", "Forbidden"},
          {"details", details},  {"code", 403}};
}

Status SeedBootstrapPolicy(store::Store* store) {
  const std::pair<const char*, std::vector<Json>> seeds[] = {
      {"clusterroles", BootstrapClusterRoles()},
      {"clusterrolebindings", BootstrapClusterRoleBindings()}};
  for (const auto& [resource, objects] : seeds) {
    const api::ResourceInfo& info = admission::BuiltinResource(kRbacGroup, resource);
    for (const Json& object : objects) {
      if (store->Contains(info, "", store::MetaString(object, "name"))) continue;
      RETURN_IF_ERROR(store->Create(info, object, store::CreateOptions{}).status());
    }
  }
  return Status::Ok();
}

}  // namespace lws::apiserver
