#include "apiserver/priority_admission.h"

#include <map>
#include <optional>

#include "api/priority_class.h"
#include "base/log.h"
#include "base/mutex.h"

namespace lws::apiserver {
namespace {

class PriorityAdmission final : public admission::AdmissionPlugin {
 public:
  explicit PriorityAdmission(store::Store* store)
      : store_(store),
        resource_(admission::BuiltinResource("scheduling.k8s.io", "priorityclasses")) {}

  std::string_view Name() const override { return "Priority"; }
  bool Handles(const api::ResourceInfo& resource, std::string_view subresource) const override {
    if (!subresource.empty() || resource.custom) return false;
    return (resource.group.empty() && resource.kind == "Pod") ||
           (resource.group == "scheduling.k8s.io" && resource.kind == "PriorityClass");
  }

  Status Mutate(admission::AdmissionRequest& request) override {
    if (request.resource->kind != "Pod" || request.object == nullptr ||
        !request.object->is_object()) {
      return Status::Ok();
    }
    auto found = request.object->find("spec");
    if (found == request.object->end() || !found->is_object()) return Status::Ok();  // validation's
    api::Json& spec = *found;
    if (request.operation == admission::AdmissionOperation::kUpdate) {
      if (request.old_object != nullptr) KeepStored(*request.old_object, &spec);
      return Status::Ok();
    }
    if (request.operation != admission::AdmissionOperation::kCreate) return Status::Ok();
    return AdmitCreate(request, &spec);
  }

  Status Validate(const admission::AdmissionRequest& request) override {
    if (request.resource->kind != "PriorityClass" || request.object == nullptr) return Status::Ok();
    if (!api::ReadPriorityClass(*request.object).global_default) return Status::Ok();
    const std::string self = NameOf(request);
    const auto classes = Load();
    for (const auto& [name, c] : *classes) {
      if (!c.global_default || name == self) continue;
      return Forbidden(
          "priorityclasses", self,
          "PriorityClass " + name + " is already marked as default. Only one default can exist");
    }
    return Status::Ok();
  }

 private:
  // The request's name, or the object's (a create names it in the body).
  static std::string NameOf(const admission::AdmissionRequest& request) {
    return request.name.empty() ? store::MetaString(*request.object, "name") : request.name;
  }
  static Status Forbidden(const std::string& resource, const std::string& name,
                          const std::string& why) {
    return Status(Code::kForbidden, resource + " \"" + name + "\" is forbidden: " + why);
  }

  // Upstream: a pod's priority is immutable; an update that leaves it out keeps the stored one.
  static void KeepStored(const api::Json& old, api::Json* spec) {
    auto old_spec = old.find("spec");
    if (old_spec == old.end() || !old_spec->is_object()) return;
    for (const char* key : {"priority", "preemptionPolicy"}) {
      auto stored = old_spec->find(key);
      if (stored != old_spec->end() && !spec->contains(key)) (*spec)[key] = *stored;
    }
  }

  Status AdmitCreate(const admission::AdmissionRequest& request, api::Json* spec) {
    const std::string class_name = api::StringMember(*spec, "priorityClassName");
    const std::string pod = NameOf(request);
    const auto classes = Load();
    std::int64_t priority = 0;
    std::string policy = api::kPreemptLowerPriority;
    if (class_name.empty()) {
      const std::pair<const std::string, api::PriorityClassSettings>* chosen = nullptr;
      for (const auto& entry : *classes) {
        if (entry.second.global_default &&
            (chosen == nullptr || entry.second.value < chosen->second.value)) {
          chosen = &entry;
        }
      }
      if (chosen != nullptr) {
        (*spec)["priorityClassName"] = chosen->first;
        priority = chosen->second.value;
        policy = chosen->second.preemption_policy;
      }
    } else {
      auto it = classes->find(class_name);
      if (it == classes->end()) {
        return Forbidden("pods", pod, "no PriorityClass with name " + class_name + " was found");
      }
      priority = it->second.value;
      policy = it->second.preemption_policy;
    }
    if (auto given = spec->find("priority"); given != spec->end() && !given->is_null() &&
                                             (!given->is_number_integer() || *given != priority)) {
      return Forbidden("pods", pod,
                       "the integer value of priority (" + given->dump() +
                           ") must not be provided in pod spec; priority admission controller "
                           "computed " +
                           std::to_string(priority) + " from the given PriorityClass name");
    }
    if (auto given = spec->find("preemptionPolicy");
        given != spec->end() && !given->is_null() && *given != policy) {
      return Forbidden("pods", pod,
                       "the string value of PreemptionPolicy (" +
                           (given->is_string() ? given->get<std::string>() : given->dump()) +
                           ") must not be provided in pod spec; priority admission controller "
                           "computed " +
                           policy + " from the given PriorityClass name");
    }
    (*spec)["priority"] = priority;
    (*spec)["preemptionPolicy"] = policy;
    return Status::Ok();
  }

  // The classes by name, listed again only after a write to them (every pod create asks).
  std::shared_ptr<const std::map<std::string, api::PriorityClassSettings>> Load() const {
    const std::uint64_t last_write = store_->LastWrite(resource_);
    {
      MutexLock lock(&mu_);
      if (classes_ != nullptr && last_write == loaded_at_) return classes_;
    }
    auto classes = std::make_shared<std::map<std::string, api::PriorityClassSettings>>();
    if (Result<store::ListResult> list = store_->List(resource_, store::ListOptions{}); list.ok()) {
      for (const store::ObjectPtr& item : list->items) {
        const api::Json& json = item->document();
        api::PriorityClassSettings c = api::ReadPriorityClass(json);
        // Stored classes were defaulted; an unset policy is the default one all the same.
        if (c.preemption_policy.empty()) c.preemption_policy = api::kPreemptLowerPriority;
        (*classes)[store::MetaString(json, "name")] = c;
      }
    }
    MutexLock lock(&mu_);
    classes_ = std::move(classes);
    loaded_at_ = last_write;
    return classes_;
  }

  store::Store* store_;
  const api::ResourceInfo& resource_;
  mutable Mutex mu_;
  mutable std::shared_ptr<const std::map<std::string, api::PriorityClassSettings>> classes_
      GUARDED_BY(mu_);
  mutable std::uint64_t loaded_at_ GUARDED_BY(mu_) = 0;
};

}  // namespace

std::shared_ptr<admission::AdmissionPlugin> NewPriorityAdmission(store::Store* store) {
  return std::make_shared<PriorityAdmission>(store);
}

}  // namespace lws::apiserver
