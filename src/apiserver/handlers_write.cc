// File: apiserver/handlers_write.cc
//
// POST, PUT, DELETE and deletecollection: the object pipeline's stages (write_stages.cc), then
// managedFields recorded and the object stored (or, with dryRun=All, only pretended to be).
#include <algorithm>
#include <initializer_list>
#include <memory>
#include <string>
#include <typeinfo>

#include "api/intstr.h"
#include "api/json_depth.h"
#include "api/meta.h"
#include "api/object_meta_validation.h"
#include "api/yaml.h"
#include "apiserver/builtin_shape.h"
#include "apiserver/request_body.h"
#include "apiserver/request_handler.h"
#include "apiserver/status_json.h"
#include "store/object_rules.h"

namespace lws::apiserver {
namespace {

// True when the store can only commit `object` over `current`: it names current's
// resourceVersion, so any other live version is a conflict.
bool PinnedTo(const Json& object, const store::StoredObject& current) {
  const std::string rv = store::MetaString(object, "resourceVersion");
  return !rv.empty() && rv == std::to_string(current.resource_version());
}

}  // namespace

bool ShapesChecked(const store::ObjectPtr& version,
                   const std::shared_ptr<const ServedResources>& served) {
  return served != nullptr && served->shape_marks.Marked(version);
}

void MarkShapesChecked(const store::ObjectPtr& version,
                       const std::shared_ptr<const ServedResources>& served) {
  if (served != nullptr) served->shape_marks.Mark(version);
}

FieldManagerScope RequestHandler::ManagerScope(std::string_view subresource) const {
  FieldManagerScope scope;
  scope.manager = FieldManager();
  scope.api_version = info_->ApiVersion();
  scope.subresource = std::string(subresource);
  scope.status_subresource = info_->has_status;
  scope.status_write = api::StatusWriteOf(*info_);
  scope.now = now_;
  auto types = served_->list_types.find(info_->GroupResource());
  if (types != served_->list_types.end()) scope.schema = types->second;
  return scope;
}

Json RequestHandler::WithManagedFields(const Json& old, Json updated,
                                       std::string_view subresource) {
  return UpdateManagedFields(old, std::move(updated), ManagerScope(subresource));
}

store::NewEntries RequestHandler::RecordWrite(const store::ObjectPtr& current, Json* updated,
                                              std::string_view subresource, bool* shapes_checked) {
  FieldManagerScope scope = ManagerScope(subresource);
  if (current != nullptr) scope.live_shapes_checked = ShapesChecked(current, served_);
  return RecordOrDeferManagedFields(current, updated, scope,
                                    StoresOnlyUntracked(current.get(), *updated, subresource),
                                    shapes_checked);
}

Result<Answer> RequestHandler::Create() {
  ASSIGN_OR_RETURN(Json object, DecodeObjectBody(false));
  RETURN_IF_ERROR(CheckNamespaceExists());
  RETURN_IF_ERROR(PrepareForWrite(&object, nullptr, ""));
  RETURN_IF_ERROR(CheckNameFree(object));
  bool shapes_checked = false;
  store::NewEntries entries = RecordWrite(nullptr, &object, "", &shapes_checked);
  ASSIGN_OR_RETURN(store::ObjectPtr created,
                   CreateWithSideEffects(std::move(object), shapes_checked, std::move(entries)));
  return ObjectResponse(201, created);
}

Result<store::ObjectPtr> RequestHandler::StoreUpdate(
    Json object, bool status_only, std::optional<store::NewEntries> managed_fields) {
  store::UpdateOptions options;
  options.dry_run = DryRun();
  options.managed_fields = std::move(managed_fields);
  if (status_only) return store_->UpdateStatus(*info_, std::move(object), options);
  ASSIGN_OR_RETURN(store::ObjectPtr stored, store_->Update(*info_, std::move(object), options));
  if (!options.dry_run) RETURN_IF_ERROR(AfterWrite(stored->document(), false));
  return stored;
}

Result<Answer> RequestHandler::Update(bool status_only) {
  ASSIGN_OR_RETURN(Json object, DecodeObjectBody(true));
  ASSIGN_OR_RETURN(store::ObjectPtr current, store_->Get(*info_, target_.namespace_, target_.name));
  // namespaces/finalize is routed here too: it names itself in managedFields and takes
  // spec.finalizers from the body (DecodeForWrite).
  std::string_view sub = status_only ? "status" : std::string_view(target_.subresource);
  RETURN_IF_ERROR(PrepareForWrite(&object, &current->document(), sub, current.get()));
  bool shapes_checked = false;
  store::NewEntries entries = RecordWrite(current, &object, sub, &shapes_checked);
  // The stored version is `object` over `current` (status writes take the rest from it), both
  // checked, when nothing else can have been written in between.
  shapes_checked = shapes_checked && PinnedTo(object, *current);
  // A status write left with no entries stores none of its own: the store keeps the live ones,
  // as it keeps them for any status body without managedFields.
  std::optional<store::NewEntries> given;
  if (!status_only || entries.deferred || !entries.made.empty()) given = std::move(entries);
  ASSIGN_OR_RETURN(store::ObjectPtr stored,
                   StoreUpdate(std::move(object), status_only, std::move(given)));
  if (shapes_checked) MarkShapesChecked(stored, served_);
  return ObjectResponse(200, stored);
}

Result<Answer> RequestHandler::Delete() {
  Json body;
  if (request_.has_body()) {
    const std::string content_type = request_.content_type;
    ASSIGN_OR_RETURN(body, BodyJson([&](const std::string& bytes) {
                       return ParseObjectBody(content_type, bytes);
                     }));
  }
  // Query parameters fill what the body leaves out (kubectl sends a body; curl users do not).
  if (body.is_null() || body.is_object()) {
    const QueryParams& q = target_.query;
    if (q.Has("gracePeriodSeconds") && !body.contains("gracePeriodSeconds")) {
      ASSIGN_OR_RETURN(std::int64_t grace, api::GoAtoi(q.Get("gracePeriodSeconds")));
      body["gracePeriodSeconds"] = grace;
    }
    if (q.Has("propagationPolicy") && !body.contains("propagationPolicy")) {
      body["propagationPolicy"] = q.Get("propagationPolicy");
    }
    if (q.Has("orphanDependents") && !body.contains("orphanDependents")) {
      body["orphanDependents"] = q.GetBool("orphanDependents");
    }
    if (DryRun() && !body.contains("dryRun")) body["dryRun"] = {"All"};
  }
  ASSIGN_OR_RETURN(store::DeleteOptions options, store::ParseDeleteOptions(body));
  ASSIGN_OR_RETURN(store::ObjectPtr current, store_->Get(*info_, target_.namespace_, target_.name));
  RETURN_IF_ERROR(AdmitDelete(*current, options.dry_run));
  if (!options.dry_run) RETURN_IF_ERROR(BeforeDelete(current->document()));
  ASSIGN_OR_RETURN(store::DeleteResult result,
                   store_->Delete(*info_, target_.namespace_, target_.name, options));
  if (result.deleted && !options.dry_run)
    RETURN_IF_ERROR(AfterWrite(result.object->document(), true));
  // When the answer is the object, it is the stored version itself (an in-process caller then
  // shares it instead of parsing its bytes).
  if (!result.deleted || store::ReturnsDeletedObject(*info_))
    return ObjectResponse(200, result.object);
  return JsonResponse(200, store::DeleteResponseBody(*info_, result));
}

Result<Answer> RequestHandler::DeleteCollection() {
  store::ListOptions list_options;
  list_options.namespace_ = target_.namespace_;
  ASSIGN_OR_RETURN(list_options.label_selector,
                   api::Selector::Parse(target_.query.Get("labelSelector")));
  ASSIGN_OR_RETURN(list_options.field_selector,
                   api::FieldSelector::Parse(target_.query.Get("fieldSelector")));
  ASSIGN_OR_RETURN(store::ListResult list, store_->List(*info_, list_options));
  store::DeleteOptions options;
  options.dry_run = DryRun();
  if (target_.query.Has("propagationPolicy")) {
    options.propagation_policy = target_.query.Get("propagationPolicy");
  }
  RETURN_IF_ERROR(store::ValidateDeleteOptions(options));
  Json items = Json::array();
  for (const store::ObjectPtr& item : list.items) {
    RETURN_IF_ERROR(AdmitDelete(*item, options.dry_run));
    Result<store::DeleteResult> result =
        store_->Delete(*info_, item->name().namespace_, item->name().name, options);
    if (!result.ok()) {
      if (result.status().code() == Code::kNotFound) continue;  // raced with another delete
      return result.status();
    }
    items.push_back(result->object->FullJson());
  }
  Json body = {
      {"kind", info_->list_kind},
      {"apiVersion", info_->ApiVersion()},
      {"metadata", {{"resourceVersion", std::to_string(store_->CurrentResourceVersion())}}},
      {"items", std::move(items)}};
  return JsonResponse(200, body);
}

}  // namespace lws::apiserver
