// File: apiserver/apply.cc
//
// The apply pipeline of apply.h, step by step as the upstream managers run it: validate the
// request, hand an untracked object to before-first-apply, merge, prune, find conflicts (with
// the last-applied upgrade for "kubectl"), strip untracked metadata, stamp the time.

#include "apiserver/apply.h"

#include "api/field.h"
#include "api/go_json.h"
#include "apiserver/apply_value.h"
#include "store/object.h"

namespace lws::apiserver {

using api::StringMember;
namespace {

// object[key] when object is an object holding key, else an empty object.
const Json& ObjectAt(const Json& object, const char* key) {
  static const Json kEmpty = Json::object();
  if (!object.is_object()) return kEmpty;
  auto it = object.find(key);
  return it != object.end() && it->is_object() ? *it : kEmpty;
}

const Json& MetadataOf(const Json& object) { return ObjectAt(object, "metadata"); }

std::string LastAppliedOf(const Json& object) {
  return StringMember(ObjectAt(MetadataOf(object), "annotations"),
                      std::string(kLastAppliedAnnotation).c_str());
}

// "apps/v1, Kind=StatefulSet", "/v1, Kind=Pod" (schema.GroupVersionKind.String()).
std::string GvkString(const std::string& api_version, const std::string& kind) {
  std::string gv = api_version.find('/') == std::string::npos ? "/" + api_version : api_version;
  return gv + ", Kind=" + kind;
}

std::string GoTypeName(const Json& v) {
  if (v.is_array()) return "array";
  if (v.is_string()) return "string";
  if (v.is_number()) return "number";
  if (v.is_boolean()) return "bool";
  return "value";
}

Status CheckRequest(const Json& config, const ApplyOptions& options) {
  if (!config.is_object() && !config.is_null()) {
    return Status::BadRequest(
        "error decoding YAML: error unmarshaling JSON: while decoding JSON: json: cannot "
        "unmarshal " +
        GoTypeName(config) + " into Go value of type map[string]interface {}");
  }
  std::string version = StringMember(config, "apiVersion");
  if (version != options.scope.api_version) {
    return Status::BadRequest(
        "Incorrect version specified in apply patch. Specified patch "
        "version: " +
        version + ", expected: " + options.scope.api_version);
  }
  auto sent = MetadataOf(config).find("managedFields");
  if (sent != MetadataOf(config).end() && sent->is_array()) {
    return Status::BadRequest("metadata.managedFields must be nil");
  }
  return Status::Ok();
}

// "ns/name; apps/v1, Kind=K" (objectGVKNN) for the typed-conversion errors.
std::string Describe(const Json& object, const ApplyOptions& options) {
  const Json& meta = MetadataOf(object);
  return StringMember(meta, "namespace") + "/" + StringMember(meta, "name") + "; " +
         GvkString(options.scope.api_version, StringMember(object, "kind"));
}

Status CheckShapes(const Json& config, const Json& live, const ApplyOptions& options) {
  std::string kind = StringMember(config, "kind");
  if (kind != options.kind) {
    return Status::Internal("failed to create typed patch object (" + Describe(config, options) +
                            "): no corresponding type for " +
                            GvkString(options.scope.api_version, kind));
  }
  std::vector<ShapeError> errors = ValidateShape(config, options.scope.schema, false);
  if (!errors.empty()) {
    return Status::Internal("failed to create typed patch object (" + Describe(config, options) +
                            "): " + ShapeErrorsText(errors));
  }
  errors = ValidateShape(live, options.scope.schema, true);
  if (!errors.empty()) {
    return Status::Internal("failed to create typed live object (" + Describe(live, options) +
                            "): " + ShapeErrorsText(errors));
  }
  return Status::Ok();
}

// The configuration without the fields this scope ignores (managed_fields.h, rule 2): applied
// status is dropped on the main resource; on /status only status (and the identity) counts.
Json ScopedConfig(const Json& config, const FieldManagerScope& scope) {
  if (scope.subresource == "status") {
    Json out = Json::object();
    for (const char* key : {"apiVersion", "kind", "status"}) {
      if (auto it = config.find(key); it != config.end()) out[key] = *it;
    }
    Json meta = Json::object();
    for (const char* key : {"name", "namespace"}) {
      auto it = MetadataOf(config).find(key);
      if (it != MetadataOf(config).end()) meta[key] = *it;
    }
    out["metadata"] = std::move(meta);
    return out;
  }
  Json out = config;
  if (scope.subresource.empty() && scope.status_subresource) out.erase("status");
  return out;
}

// structured-merge-diff's prune: removes what `last` claimed and nobody claims now, while
// keeping fields nobody ever claimed (defaults, fields of untracked writes).
Json Prune(const Json& merged, const ManagedFieldSets& managed, const FieldSet& last,
           const ListTypeProvider& schema) {
  if (last.empty()) return merged;
  FieldSet owned;
  for (const auto& [id, entry] : managed) owned.Add(entry.fields);
  owned = owned.WithFieldsAsMembers();
  FieldSet last_all = last.WithFieldsAsMembers();
  FieldSet merged_set = ToFieldSet(merged, schema).WithFieldsAsMembers();
  Json pruned = RemoveItems(merged, last_all, schema);
  FieldSet pruned_set = ToFieldSet(pruned, schema).WithFieldsAsMembers();
  // Put back whatever is owned; the rest of what disappeared stays out for now.
  pruned = RemoveItems(merged, merged_set.Difference(pruned_set.Union(owned)), schema);
  pruned_set = ToFieldSet(pruned, schema).WithFieldsAsMembers();
  // Only what the applier itself claimed last time may go.
  return RemoveItems(merged, merged_set.Difference(pruned_set).Intersection(last_all), schema);
}

// Fields whose live value still equals the last-applied annotation: kubectl's client-side apply
// owned them, so "kubectl" may take them over without force (lastAppliedManager). nullopt when
// the annotation is missing or unusable.
std::optional<FieldSet> AllowedFromLastApplied(const Json& live, const FieldManagerScope& scope) {
  std::string text = LastAppliedOf(live);
  if (text.empty()) return std::nullopt;
  Json last = Json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!last.is_object() || StringMember(last, "apiVersion") != scope.api_version)
    return std::nullopt;
  if (!ValidateShape(last, scope.schema, false).empty() ||
      !ValidateShape(live, scope.schema, false).empty()) {
    return std::nullopt;
  }
  Comparison diff = Compare(last, live, scope.schema);
  return ToFieldSet(last, scope.schema)
      .Difference(diff.modified)
      .Difference(diff.added)
      .Difference(diff.removed);
}

// The annotation value kubectl would write for `config`: its JSON, keys sorted, plus "\n".
std::string LastAppliedValue(const Json& config) {
  Json copy = config;
  if (copy.contains("metadata") && copy["metadata"].is_object() &&
      copy["metadata"].contains("annotations") && copy["metadata"]["annotations"].is_object()) {
    copy["metadata"]["annotations"].erase(std::string(kLastAppliedAnnotation));
  }
  return api::MarshalGoJson(copy) + "\n";
}

std::vector<ApplyConflictField> FindConflicts(const ManagedFieldSets& managed,
                                              const std::string& applier, const FieldSet& changed) {
  std::vector<ApplyConflictField> out;
  for (const auto& [id, entry] : managed) {
    if (id == applier) continue;
    for (Path& path : entry.fields.Intersection(changed).Paths()) {
      out.push_back({&entry, std::move(path)});
    }
  }
  return out;
}

Status CheckConflicts(std::vector<ApplyConflictField> conflicts, const Json& live,
                      const ApplyOptions& options) {
  if (conflicts.empty() || options.force) return Status::Ok();
  std::optional<FieldSet> allowed;
  if (options.scope.manager == "kubectl") allowed = AllowedFromLastApplied(live, options.scope);
  std::vector<ApplyConflictField> remaining;
  for (ApplyConflictField& c : conflicts) {
    if (!allowed.has_value() || !allowed->Has(c.path)) remaining.push_back(std::move(c));
  }
  return remaining.empty() ? Status::Ok() : ApplyConflict(remaining);
}

// The applier keeps what it applied (minus untracked metadata); every other manager loses the
// fields the apply changed or removed (merge.Updater.update with force).
void SettleOwnership(const std::string& applier, const Comparison& diff,
                     ManagedFieldSets* managed) {
  FieldSet taken = diff.modified.Union(diff.added);
  for (auto it = managed->begin(); it != managed->end();) {
    FieldSet& fields = it->second.fields;
    if (it->first != applier) {
      fields = fields.Difference(taken).Difference(diff.removed);
    } else {
      fields = fields.Difference(StrippedFields());
    }
    it = fields.empty() ? managed->erase(it) : std::next(it);
  }
}

void SetLastApplied(std::string value, Json* object) {
  auto meta = object->find("metadata");
  if (meta == object->end() || !meta->is_object()) return;
  Json& annotations = (*meta)["annotations"];
  if (annotations.is_null()) annotations = Json::object();
  if (annotations.is_object()) {
    annotations[std::string(kLastAppliedAnnotation)] = std::move(value);
  }
}

Status CheckName(const Json& object, const ApplyOptions& options) {
  std::string name = StringMember(MetadataOf(object), "name");
  if (!options.name.empty() && name != options.name) {
    return Status::BadRequest("the name of the object (" + name +
                              ") does not match the name on the URL (" + options.name + ")");
  }
  std::string ns = StringMember(MetadataOf(object), "namespace");
  if (!options.namespace_.empty() && !ns.empty() && ns != options.namespace_) {
    return Status::BadRequest("the namespace of the object (" + ns +
                              ") does not match the namespace on the request (" +
                              options.namespace_ + ")");
  }
  return Status::Ok();
}

}  // namespace

