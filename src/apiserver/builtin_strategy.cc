// File: apiserver/builtin_strategy.cc
//
// What the registry strategies of built-in kinds do to an object before it is stored:
// defaulting, validation and the status a new object starts with.
#include "apiserver/request_handler.h"

namespace lws::apiserver {

Status RequestHandler::PrepareBuiltin(Json* object, const Json* old, std::string_view subresource,
                                      api::ErrorList* errors) {
  return Status::Ok();
}

Json RequestHandler::InitialStatus(const Json& object) const {
  if (info_->group.empty() && info_->resource == "pods") return {{"phase", "Pending"}};
  if (info_->group.empty() && info_->resource == "namespaces") return {{"phase", "Active"}};
  if (info_->group.empty() && info_->resource == "nodes") return object.value("status", Json());
  return Json();
}

}  // namespace lws::apiserver
