// File: apiserver/builtin_strategy.cc
//
// What the registry strategies of built-in kinds do to an object before it is stored:
// defaulting (with the fields an update may omit carried over from the stored object),
// validation, and the status a new object starts with (api/builtin_*.h).
#include "api/builtin_defaults.h"
#include "api/builtin_status.h"
#include "api/builtin_validation.h"
#include "api/event_validation.h"
#include "apiserver/request_handler.h"

namespace lws::apiserver {

void RequestHandler::DefaultBuiltin(Json* object, const Json* old) const {
  if (old != nullptr) api::ApplyBuiltinUpdateCarryOver(*info_, *old, object);
  api::ApplyBuiltinDefaults(*info_, object);
}

api::ErrorList RequestHandler::ValidateBuiltin(const Json& object, const Json* old,
                                               std::string_view subresource) const {
  // A /status write keeps the stored spec (store/object_rules.h), and status fields have no
  // rules here; a built-in kind's takes the body's metadata, which is checked.
  if (subresource == "status") return api::ValidateBuiltinStatusWrite(*info_, object);
  if (target_.as_events_v1) return api::ValidateEvent(object, old, api::EventApi::kEventsV1);
  return api::ValidateBuiltin(*info_, object, old);
}

void RequestHandler::PrepareBuiltinCreate(Json* object) {
  if (info_->custom || !api::NeedsUidBeforeCreate(*info_, *object)) return;
  // The uid comes from the store's stream now rather than when it stores: kube-apiserver fills
  // the system metadata before its Job strategy validates and generates the selector.
  if (reserved_uid_.empty()) reserved_uid_ = store_->ReserveUid();
  (*object)["metadata"]["uid"] = reserved_uid_;
  api::GenerateJobSelector(object);
}

Json RequestHandler::InitialStatus(const Json& object) const {
  if (info_->custom) return Json();  // a custom resource cannot be created with a status
  return api::InitialStatus(*info_, object);
}

}  // namespace lws::apiserver