Status FieldManagerRequired() {
  return api::InvalidStatus(
      "PatchOptions.meta.k8s.io", "",
      {api::Required(api::FieldPath("fieldManager"), "is required for apply patch")});
}

Status ForceNotAllowed() {
  return api::InvalidStatus(
      "PatchOptions.meta.k8s.io", "",
      {api::Forbidden(api::FieldPath("force"), "may not be specified for non-apply patch")});
}

Status ApplyConflict(const std::vector<ApplyConflictField>& conflicts) {
  std::vector<FieldCause> causes;
  for (const ApplyConflictField& c : conflicts) {
    causes.push_back(
        {"FieldManagerConflict", "conflict with " + c.owner->Describe(), PathString(c.path)});
  }
  std::string message;
  if (conflicts.size() == 1) {
    message = "Apply failed with 1 conflict: conflict with " + conflicts[0].owner->Describe() +
              ": " + PathString(conflicts[0].path);
  } else {
    std::map<std::string, std::vector<const ApplyConflictField*>> by_manager;
    for (const ApplyConflictField& c : conflicts) by_manager[c.owner->Identifier()].push_back(&c);
    std::string lines;
    for (const auto& [id, fields] : by_manager) {
      lines +=
          (lines.empty() ? "" : "\n") + ("conflicts with " + fields[0]->owner->Describe()) + ":";
      for (const ApplyConflictField* c : fields) lines += "\n- " + PathString(c->path);
    }
    message = "Apply failed with " + std::to_string(conflicts.size()) + " conflicts: " + lines;
  }
  return Status(Code::kConflict, std::move(message), std::move(causes));
}

