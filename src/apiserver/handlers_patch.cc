// File: apiserver/handlers_patch.cc
//
// PATCH in its four forms (patch.h, strategic_merge.h, apply.h) on the main resource and on
// /status. A patch is applied to the object as stored, then takes the update path. Like the real
// server, a patch that does not name a resourceVersion is retried on a conflict with a
// concurrent writer; one that does (kubectl diff) gets the 409.
#include "apiserver/apply.h"
#include "apiserver/patch.h"
#include "apiserver/request_body.h"
#include "apiserver/request_handler.h"
#include "apiserver/status_json.h"
#include "apiserver/strategic_merge.h"

namespace lws::apiserver {
namespace {

constexpr int kPatchAttempts = 5;

}  // namespace

Result<Answer> RequestHandler::Patch(std::string_view subresource) {
  ASSIGN_OR_RETURN(PatchType type, PatchTypeFromContentType(request_.content_type, *info_));
  if (type != PatchType::kApply && request_.options.force.has_value()) return ForceNotAllowed();
  if (type == PatchType::kApply && request_.options.field_manager.empty()) {
    return FieldManagerRequired();
  }
  ASSIGN_OR_RETURN(
      Json patch, BodyJson([type](const std::string& body) { return ParsePatchBody(type, body); }));
  bool status_only = subresource == "status";
  for (int attempt = 1;; ++attempt) {
    Result<store::ObjectPtr> current = store_->Get(*info_, target_.namespace_, target_.name);
    if (!current.ok() && !(type == PatchType::kApply && !status_only &&
                           current.status().code() == Code::kNotFound)) {
      return current.status();
    }
    // The whole object, managedFields included: a patch may name them.
    Json live = current.ok() ? (*current)->FullJson() : Json();
    Json object;
    bool created = false;
    switch (type) {
      case PatchType::kMerge: {
        ASSIGN_OR_RETURN(object, ApplyMergePatch(live, patch));
        break;
      }
      case PatchType::kJson: {
        ASSIGN_OR_RETURN(object, ApplyJsonPatch(live, patch));
        break;
      }
      case PatchType::kStrategic: {
        ASSIGN_OR_RETURN(object, ApplyStrategicMergePatch(live, patch, info_->kind));
        break;
      }
      case PatchType::kApply: {
        ApplyOptions options;
        options.scope = ManagerScope(subresource);
        options.kind = info_->kind;
        options.name = target_.name;
        options.namespace_ = target_.namespace_;
        options.force = request_.options.force.value_or(false);
        ASSIGN_OR_RETURN(ApplyResult applied, Apply(live, patch, options));
        object = std::move(applied.object);
        created = applied.created;
        break;
      }
    }
    if (!object.is_object()) {
      return Status::BadRequest("the patch did not produce an object");
    }
    if (created) {
      Json& metadata = object["metadata"];
      if (info_->namespaced) metadata["namespace"] = target_.namespace_;
      RETURN_IF_ERROR(CheckNamespaceExists());
      RETURN_IF_ERROR(PrepareForWrite(&object, nullptr, ""));
      ASSIGN_OR_RETURN(store::ObjectPtr stored, CreateWithSideEffects(std::move(object)));
      return ObjectResponse(201, stored);
    }
    if (store::MetaString(object, "name") != target_.name) {
      return Status::BadRequest("the name of the object (" + store::MetaString(object, "name") +
                                ") does not match the name on the URL (" + target_.name + ")");
    }
    RETURN_IF_ERROR(PrepareForWrite(&object, &live, subresource, current->get()));
    if (type != PatchType::kApply) object = WithManagedFields(live, std::move(object), subresource);
    bool implicit_rv =
        store::MetaString(object, "resourceVersion") == store::MetaString(live, "resourceVersion");
    Result<store::ObjectPtr> stored = StoreUpdate(std::move(object), status_only);
    if (stored.ok()) return ObjectResponse(200, *stored);
    if (stored.status().code() != Code::kConflict || !implicit_rv || attempt >= kPatchAttempts) {
      return stored.status();
    }
  }
}

}  // namespace lws::apiserver
