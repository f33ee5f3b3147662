#include "store/object_rules.h"

#include <algorithm>
#include <charconv>
#include <set>

namespace lws::store {

namespace {

constexpr std::size_t kMaxNameLength = 63;

api::FieldPath MetaPath(std::string_view child) { return api::FieldPath("metadata").Child(child); }

Status Invalid(const api::ResourceInfo& info, std::string_view name, api::ErrorList errors) {
  return api::InvalidStatus(QualifiedKind(info), name, errors);
}

// Sets or removes metadata[key] so that it mirrors `from`'s metadata[key].
void CopyMetaField(const Json& from, Json& to, const char* key) {
  const Json& from_meta = from.at("metadata");
  Json& to_meta = to["metadata"];
  if (auto it = from_meta.find(key); it != from_meta.end()) {
    to_meta[key] = *it;
  } else {
    to_meta.erase(key);
  }
}

// Sets or removes object[key] so that it mirrors `from`'s.
void CopyTopField(const Json& from, Json& to, const char* key) {
  if (auto it = from.find(key); it != from.end()) {
    to[key] = *it;
  } else {
    to.erase(key);
  }
}

// `old` with `update`'s status, and its managedFields when it has them. Built key by key: copying
// `old` whole copied its status and managedFields only to replace them, on every status write.
Json WithStatusOf(const Json& old, Json update) {
  Json& update_meta = update["metadata"];
  auto managed = update_meta.find("managedFields");
  const bool new_managed = managed != update_meta.end();
  Json result = Json::object();
  for (const auto& [key, value] : old.items()) {
    if (key == "status") continue;
    if (key != "metadata" || !new_managed || !value.is_object()) {
      result[key] = value;
      continue;
    }
    Json meta = Json::object();
    for (const auto& [meta_key, meta_value] : value.items()) {
      if (meta_key != "managedFields") meta[meta_key] = meta_value;
    }
    result["metadata"] = std::move(meta);
  }
  if (new_managed) result["metadata"]["managedFields"] = std::move(*managed);
  if (auto status = update.find("status"); status != update.end()) {
    result["status"] = std::move(*status);
  }
  return result;
}

// `update` with every top-level member of `old` but metadata and status (a built-in kind's
// status write keeps the stored spec): members `old` lacks are removed.
void KeepAllButMetadataAndStatus(const Json& old, Json& update) {
  for (auto it = update.begin(); it != update.end();) {
    const std::string& key = it.key();
    if (key != "metadata" && key != "status" && !old.contains(key)) {
      it = update.erase(it);
    } else {
      ++it;
    }
  }
  for (const auto& [key, value] : old.items()) {
    if (key != "metadata" && key != "status") update[key] = value;
  }
}

std::vector<std::string> Finalizers(const Json& object) {
  std::vector<std::string> out;
  const Json& meta = object.at("metadata");
  auto it = meta.find("finalizers");
  if (it == meta.end() || !it->is_array()) return out;
  for (const auto& f : *it) {
    if (f.is_string()) out.push_back(f.get<std::string>());
  }
  return out;
}

std::int64_t MetaInt(const Json& object, const char* key) {
  const Json& meta = object.at("metadata");
  auto it = meta.find(key);
  return it != meta.end() && it->is_number_integer() ? it->get<std::int64_t>() : 0;
}

bool IsDeleting(const Json& object) {
  const Json& meta = object.at("metadata");
  auto it = meta.find("deletionTimestamp");
  return it != meta.end() && !it->is_null();
}

// True iff `a` and `b` differ outside metadata (and outside status when `skip_status`).
bool SpecChanged(const Json& a, const Json& b, bool skip_status) {
  auto counts = [&](const std::string& key) {
    return key != "metadata" && !(skip_status && key == "status");
  };
  for (const auto& [key, value] : a.items()) {
    if (!counts(key)) continue;
    auto it = b.find(key);
    if (it == b.end() || *it != value) return true;
  }
  for (const auto& [key, value] : b.items()) {
    if (counts(key) && !a.contains(key)) return true;
  }
  return false;
}

Status CheckObjectShape(const Json& object) {
  if (!object.is_object()) return Status::BadRequest("the object must be a JSON object");
  auto meta = object.find("metadata");
  if (meta != object.end() && !meta->is_object()) {
    return Status::BadRequest("metadata must be a JSON object");
  }
  return Status::Ok();
}

}  // namespace

std::string GeneratedNamePrefix(std::string_view generate_name) {
  const std::size_t max_prefix = kMaxNameLength - kGeneratedNameSuffixLength;
  return std::string(generate_name.substr(0, max_prefix));
}

Status CheckCreatable(const api::ResourceInfo& info, const Json& object) {
  RETURN_IF_ERROR(CheckObjectShape(object));
  const std::string name = MetaString(object, "name");
  api::ErrorList errors;
  if (name.empty()) {
    errors.push_back(api::Required(MetaPath("name"), "name or generateName is required"));
  }
  if (info.namespaced && MetaString(object, "namespace").empty()) {
    errors.push_back(api::Required(MetaPath("namespace"), ""));
  }
  if (!errors.empty()) return Invalid(info, name, errors);
  const std::string rv = MetaString(object, "resourceVersion");
  if (!rv.empty() && rv != "0") {
    return Status::Internal("resourceVersion should not be set on objects to be created");
  }
  return Status::Ok();
}

Result<Json> PrepareForCreate(const api::ResourceInfo& info, Json object, Time now,
                              const std::string& uid, const CreateOptions& options) {
  RETURN_IF_ERROR(CheckCreatable(info, object));
  Json& meta = object["metadata"];
  if (meta.is_null()) meta = Json::object();
  if (!info.namespaced) meta.erase("namespace");
  meta.erase("resourceVersion");
  meta.erase("deletionTimestamp");
  meta.erase("deletionGracePeriodSeconds");
  meta["uid"] = uid;
  meta["creationTimestamp"] = FormatRfc3339(now);
  if (info.tracks_generation) {
    meta["generation"] = 1;
  } else {
    meta.erase("generation");
  }
  if (info.has_status) {
    if (options.initial_status.is_null()) {
      object.erase("status");
    } else {
      object["status"] = options.initial_status;
    }
  }
  if (!object.contains("apiVersion")) object["apiVersion"] = info.ApiVersion();
  if (!object.contains("kind")) object["kind"] = info.kind;
  return object;
}

Status CheckUpdatePrecondition(const api::ResourceInfo& info, const Json& update,
                               std::uint64_t current_rv) {
  const std::string rv = update.is_object() ? MetaString(update, "resourceVersion") : "";
  const std::string name = update.is_object() ? MetaString(update, "name") : "";
  if (rv.empty()) {
    if (!info.custom) return Status::Ok();
    // The CR strategy does not allow unconditional updates; upstream qualifies the "kind" of
    // this message with the resource.
    api::ErrorList errors{
        api::Invalid(MetaPath("resourceVersion"), 0, "must be specified for an update")};
    return api::InvalidStatus(QualifiedResource(info), name, errors);
  }
  std::uint64_t parsed = 0;
  auto [end, ec] = std::from_chars(rv.data(), rv.data() + rv.size(), parsed);
  if (ec != std::errc() || end != rv.data() + rv.size() || parsed != current_rv) {
    return ModifiedConflictError(info, name);
  }
  return Status::Ok();
}

Result<Json> PrepareForUpdate(const api::ResourceInfo& info, const Json& old, Json update,
                              bool status_only, bool with_status) {
  RETURN_IF_ERROR(CheckObjectShape(update));
  if (update["metadata"].is_null()) update["metadata"] = Json::object();
  const std::string name = MetaString(old, "name");
  const api::StatusWrite status_write = api::StatusWriteOf(info);
  if (status_only && status_write == api::StatusWrite::kOnlyStatus) {
    return WithStatusOf(old, std::move(update));
  }
  if (status_only) {
    KeepAllButMetadataAndStatus(old, update);
    if (status_write == api::StatusWrite::kAllButSpecAndOwners) {
      CopyMetaField(old, update, "ownerReferences");
    }
    with_status = true;
  }
  const std::string new_uid = MetaString(update, "uid");
  if (!new_uid.empty() && new_uid != MetaString(old, "uid")) {
    return Invalid(info, name, {api::Invalid(MetaPath("uid"), new_uid, "field is immutable")});
  }
  if (IsDeleting(old)) {
    const std::vector<std::string> old_finalizers = Finalizers(old);
    std::set<std::string> known(old_finalizers.begin(), old_finalizers.end());
    std::set<std::string> added;
    for (const auto& f : Finalizers(update)) {
      if (!known.contains(f)) added.insert(f);
    }
    if (!added.empty()) {
      std::string detail =
          "no new finalizers can be added if the object is being deleted, found "
          "new finalizers " +
          GoStringSlice({added.begin(), added.end()}, api::EmptySlice::kEmpty);
      return Invalid(info, name, {api::Forbidden(MetaPath("finalizers"), detail)});
    }
  }
  for (const char* key : {"name", "namespace", "uid", "creationTimestamp", "deletionTimestamp",
                          "deletionGracePeriodSeconds", "generation", "resourceVersion"}) {
    CopyMetaField(old, update, key);
  }
  if (info.has_status && !with_status) CopyTopField(old, update, "status");
  if (info.tracks_generation && SpecChanged(old, update, info.has_status)) {
    update["metadata"]["generation"] = MetaInt(old, "generation") + 1;
  }
  return update;
}

bool OnlyStatusChanged(const api::ResourceInfo& info, const Json& old, const Json& updated) {
  if (api::StatusWriteOf(info) == api::StatusWrite::kOnlyStatus) return true;
  return api::ChildOrNull(old, "metadata") == api::ChildOrNull(updated, "metadata");
}

bool ShouldDeleteDuringUpdate(const Json& old, const Json& updated) {
  if (!Finalizers(updated).empty() || !IsDeleting(old)) return false;
  // ShouldDeleteNamespaceDuringUpdate: a namespace also waits for its spec.finalizers (the
  // namespace controller removes "kubernetes" once the content is gone).
  if (updated.value("kind", "") == "Namespace") {
    const Json& spec = api::ChildOrNull(updated, "spec");
    const Json& finalizers = api::ChildOrNull(spec, "finalizers");
    if (finalizers.is_array() && !finalizers.empty()) return false;
  }
  const Json& meta = old.at("metadata");
  auto grace = meta.find("deletionGracePeriodSeconds");
  return grace == meta.end() || !grace->is_number_integer() || grace->get<std::int64_t>() == 0;
}

bool ReturnsDeletedObject(const api::ResourceInfo& info) {
  if (info.custom) return true;
  return info.group.empty() &&
         (info.resource == "pods" || info.resource == "services" || info.resource == "namespaces");
}

}  // namespace lws::store
