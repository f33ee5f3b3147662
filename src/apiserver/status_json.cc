#include "apiserver/status_json.h"

#include "base/assert.h"

namespace lws::apiserver {

namespace {

Json StatusSkeleton(std::string_view outcome) {
  Json out = Json::object();
  out["kind"] = "Status";
  out["apiVersion"] = "v1";
  out["metadata"] = Json::object();
  out["status"] = outcome;
  return out;
}

Json CausesJson(const std::vector<FieldCause>& causes) {
  Json out = Json::array();
  for (const FieldCause& c : causes) {
    // metav1.StatusCause: every field is omitempty.
    Json cause = Json::object();
    if (!c.type.empty()) cause["reason"] = c.type;
    if (!c.message.empty()) cause["message"] = c.message;
    if (!c.field.empty()) cause["field"] = c.field;
    out.push_back(std::move(cause));
  }
  return out;
}

// Group and kind of the details; `kind` is the plural resource or the Kind depending on the
// reason (rules 1-3 of the header).
void AddIdentity(const StatusContext& context, bool with_name, bool kind_is_kind, Json* details) {
  const api::ResourceInfo& r = *context.resource;
  if (with_name && !context.name.empty()) (*details)["name"] = context.name;
  if (!r.group.empty()) (*details)["group"] = r.group;
  (*details)["kind"] = kind_is_kind ? r.kind : r.resource;
}

// Returns the details object for `status`, or null when the Status carries none.
Json DetailsFor(const Status& status, const StatusContext& context) {
  Json details = Json::object();
  const bool has_resource = context.resource != nullptr;
  switch (status.code()) {
    case Code::kNotFound:
    case Code::kAlreadyExists:
      if (has_resource) AddIdentity(context, true, false, &details);
      break;
    case Code::kConflict:
      // Apply conflicts carry only their causes (rule 5); optimistic-lock conflicts name the
      // object.
      if (has_resource && status.causes().empty()) AddIdentity(context, true, false, &details);
      break;
    case Code::kInvalid:
      if (has_resource) AddIdentity(context, true, true, &details);
      break;
    case Code::kMethodNotAllowed:
      if (has_resource) AddIdentity(context, false, false, &details);
      break;
    default:
      break;
  }
  if (!status.causes().empty()) details["causes"] = CausesJson(status.causes());
  const bool generic_not_found = status.code() == Code::kNotFound && !has_resource;
  if (details.empty() && !generic_not_found) return Json();
  return details;
}

std::string Quoted(std::string_view s) { return api::GoQuote(s); }

}  // namespace

Json StatusJson(const Status& status, const StatusContext& context) {
  LWS_ASSERT(!status.ok(), "StatusJson renders failures only");
  Json out = StatusSkeleton("Failure");
  if (!status.message().empty()) out["message"] = status.message();
  out["reason"] = std::string(status.reason());
  Json details = DetailsFor(status, context);
  if (!details.is_null()) out["details"] = std::move(details);
  out["code"] = status.http_code();
  return out;
}

Json DeleteSuccessJson(const api::ResourceInfo& resource, std::string_view name,
                       std::string_view uid) {
  Json out = StatusSkeleton("Success");
  Json details = Json::object();
  details["name"] = name;
  if (!resource.group.empty()) details["group"] = resource.group;
  details["kind"] = resource.resource;
  if (!uid.empty()) details["uid"] = uid;
  out["details"] = std::move(details);
  return out;
}

Status NotFoundError(const api::ResourceInfo& resource, std::string_view name) {
  return Status::NotFound(resource.GroupResource() + " " + Quoted(name) + " not found");
}

Status AlreadyExistsError(const api::ResourceInfo& resource, std::string_view name) {
  return Status::AlreadyExists(resource.GroupResource() + " " + Quoted(name) + " already exists");
}

Status ConflictError(const api::ResourceInfo& resource, std::string_view name,
                     std::string_view reason) {
  return Status::Conflict("Operation cannot be fulfilled on " + resource.GroupResource() + " " +
                          Quoted(name) + ": " + std::string(reason));
}

Status UnknownPathError() {
  return Status::NotFound("the server could not find the requested resource");
}

Status MethodNotSupportedError(const api::ResourceInfo& resource, std::string_view verb) {
  return Status(Code::kMethodNotAllowed, std::string(verb) +
                                             " is not supported on resources of kind " +
                                             Quoted(resource.GroupResource()));
}

Status MethodNotAllowedError() {
  return Status(Code::kMethodNotAllowed,
                "the server does not allow this method on the requested resource");
}

Status UnsupportedMediaTypeError(const std::vector<std::string>& accepted) {
  std::string list;
  for (const std::string& type : accepted) {
    if (!list.empty()) list += ", ";
    list += type;
  }
  return Status(
      Code::kUnsupportedMediaType,
      "the body of the request was in an unknown format - accepted media types include: " + list);
}

}  // namespace lws::apiserver
