// The DELETE rules of object_rules.h: DeleteOptions parsing and validation, and the deletion
// plan (upstream rest.BeforeDelete, podStrategy.CheckGracefulDelete and the generic registry's
// deletionFinalizersForGarbageCollection / markAsDeleting).
#include <algorithm>
#include <set>

#include "store/object_rules.h"

namespace lws::store {

namespace {

constexpr std::string_view kOrphanFinalizer = "orphan";
constexpr std::string_view kForegroundFinalizer = "foregroundDeletion";
// Pods without spec.terminationGracePeriodSeconds: the value defaulting would have set.
constexpr std::int64_t kDefaultPodGraceSeconds = 30;

Status TypeError(std::string_view field, std::string_view want) {
  return Status::BadRequest("json: cannot unmarshal into Go struct field DeleteOptions." +
                            std::string(field) + " of type " + std::string(want));
}

Status OptionsInvalid(api::ErrorList errors) {
  return api::InvalidStatus("DeleteOptions.meta.k8s.io", "", errors);
}

// Reads an optional string member; a JSON null counts as absent.
Status ReadString(const Json& obj, const char* key, std::string_view field,
                  std::optional<std::string>* out) {
  auto it = obj.find(key);
  if (it == obj.end() || it->is_null()) return Status::Ok();
  if (!it->is_string()) return TypeError(field, "string");
  *out = it->get<std::string>();
  return Status::Ok();
}

std::vector<std::string> FinalizersOf(const Json& object) {
  std::vector<std::string> out;
  const Json& meta = object.at("metadata");
  if (auto it = meta.find("finalizers"); it != meta.end() && it->is_array()) {
    for (const auto& f : *it) {
      if (f.is_string()) out.push_back(f.get<std::string>());
    }
  }
  return out;
}

// shouldOrphanDependents / shouldDeleteDependents with the default policy DeleteDependents
// (background), which every resource served here has.
bool ShouldOrphan(const std::vector<std::string>& finalizers, const DeleteOptions& options) {
  if (options.orphan_dependents) return *options.orphan_dependents;
  if (options.propagation_policy) return *options.propagation_policy == "Orphan";
  for (const auto& f : finalizers) {
    if (f == kOrphanFinalizer) return true;
    if (f == kForegroundFinalizer) return false;
  }
  return false;
}

bool ShouldForeground(const std::vector<std::string>& finalizers, const DeleteOptions& options) {
  if (options.orphan_dependents) return false;
  if (options.propagation_policy) return *options.propagation_policy == "Foreground";
  for (const auto& f : finalizers) {
    if (f == kForegroundFinalizer) return true;
    if (f == kOrphanFinalizer) return false;
  }
  return false;
}

// The finalizers after applying the policy; the old list when the set does not change.
std::vector<std::string> GcFinalizers(const std::vector<std::string>& old,
                                      const DeleteOptions& options) {
  std::vector<std::string> out;
  for (const auto& f : old) {
    if (f != kOrphanFinalizer && f != kForegroundFinalizer) out.push_back(f);
  }
  if (ShouldOrphan(old, options)) out.emplace_back(kOrphanFinalizer);
  if (ShouldForeground(old, options)) out.emplace_back(kForegroundFinalizer);
  if (std::set(old.begin(), old.end()) == std::set(out.begin(), out.end())) return old;
  return out;
}

void SetFinalizers(Json& object, const std::vector<std::string>& finalizers) {
  Json& meta = object["metadata"];
  if (finalizers.empty()) {
    meta.erase("finalizers");
  } else {
    meta["finalizers"] = finalizers;
  }
}

std::optional<std::int64_t> IntAt(const Json& obj, std::initializer_list<const char*> path) {
  const Json* at = &obj;
  for (const char* key : path) {
    if (!at->is_object()) return std::nullopt;
    auto it = at->find(key);
    if (it == at->end()) return std::nullopt;
    at = &*it;
  }
  if (!at->is_number_integer()) return std::nullopt;
  return at->get<std::int64_t>();
}

std::string StringAt(const Json& obj, const char* outer, const char* inner) {
  auto it = obj.find(outer);
  if (it == obj.end() || !it->is_object()) return "";
  auto in = it->find(inner);
  return in != it->end() && in->is_string() ? in->get<std::string>() : "";
}

void BumpGeneration(Json& object) {
  if (auto gen = IntAt(object, {"metadata", "generation"}); gen && *gen > 0) {
    object["metadata"]["generation"] = *gen + 1;
  }
}

void SetDeletion(Json& object, Time when, std::int64_t grace_seconds) {
  object["metadata"]["deletionTimestamp"] = FormatRfc3339(when);
  object["metadata"]["deletionGracePeriodSeconds"] = grace_seconds;
}

// podStrategy.CheckGracefulDelete: the grace period a first graceful delete uses.
std::int64_t PodGracePeriod(const Json& pod, const DeleteOptions& options) {
  std::int64_t period = options.grace_period_seconds.value_or(
      IntAt(pod, {"spec", "terminationGracePeriodSeconds"}).value_or(kDefaultPodGraceSeconds));
  const std::string phase = StringAt(pod, "status", "phase");
  if (StringAt(pod, "spec", "nodeName").empty() || phase == "Succeeded" || phase == "Failed") {
    period = 0;
  }
  return period < 0 ? 1 : period;
}

bool IsNamespace(const api::ResourceInfo& info) {
  return info.group.empty() && info.resource == "namespaces";
}

// The namespace registry's Delete (pkg/registry/core/namespace/storage): the first DELETE only
// starts termination (deletionTimestamp, phase Terminating) and the namespace controller
// removes the content; while spec.finalizers is not empty (it holds "kubernetes" until the
// content is gone) a DELETE changes nothing; then the generic rules delete it.
std::optional<DeletePlan> PlanNamespaceDelete(const Json& current, const DeleteOptions& options,
                                              Time now) {
  if (MetaString(current, "deletionTimestamp").empty()) {
    DeletePlan plan{DeletePlan::Action::kUpdate, current};
    plan.object["metadata"]["deletionTimestamp"] = FormatRfc3339(now);
    plan.object["metadata"]["deletionGracePeriodSeconds"] = 0;
    if (!plan.object["status"].is_object()) plan.object["status"] = Json::object();
    plan.object["status"]["phase"] = "Terminating";
    SetFinalizers(plan.object, GcFinalizers(FinalizersOf(plan.object), options));
    return plan;
  }
  const Json& spec = current.value("spec", Json::object());
  const Json& finalizers = spec.is_object() ? spec.value("finalizers", Json::array()) : Json();
  if (finalizers.is_array() && !finalizers.empty()) {
    return DeletePlan{DeletePlan::Action::kKeep, current};
  }
  return std::nullopt;
}

}  // namespace

Result<DeleteOptions> ParseDeleteOptions(const Json& body) {
  DeleteOptions options;
  if (body.is_null()) return options;
  if (!body.is_object()) return Status::BadRequest("DeleteOptions must be a JSON object");
  if (auto it = body.find("gracePeriodSeconds"); it != body.end() && !it->is_null()) {
    if (!it->is_number_integer()) return TypeError("gracePeriodSeconds", "int64");
    options.grace_period_seconds = it->get<std::int64_t>();
  }
  RETURN_IF_ERROR(
      ReadString(body, "propagationPolicy", "propagationPolicy", &options.propagation_policy));
  if (auto it = body.find("orphanDependents"); it != body.end() && !it->is_null()) {
    if (!it->is_boolean()) return TypeError("orphanDependents", "bool");
    options.orphan_dependents = it->get<bool>();
  }
  if (auto it = body.find("preconditions"); it != body.end() && !it->is_null()) {
    if (!it->is_object()) return TypeError("preconditions", "v1.Preconditions");
    RETURN_IF_ERROR(ReadString(*it, "uid", "preconditions.uid", &options.precondition_uid));
    RETURN_IF_ERROR(ReadString(*it, "resourceVersion", "preconditions.resourceVersion",
                               &options.precondition_resource_version));
  }
  if (auto it = body.find("dryRun"); it != body.end() && !it->is_null()) {
    if (!it->is_array()) return TypeError("dryRun", "[]string");
    std::vector<std::string> values;
    for (const auto& v : *it) {
      if (!v.is_string()) return TypeError("dryRun", "[]string");
      values.push_back(v.get<std::string>());
    }
    for (const auto& v : values) {
      if (v != "All") {
        api::FieldError e = api::NotSupported(api::FieldPath("dryRun"), nullptr, {"All"});
        e.rendered_value = GoStringSlice(values, api::EmptySlice::kEmpty);
        return OptionsInvalid({e});
      }
    }
    options.dry_run = !values.empty();
  }
  RETURN_IF_ERROR(ValidateDeleteOptions(options));
  return options;
}

Status ValidateDeleteOptions(const DeleteOptions& options) {
  api::ErrorList errors;
  const api::FieldPath policy("propagationPolicy");
  if (options.orphan_dependents && options.propagation_policy) {
    errors.push_back(api::Invalid(policy, *options.propagation_policy,
                                  "orphanDependents and deletionPropagation cannot be both set"));
  }
  if (options.propagation_policy && *options.propagation_policy != "Foreground" &&
      *options.propagation_policy != "Background" && *options.propagation_policy != "Orphan") {
    errors.push_back(api::NotSupported(policy, *options.propagation_policy,
                                       {"Foreground", "Background", "Orphan", "nil"}));
  }
  return errors.empty() ? Status::Ok() : OptionsInvalid(errors);
}

Result<DeletePlan> PlanDelete(const api::ResourceInfo& info, const Json& current,
                              const DeleteOptions& options, Time now) {
  const std::string name = MetaString(current, "name");
  // Upstream qualifies these two conflicts with the kind, not the resource.
  const std::string kind = QualifiedKind(info);
  if (options.precondition_uid && *options.precondition_uid != MetaString(current, "uid")) {
    return ConflictError(kind, name,
                         "the UID in the precondition (" + *options.precondition_uid +
                             ") does not match the UID in record (" + MetaString(current, "uid") +
                             "). The object might have been deleted and then recreated");
  }
  const std::string rv = MetaString(current, "resourceVersion");
  if (options.precondition_resource_version && *options.precondition_resource_version != rv) {
    return ConflictError(kind, name,
                         "the ResourceVersion in the precondition (" +
                             *options.precondition_resource_version +
                             ") does not match the ResourceVersion in record (" + rv +
                             "). The object might have been modified");
  }
  if (IsNamespace(info)) {
    if (std::optional<DeletePlan> plan = PlanNamespaceDelete(current, options, now)) return *plan;
  }
  std::optional<std::int64_t> grace = options.grace_period_seconds;
  if (grace && *grace < 0) grace = 1;
  DeletePlan plan{DeletePlan::Action::kDelete, current};
  Json& object = plan.object;
  const bool deleting = MetaString(current, "deletionTimestamp") != "";
  bool graceful = false;
  std::int64_t last_grace = 0;
  if (info.graceful_delete && deleting) {
    std::int64_t pending = IntAt(current, {"metadata", "deletionGracePeriodSeconds"}).value_or(0);
    if (pending < 0) pending = 1;
    if (pending != 0) {
      // Only a shorter grace period may be requested once graceful deletion is pending.
      if (!grace || *grace >= pending) return DeletePlan{DeletePlan::Action::kKeep, current};
      auto started = ParseRfc3339(MetaString(current, "deletionTimestamp"));
      Time base = started.ok() ? *started - std::chrono::seconds(pending) : now;
      SetDeletion(object, base + std::chrono::seconds(*grace), *grace);
      graceful = true;
      last_grace = *grace;
    }
  } else if (info.graceful_delete) {
    last_grace = PodGracePeriod(current, options);
    SetDeletion(object, now + std::chrono::seconds(last_grace), last_grace);
    BumpGeneration(object);
    graceful = true;
  }
  SetFinalizers(object, GcFinalizers(FinalizersOf(object), options));
  const bool pending_finalizers = !FinalizersOf(object).empty();
  if (!graceful && pending_finalizers) {
    // markAsDeleting: generation moves once, when deletion starts.
    if (!deleting) BumpGeneration(object);
    auto existing = ParseRfc3339(MetaString(object, "deletionTimestamp"));
    if (!existing.ok() || *existing > now)
      object["metadata"]["deletionTimestamp"] = FormatRfc3339(now);
    object["metadata"]["deletionGracePeriodSeconds"] = 0;
  }
  if (pending_finalizers || (graceful && last_grace > 0)) plan.action = DeletePlan::Action::kUpdate;
  return plan;
}

}  // namespace lws::store
