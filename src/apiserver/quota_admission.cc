// File: apiserver/quota_admission.cc
#include "apiserver/quota_admission.h"

#include <array>
#include <map>
#include <optional>

#include "api/field.h"
#include "api/quantity.h"
#include "base/mutex.h"

namespace lws::apiserver {
namespace {

using api::Json;

// The core resources upstream also counts under their bare names.
constexpr std::array<std::string_view, 7> kLegacyCounted = {"pods",
                                                            "services",
                                                            "configmaps",
                                                            "secrets",
                                                            "replicationcontrollers",
                                                            "resourcequotas",
                                                            "persistentvolumeclaims"};

std::string CountKey(const api::ResourceInfo& resource) {
  return "count/" + resource.resource + (resource.group.empty() ? "" : "." + resource.group);
}

bool IsLegacyCounted(std::string_view resource) {
  for (std::string_view name : kLegacyCounted) {
    if (name == resource) return true;
  }
  return false;
}

// The quota keys a create of `resource` is charged to.
std::vector<std::string> KeysFor(const api::ResourceInfo& resource) {
  std::vector<std::string> keys = {CountKey(resource)};
  if (resource.group.empty() && IsLegacyCounted(resource.resource))
    keys.push_back(resource.resource);
  return keys;
}

// Upstream's pod evaluator leaves out pods that have ended.
bool Counts(const api::ResourceInfo& resource, const Json& object) {
  if (!resource.group.empty() || resource.resource != "pods") return true;
  const std::string phase = api::StringMember(api::ChildOrNull(object, "status"), "phase");
  return phase != "Succeeded" && phase != "Failed";
}

Result<std::int64_t> CountIn(store::Store* store, const api::ResourceInfo& resource,
                             const std::string& namespace_) {
  store::ListOptions options;
  options.namespace_ = namespace_;
  ASSIGN_OR_RETURN(store::ListResult list, store->List(resource, options));
  std::int64_t used = 0;
  for (const store::ObjectPtr& item : list.items)
    used += Counts(resource, item->document()) ? 1 : 0;
  return used;
}

Result<store::ListResult> QuotasIn(store::Store* store, const std::string& namespace_) {
  store::ListOptions options;
  options.namespace_ = namespace_;
  return store->List(admission::BuiltinResource("", "resourcequotas"), options);
}

class QuotaAdmission final : public admission::AdmissionPlugin {
 public:
  explicit QuotaAdmission(store::Store* store) : store_(store) {}

  std::string_view Name() const override { return "ResourceQuota"; }
  bool Handles(const api::ResourceInfo& resource, std::string_view subresource) const override {
    return subresource.empty() && resource.namespaced;
  }

  Status Validate(const admission::AdmissionRequest& request) override {
    if (request.object == nullptr) return Status::Ok();
    if (request.resource->group.empty() && request.resource->resource == "resourcequotas") {
      RETURN_IF_ERROR(ValidateHard(*request.object));
    }
    if (request.operation != admission::AdmissionOperation::kCreate) return Status::Ok();
    if (!Counts(*request.resource, *request.object)) return Status::Ok();
    if (!AnyQuota()) return Status::Ok();
    ASSIGN_OR_RETURN(store::ListResult quotas, QuotasIn(store_, request.namespace_));
    if (quotas.items.empty()) return Status::Ok();
    const std::vector<std::string> keys = KeysFor(*request.resource);
    std::optional<std::int64_t> used;  // counted once, when a quota names a key
    for (const store::ObjectPtr& quota : quotas.items) {
      const Json& hard = api::ChildOrNull(api::ChildOrNull(quota->document(), "spec"), "hard");
      for (const std::string& key : keys) {
        auto limit = hard.is_object() ? hard.find(key) : hard.end();
        if (!hard.is_object() || limit == hard.end() || !limit->is_string()) continue;
        Result<api::Quantity> parsed = api::Quantity::Parse(limit->get<std::string>());
        if (!parsed.ok()) continue;
        if (!used) {
          ASSIGN_OR_RETURN(used, CountIn(store_, *request.resource, request.namespace_));
        }
        if (*used + 1 <= parsed->Value()) continue;
        return Exceeded(request, quota->name().name, key, *used, parsed->String());
      }
    }
    return Status::Ok();
  }