Result<ApplyResult> Apply(const Json& live_object, const Json& config_in,
                          const ApplyOptions& options) {
  const FieldManagerScope& scope = options.scope;
  RETURN_IF_ERROR(CheckRequest(config_in, options));
  const Json config = config_in.is_object() ? config_in : Json::object();
  ApplyResult result;
  result.created = !live_object.is_object();
  const Json live = result.created ? Json::object() : store::CopyWithoutManagedFields(live_object);
  RETURN_IF_ERROR(CheckShapes(config, live, options));
  Result<ManagedFieldSets> decoded = DecodeManagedFields(ManagedFieldsOf(live_object));
  if (!decoded.ok()) {
    return Status::Internal("failed to decode managed fields: " + decoded.status().message());
  }
  ManagedFieldSets managed = std::move(*decoded);
  if (!result.created && managed.empty()) {
    FieldManagerScope first = scope;
    first.manager = std::string(kBeforeFirstApplyManager);
    managed = RecordUpdate(Json::object(), live, {}, first);
  }

  const Json scoped = ScopedConfig(config, scope);
  FieldSet ignored = IgnoredFields(scope, {&live, &scoped});
  ManagedFieldsEntry mine{
      scope.manager, std::string(kOperationApply), scope.api_version, "", scope.subresource, {}};
  const std::string id = mine.Identifier();
  FieldSet last;
  if (auto it = managed.find(id); it != managed.end()) {
    last = it->second.fields;
    mine.time = it->second.time;
  }
  mine.fields = ToFieldSet(scoped, scope.schema).RecursiveDifference(ignored);
  managed[id] = mine;
  Json object = Prune(Merge(live, scoped, scope.schema), managed, last, scope.schema);

  Comparison diff = Compare(live, object, scope.schema, &ignored);
  RETURN_IF_ERROR(
      CheckConflicts(FindConflicts(managed, id, diff.modified.Union(diff.added)), live, options));
  SettleOwnership(id, diff, &managed);
  if (auto it = managed.find(id); it != managed.end() && object != live) {
    it->second.time = FormatRfc3339(scope.now);
  }
  if (scope.manager == "kubectl" && !LastAppliedOf(live).empty()) {
    SetLastApplied(LastAppliedValue(config), &object);
  }
  RETURN_IF_ERROR(CheckName(object, options));
  SetManagedFields(&object, managed);
  result.object = std::move(object);
  return result;
}

}  // namespace lws::apiserver
