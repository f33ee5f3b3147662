// The namespace controller's deleter (namespace_deleter.h).
#include "cluster/namespace_deleter.h"

#include <vector>

#include "api/field.h"
#include "store/object_meta.h"

namespace lws::cluster {
namespace {

using api::Json;

// The finalizer the API server puts in every namespace's spec (FinalizerKubernetes).
constexpr const char* kKubernetesFinalizer = "kubernetes";

struct ConditionText {
  const char* type;
  const char* ok_reason;
  const char* ok_message;
};

// status_condition_utils.go: the conditions the deleter maintains and their "ok" variants.
constexpr ConditionText kConditions[] = {
    {"NamespaceDeletionDiscoveryFailure", "ResourcesDiscovered",
     "All resources successfully discovered"},
    {"NamespaceDeletionGroupVersionParsingFailure", "ParsedGroupVersions",
     "All legacy kube types successfully parsed"},
    {"NamespaceDeletionContentFailure", "ContentDeleted",
     "All content successfully deleted, may be waiting on finalization"},
    {"NamespaceContentRemaining", "ContentRemoved", "All content successfully removed"},
    {"NamespaceFinalizersRemaining", "ContentHasNoFinalizers",
     "All content-preserving finalizers finished"},
};

std::string Join(const std::map<std::string, int>& counts, const char* joiner) {
  std::string out;
  for (const auto& [name, count] : counts) {
    if (!out.empty()) out += ", ";
    out += name + joiner + std::to_string(count) + " resource instances";
  }
  return out;
}

const Json* FindCondition(const Json& conditions, const std::string& type) {
  if (!conditions.is_array()) return nullptr;
  for (const Json& c : conditions) {
    if (c.is_object() && api::StringMember(c, "type") == type) return &c;
  }
  return nullptr;
}

std::string GroupResource(const api::ResourceInfo& info) {
  return info.group.empty() ? info.resource : info.resource + "." + info.group;
}

}  // namespace

Json TerminatingConditions(const std::map<std::string, int>& remaining,
                           const std::map<std::string, int>& finalizers, const Json& old,
                           Time now) {
  Json out = Json::array();
  for (const ConditionText& text : kConditions) {
    const std::string type = text.type;
    Json condition = {{"type", type},
                      {"status", "False"},
                      {"reason", text.ok_reason},
                      {"message", text.ok_message}};
    if (type == "NamespaceContentRemaining" && !remaining.empty()) {
      condition["status"] = "True";
      condition["reason"] = "SomeResourcesRemain";
      condition["message"] = "Some resources are remaining: " + Join(remaining, " has ");
    } else if (type == "NamespaceFinalizersRemaining" && !finalizers.empty()) {
      condition["status"] = "True";
      condition["reason"] = "SomeFinalizersRemain";
      condition["message"] =
          "Some content in the namespace has finalizers remaining: " + Join(finalizers, " in ");
    }
    const Json* before = FindCondition(old, type);
    const bool same = before != nullptr && (*before)["status"] == condition["status"] &&
                      (*before)["reason"] == condition["reason"] &&
                      (*before)["message"] == condition["message"];
    condition["lastTransitionTime"] = same && before->contains("lastTransitionTime")
                                          ? (*before)["lastTransitionTime"]
                                          : Json(FormatRfc3339(now));
    out.push_back(std::move(condition));
  }
  return out;
}

Result<int> NamespaceDeleter::RunOnce(Time now, std::optional<Time>* next_due) {
  const api::ResourceInfo* namespaces = registry_->Find("", "v1", "namespaces");
  ASSIGN_OR_RETURN(store::ListResult list, store_->List(*namespaces, {}));
  int writes = 0;
  for (const store::ObjectPtr& ns : list.items) {
    if (!ns->deleting()) continue;
    Result<Time> since = ParseRfc3339(std::string(store::DeletionTimestamp(*ns)));
    const Time due = (since.ok() ? *since : now) + kNamespaceDeletionGracePeriod;
    if (due > now) {
      if (next_due != nullptr && (!*next_due || due < **next_due)) *next_due = due;
      continue;
    }
    ASSIGN_OR_RETURN(int done, Terminate(ns, now));
    writes += done;
  }
  return writes;
}

Result<int> NamespaceDeleter::Terminate(const store::ObjectPtr& ns, Time now) {
  const std::string name = ns->name().name;
  std::map<std::string, int> remaining;
  std::map<std::string, int> finalizers;
  int writes = 0;
  client::DeleteOptions options;
  options.propagation_policy = "Background";
  for (const api::ResourceInfo* resource : registry_->All()) {
    if (!resource->namespaced) continue;
    store::ListOptions list_options;
    list_options.namespace_ = name;
    ASSIGN_OR_RETURN(store::ListResult list, store_->List(*resource, list_options));
    for (const store::ObjectPtr& item : list.items) {
      ++remaining[GroupResource(*resource)];
      for (std::string_view f : store::Finalizers(*item)) ++finalizers[std::string(f)];
      if (item->deleting()) continue;
      const std::string item_name = item->name().name;
      Result<store::ObjectPtr> deleted =
          client_->Delete(client::ResourceOf(*resource), name, item_name, options);
      if (deleted.ok()) {
        ++writes;
        if (!StillStored(*resource, name, item_name, item->uid())) {
          --remaining[GroupResource(*resource)];
        }
      } else if (deleted.status().code() != Code::kNotFound &&
                 deleted.status().code() != Code::kConflict) {
        return deleted.status();
      }
    }
  }
  for (auto it = remaining.begin(); it != remaining.end();) {
    it = it->second <= 0 ? remaining.erase(it) : std::next(it);
  }
  if (remaining.empty()) {
    ASSIGN_OR_RETURN(int finalized, Finalize(ns));
    return writes + finalized;
  }
  Json status = ns->document().value("status", Json::object());
  Json conditions =
      TerminatingConditions(remaining, finalizers, status.value("conditions", Json::array()), now);
  if (conditions == status.value("conditions", Json::array())) return writes;
  Json updated = ns->document();
  updated["status"]["conditions"] = std::move(conditions);
  Result<store::ObjectPtr> written = client_->UpdateStatus(client::kNamespaces, std::move(updated));
  if (!written.ok() && written.status().code() != Code::kConflict &&
      written.status().code() != Code::kNotFound) {
    return written.status();
  }
  return writes + (written.ok() ? 1 : 0);
}

bool NamespaceDeleter::StillStored(const api::ResourceInfo& resource, const std::string& ns,
                                   const std::string& name, const std::string& uid) const {
  Result<store::ObjectPtr> now = store_->Get(resource, ns, name);
  return now.ok() && *now != nullptr && (*now)->uid() == uid;
}

// finalizeNamespace, then the DELETE that now removes it.
Result<int> NamespaceDeleter::Finalize(const store::ObjectPtr& ns) {
  const std::string name = ns->name().name;
  Json updated = ns->document();
  Json kept = Json::array();
  for (const Json& f : updated["spec"].value("finalizers", Json::array())) {
    if (f != kKubernetesFinalizer) kept.push_back(f);
  }
  int writes = 0;
  if (kept.size() != updated["spec"].value("finalizers", Json::array()).size()) {
    // An empty list, not an absent one: the server defaults a namespace without
    // spec.finalizers back to ["kubernetes"].
    updated["spec"]["finalizers"] = kept;
    // Only the finalize subresource changes spec.finalizers (a PUT of the namespace keeps them).
    Result<store::ObjectPtr> written = client_->FinalizeNamespace(std::move(updated));
    if (!written.ok()) {
      const Code code = written.status().code();
      return code == Code::kConflict || code == Code::kNotFound ? Result<int>(0) : written.status();
    }
    ++writes;
    if (!kept.empty()) return writes;  // another finalizer's owner finishes it
  }
  Result<store::ObjectPtr> deleted = client_->Delete(client::kNamespaces, "", name);
  if (!deleted.ok() && deleted.status().code() != Code::kNotFound &&
      deleted.status().code() != Code::kConflict) {
    return deleted.status();
  }
  return writes + (deleted.ok() ? 1 : 0);
}

}  // namespace lws::cluster
