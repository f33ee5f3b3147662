#include "client/local/local_client.h"

#include <utility>

#include "client/request_bodies.h"
#include "store/object.h"

namespace lws::client {

namespace {

std::string Namespace(const Json& object) { return store::MetaString(object, "namespace"); }
std::string Name(const Json& object) { return store::MetaString(object, "name"); }

}  // namespace

LocalClient::LocalClient(apiserver::WritePort* writes, store::Store* store,
                         std::string field_manager)
    : writes_(writes), store_(store), field_manager_(std::move(field_manager)) {}

apiserver::WriteCall LocalClient::Call(apiserver::WriteVerb verb, const Resource& resource,
                                       std::string ns, std::string name,
                                       std::string subresource) const {
  apiserver::WriteCall call;
  call.verb = verb;
  call.group = resource.group;
  call.version = resource.version;
  call.resource = resource.resource;
  if (resource.namespaced) call.namespace_ = std::move(ns);  // as Resource::Path ignores it
  call.name = std::move(name);
  call.subresource = std::move(subresource);
  call.field_manager = field_manager_;
  return call;
}

Result<store::ObjectPtr> LocalClient::Create(const Resource& resource, Json object) const {
  apiserver::WriteCall call = Call(apiserver::WriteVerb::kCreate, resource, Namespace(object));
  call.body = std::move(object);
  return writes_->Write(std::move(call));
}

Result<store::ObjectPtr> LocalClient::Update(const Resource& resource, Json object) const {
  apiserver::WriteCall call =
      Call(apiserver::WriteVerb::kUpdate, resource, Namespace(object), Name(object));
  call.body = std::move(object);
  return writes_->Write(std::move(call));
}

Result<store::ObjectPtr> LocalClient::UpdateStatus(const Resource& resource, Json object) const {
  apiserver::WriteCall call =
      Call(apiserver::WriteVerb::kUpdate, resource, Namespace(object), Name(object), "status");
  call.body = std::move(object);
  return writes_->Write(std::move(call));
}

Result<store::ObjectPtr> LocalClient::FinalizeNamespace(Json ns) const {
  apiserver::WriteCall call =
      Call(apiserver::WriteVerb::kUpdate, kNamespaces, "", Name(ns), "finalize");
  call.body = std::move(ns);
  return writes_->Write(std::move(call));
}

Result<store::ObjectPtr> LocalClient::Patch(const Resource& resource, const std::string& ns,
                                            const std::string& name, client::PatchType type,
                                            const Json& patch,
                                            const std::string& subresource) const {
  apiserver::WriteCall call = Call(apiserver::WriteVerb::kPatch, resource, ns, name, subresource);
  call.patch_type = type;
  call.body = patch;
  return writes_->Write(std::move(call));
}

Result<store::ObjectPtr> LocalClient::Delete(const Resource& resource, const std::string& ns,
                                             const std::string& name,
                                             const DeleteOptions& options) const {
  apiserver::WriteCall call = Call(apiserver::WriteVerb::kDelete, resource, ns, name);
  call.body = DeleteOptionsBody(options);
  return writes_->Write(std::move(call));
}

Status LocalClient::Bind(const std::string& ns, const std::string& pod, const std::string& pod_uid,
                         const std::string& node) const {
  apiserver::WriteCall call = Call(apiserver::WriteVerb::kCreate, kPods, ns, pod, "binding");
  call.body = BindingBody(ns, pod, pod_uid, node);
  return writes_->Write(std::move(call)).status();
}

Status LocalClient::Evict(const std::string& ns, const std::string& pod) const {
  apiserver::WriteCall call = Call(apiserver::WriteVerb::kCreate, kPods, ns, pod, "eviction");
  call.body = EvictionBody(ns, pod);
  return writes_->Write(std::move(call)).status();
}

}  // namespace lws::client