 private:
  // admission.NewForbidden over the quota's error; the amounts as quota's prettyPrint has them.
  static Status Exceeded(const admission::AdmissionRequest& request, const std::string& quota,
                         const std::string& key, std::int64_t used, const std::string& hard) {
    const std::string& resource = request.resource->resource;
    const std::string group_resource =
        request.resource->group.empty() ? resource : resource + "." + request.resource->group;
    const std::string name =
        request.name.empty() ? store::MetaString(*request.object, "name") : request.name;
    return Status(Code::kForbidden, group_resource + " \"" + name +
                                        "\" is forbidden: exceeded quota: " + quota +
                                        ", requested: " + key + "=1, used: " + key + "=" +
                                        std::to_string(used) + ", limited: " + key + "=" + hard);
  }

  // Upstream's ValidateResourceQuota for spec.hard: every value a quantity.
  static Status ValidateHard(const Json& quota) {
    const Json& hard = api::ChildOrNull(api::ChildOrNull(quota, "spec"), "hard");
    if (!hard.is_object()) return Status::Ok();
    api::ErrorList errors;
    const api::FieldPath path = api::FieldPath("spec").Child("hard");
    for (const auto& [key, value] : hard.items()) {
      if (value.is_string() && api::Quantity::Parse(value.get<std::string>()).ok()) continue;
      errors.push_back(api::Invalid(path.Key(key), value,
                                    "quantities must match the regular expression "
                                    "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"));
    }
    if (errors.empty()) return Status::Ok();
    return api::InvalidStatus("ResourceQuota", store::MetaString(quota, "name"), errors);
  }

  // Whether any ResourceQuota exists, listed again only after a write to them: most clusters
  // have none, and every create asks.
  bool AnyQuota() {
    const api::ResourceInfo& quotas = admission::BuiltinResource("", "resourcequotas");
    const std::uint64_t last_write = store_->LastWrite(quotas);
    MutexLock lock(&mu_);
    if (!any_known_ || last_write != known_at_) {
      Result<store::ListResult> list = QuotasIn(store_, "");
      any_ = !list.ok() || !list->items.empty();  // unsure: look per request
      any_known_ = true;
      known_at_ = last_write;
    }
    return any_;
  }

  store::Store* store_;
  Mutex mu_;
  bool any_known_ GUARDED_BY(mu_) = false;
  bool any_ GUARDED_BY(mu_) = false;
  std::uint64_t known_at_ GUARDED_BY(mu_) = 0;
};

// The resource a quota key counts, or null: a legacy name, count/<resource> (core) or
// count/<resource>.<group>.
const api::ResourceInfo* ResourceOfKey(const api::ResourceRegistry& registry,
                                       const std::string& key) {
  std::string resource = key;
  std::string group;
  if (key.starts_with("count/")) {
    resource = key.substr(6);
    if (std::size_t dot = resource.find('.'); dot != std::string::npos) {
      group = resource.substr(dot + 1);
      resource.resize(dot);
    }
  } else if (!IsLegacyCounted(key)) {
    return nullptr;
  }
  for (const api::ResourceInfo* info : registry.All()) {
    if (info->group == group && info->resource == resource) return info;
  }
  return nullptr;
}

}  // namespace

std::shared_ptr<admission::AdmissionPlugin> NewQuotaAdmission(store::Store* store) {
  return std::make_shared<QuotaAdmission>(store);
}

Status RefreshQuotaStatus(store::Store* store, const api::ResourceRegistry& registry) {
  ASSIGN_OR_RETURN(store::ListResult quotas, QuotasIn(store, ""));
  for (const store::ObjectPtr& quota : quotas.items) {
    const Json& hard = api::ChildOrNull(api::ChildOrNull(quota->document(), "spec"), "hard");
    const std::string namespace_ = quota->name().namespace_;
    Json used = Json::object();
    if (hard.is_object()) {
      for (const auto& [key, limit] : hard.items()) {
        const api::ResourceInfo* counted = ResourceOfKey(registry, key);
        std::int64_t count = 0;
        if (counted != nullptr) {
          ASSIGN_OR_RETURN(count, CountIn(store, *counted, namespace_));
        }
        used[key] = std::to_string(count);
      }
    }
    const Json status = {{"hard", hard.is_object() ? hard : Json::object()}, {"used", used}};
    if (api::ChildOrNull(quota->document(), "status") == status) continue;
    Json updated = quota->document();
    updated["status"] = status;
    // A conflict means someone wrote the quota meanwhile: the next pass sees it.
    if (Result<store::ObjectPtr> written =
            store->UpdateStatus(admission::BuiltinResource("", "resourcequotas"), updated);
        !written.ok() && written.status().code() != Code::kConflict) {
      return written.status();
    }
  }
  return Status::Ok();
}

}  // namespace lws::apiserver
