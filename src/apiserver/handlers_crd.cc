// File: apiserver/handlers_crd.cc
//
// The side effects of writes that a real control plane performs around the object itself:
// CRDs are served as soon as they are created (and get the Established condition kubectl
// waits for), namespaces must exist (and not be Terminating) before objects go into them, a
// deleted CRD takes its custom resources, and ClusterIP services get an
// address.
#include <set>

#include "apiserver/request_handler.h"
#include "apiserver/status_json.h"
#include "base/clock.h"

namespace lws::apiserver {
namespace {

bool IsCrd(const api::ResourceInfo& info) {
  return info.group == "apiextensions.k8s.io" && info.resource == "customresourcedefinitions";
}

// True when `value` is a scalar, or a map whose members are scalars or empty maps (an initial
// status: pods' phase and qosClass, a StatefulSet's counts, a Service's empty loadBalancer).
bool HoldsNoList(const Json& value) {
  if (!value.is_object()) return !value.is_array();
  for (const auto& [key, member] : value.items()) {
    if (member.is_array() || (member.is_object() && !member.empty())) return false;
  }
  return true;
}

// Services get a ClusterIP on create, which can fail before the store is asked.
bool AllocatesClusterIp(const api::ResourceInfo& info) {
  return info.group.empty() && info.resource == "services";
}

// The status the apiextensions controllers give a CRD whose names do not conflict.
Json EstablishedStatus(const Json& crd, Time now) {
  const Json& spec = crd.value("spec", Json::object());
  std::string storage;
  for (const Json& version : spec.value("versions", Json::array())) {
    if (version.value("storage", false)) storage = api::StringMember(version, "name");
  }
  std::string at = FormatRfc3339(now);
  auto condition = [&](const char* type, const char* reason, const char* message) {
    return Json{{"type", type},
                {"status", "True"},
                {"lastTransitionTime", at},
                {"reason", reason},
                {"message", message}};
  };
  return {
      {"acceptedNames", spec.value("names", Json::object())},
      {"conditions",
       {condition("NamesAccepted", "NoConflicts", "no conflicts found"),
        condition("Established", "InitialNamesAccepted", "the initial names have been accepted")}},
      {"storedVersions", storage.empty() ? Json::array() : Json::array({storage})}};
}

}  // namespace

Status RequestHandler::CheckNamespaceExists() {
  if (!info_->namespaced) return Status::Ok();
  const api::ResourceInfo* namespaces = served_->registry.Find("", "v1", "namespaces");
  Result<store::ObjectPtr> ns = store_->Get(*namespaces, "", target_.namespace_);
  if (!ns.ok()) return NotFoundError(*namespaces, target_.namespace_);
  if (!(*ns)->document()["metadata"].value("deletionTimestamp", Json()).is_null()) {
    const std::string name = target_.name.empty() ? body_name_ : target_.name;
    return Status(Code::kForbidden,
                  info_->GroupResource() + " " + api::GoQuote(name) +
                      " is forbidden: unable to create new content in namespace " +
                      target_.namespace_ + " because it is being terminated");
  }
  return Status::Ok();
}

// A create of a taken name fails in the store, after its managedFields were recorded for
// nothing. The StatefulSet controller makes such creates for each pod whose previous incarnation
// is still terminating (upstream's does too), so the name is checked before managedFields, when
// nothing that CreateWithSideEffects or the store checks before the name could fail: the answer
// is the store's, only sooner.
Status RequestHandler::CheckNameFree(const Json& object) const {
  if (IsCrd(*info_) || AllocatesClusterIp(*info_)) return Status::Ok();  // may fail first
  if (!store::CheckCreatable(*info_, object).ok()) return Status::Ok();  // the store's errors first
  const std::string name = store::MetaString(object, "name");
  if (!store_->Contains(*info_, store::MetaString(object, "namespace"), name)) return Status::Ok();
  return store::AlreadyExistsError(*info_, name);
}

bool RequestHandler::StoresOnlyUntracked(const store::StoredObject* current, const Json& updated,
                                         std::string_view subresource) const {
  // A custom resource's status write stores the body's status over the rest of the live
  // object: all it tracks. A built-in kind's also takes the body's metadata, as a main-resource
  // write does (below); what it keeps of the live object (the spec) it does not track.
  if (subresource == "status" && api::StatusWriteOf(*info_) == api::StatusWrite::kOnlyStatus) {
    return true;
  }
  if (!subresource.empty() && subresource != "status") return false;
  // Written after the recording: a CRD's status, a Service's cluster IPs.
  if (current == nullptr && (IsCrd(*info_) || AllocatesClusterIp(*info_))) return false;
  // The store sets untracked metadata and keeps the status, which a main-resource write of a
  // kind with /status ignores; of what it tracks, it changes only the deletion fields (removed
  // on create, the live ones kept on update).
  static const Json kNone;
  const Json& live_meta =
      current != nullptr ? api::ChildOrNull(current->document(), "metadata") : kNone;
  const Json& meta = api::ChildOrNull(updated, "metadata");
  for (const char* field : {"deletionTimestamp", "deletionGracePeriodSeconds"}) {
    if (api::ChildOrNull(meta, field) != api::ChildOrNull(live_meta, field)) return false;
  }
  return true;
}

Result<store::ObjectPtr> RequestHandler::CreateWithSideEffects(
    Json object, bool shapes_checked, std::optional<store::NewEntries> managed_fields) {
  if (IsCrd(*info_)) {
    api::ResourceRegistry trial = served_->registry;
    Status valid = trial.AddCustomResource(object);
    if (!valid.ok()) return valid;
  }
  if (AllocatesClusterIp(*info_)) {
    RETURN_IF_ERROR(AllocateClusterIp(&object));
  }
  store::CreateOptions options;
  options.dry_run = DryRun();
  options.initial_status = InitialStatus(object);
  options.managed_fields = std::move(managed_fields);
  options.uid = reserved_uid_;
  ASSIGN_OR_RETURN(store::ObjectPtr created, store_->Create(*info_, std::move(object), options));
  if (IsCrd(*info_) && !options.dry_run) return EstablishCrd(created);
  // The store added scalar metadata (uid, creationTimestamp, generation...) and replaced the
  // status by the initial one: checked still, when that status holds no list. A CRD's status
  // and a Service's cluster IPs are written after the check: not marked.
  if (shapes_checked && !IsCrd(*info_) && !AllocatesClusterIp(*info_) &&
      HoldsNoList(api::ChildOrNull(created->document(), "status"))) {
    MarkShapesChecked(created, served_);
  }
  return created;
}

Result<store::ObjectPtr> RequestHandler::EstablishCrd(const store::ObjectPtr& crd) {
  Json updated = crd->document();
  updated["status"] = EstablishedStatus(crd->document(), now_);
  ASSIGN_OR_RETURN(store::ObjectPtr stored, store_->UpdateStatus(*info_, std::move(updated)));
  RETURN_IF_ERROR(server_->ApplyCrdChange(&stored->document(), ""));
  return stored;
}

Status RequestHandler::AfterWrite(const Json& stored, bool deleted) {
  if (!IsCrd(*info_)) return Status::Ok();
  if (deleted) return server_->ApplyCrdChange(nullptr, store::MetaString(stored, "name"));
  return server_->ApplyCrdChange(&stored, "");
}

Status RequestHandler::BeforeDelete(const Json& current) {
  // A namespace's content goes through the namespace controller (cluster/namespace_deleter.h)
  // while the namespace is Terminating.
  if (IsCrd(*info_)) {
    const Json& spec = current.value("spec", Json::object());
    std::string group = api::StringMember(spec, "group");
    std::string plural = api::StringMember(spec.value("names", Json::object()), "plural");
    for (const Json& version : spec.value("versions", Json::array())) {
      const api::ResourceInfo* resource =
          served_->registry.Find(group, api::StringMember(version, "name"), plural);
      if (resource != nullptr) RETURN_IF_ERROR(DeleteAllIn(*resource, ""));
    }
  }
  return Status::Ok();
}

Status RequestHandler::DeleteAllIn(const api::ResourceInfo& resource, const std::string& ns) {
  store::ListOptions list_options;
  list_options.namespace_ = ns;
  ASSIGN_OR_RETURN(store::ListResult list, store_->List(resource, list_options));
  store::DeleteOptions options;
  options.grace_period_seconds = 0;
  options.propagation_policy = "Background";
  for (const store::ObjectPtr& item : list.items) {
    Result<store::DeleteResult> deleted =
        store_->Delete(resource, item->name().namespace_, item->name().name, options);
    if (!deleted.ok() && deleted.status().code() != Code::kNotFound) return deleted.status();
  }
  return Status::Ok();
}

Status RequestHandler::AllocateClusterIp(Json* service) {
  Json& spec = (*service)["spec"];
  if (!spec.is_object()) return Status::Ok();  // validation reports it
  if (api::StringMember(spec, "type") == "ExternalName") return Status::Ok();
  std::string requested = api::StringMember(spec, "clusterIP");
  if (!requested.empty()) {
    if (!spec.contains("clusterIPs")) spec["clusterIPs"] = {requested};
    return Status::Ok();
  }
  std::set<std::string> used;
  ASSIGN_OR_RETURN(store::ListResult all, store_->List(*info_, {}));
  for (const store::ObjectPtr& item : all.items) {
    used.insert(api::StringMember(item->document().value("spec", Json::object()), "clusterIP"));
  }
  // 10.96.0.0/12 as kubeadm's default service CIDR; .1 is the kubernetes service's, the first
  // few are left for cluster DNS as on kubeadm clusters.
  for (int i = 10; i < 65534; ++i) {
    std::string ip = "10.96." + std::to_string(i / 256) + "." + std::to_string(i % 256);
    if (i % 256 == 0 || i % 256 == 255 || used.count(ip)) continue;
    spec["clusterIP"] = ip;
    spec["clusterIPs"] = {ip};
    return Status::Ok();
  }
  return Status(Code::kInternal, "failed to allocate a serviceIP: range is full");
}

}  // namespace lws::apiserver
