// File: operator/webhook/admission_review.cc
#include "operator/webhook/admission_review.h"

#include <utility>

#include "api/base64.h"
#include "api/go_json.h"
#include "api/go_json_syntax.h"

namespace lws::operator_webhook {
namespace {

Status TypeError(const Json& value, std::string_view go_struct, std::string_view path,
                 std::string_view go_type) {
  return Status::BadRequest("json: cannot unmarshal " + std::string(api::GoJsonKind(value)) +
                            " into Go struct field " + std::string(go_struct) + "." +
                            std::string(path) + " of type " + std::string(go_type));
}

// Reads `object[key]` into *out when it is a string; null and absence leave *out empty, as Go's
// decoder does.
Status ReadString(const Json& object, const char* key, std::string_view go_struct,
                  std::string_view path, std::string_view go_type, std::string* out) {
  auto it = object.find(key);
  if (it == object.end() || it->is_null()) return Status::Ok();
  if (!it->is_string()) return TypeError(*it, go_struct, path, go_type);
  *out = it->get<std::string>();
  return Status::Ok();
}

// metav1.GroupVersionKind / GroupVersionResource at request.<key>. Go names the innermost
// struct without its package, and the field's type with it.
Status ReadGroupVersion(const Json& request, const char* key, const std::string& go_struct,
                        const char* last_field, std::string* group, std::string* version,
                        std::string* last) {
  auto it = request.find(key);
  if (it == request.end() || it->is_null()) return Status::Ok();
  const std::string path = std::string("request.") + key;
  if (!it->is_object()) return TypeError(*it, "AdmissionRequest", path, "v1." + go_struct);
  RETURN_IF_ERROR(ReadString(*it, "group", go_struct, path + ".group", "string", group));
  RETURN_IF_ERROR(ReadString(*it, "version", go_struct, path + ".version", "string", version));
  return ReadString(*it, last_field, go_struct, path + "." + last_field, "string", last);
}

std::optional<Json> ReadRaw(const Json& request, const char* key) {
  auto it = request.find(key);
  if (it == request.end() || it->is_null()) return std::nullopt;
  return *it;
}

Status ReadRequest(const Json& json, AdmissionReviewRequest* request) {
  constexpr std::string_view kStruct = "AdmissionRequest";
  RETURN_IF_ERROR(ReadString(json, "uid", kStruct, "request.uid", "types.UID", &request->uid));
  RETURN_IF_ERROR(ReadGroupVersion(json, "kind", "GroupVersionKind", "kind", &request->kind_group,
                                   &request->kind_version, &request->kind));
  RETURN_IF_ERROR(ReadGroupVersion(json, "resource", "GroupVersionResource", "resource",
                                   &request->resource_group, &request->resource_version,
                                   &request->resource));
  RETURN_IF_ERROR(ReadString(json, "subResource", kStruct, "request.subResource", "string",
                             &request->sub_resource));
  RETURN_IF_ERROR(ReadString(json, "name", kStruct, "request.name", "string", &request->name));
  RETURN_IF_ERROR(
      ReadString(json, "namespace", kStruct, "request.namespace", "string", &request->namespace_));
  RETURN_IF_ERROR(ReadString(json, "operation", kStruct, "request.operation", "v1.Operation",
                             &request->operation));
  if (auto it = json.find("dryRun"); it != json.end() && !it->is_null()) {
    if (!it->is_boolean()) return TypeError(*it, kStruct, "request.dryRun", "bool");
    request->dry_run = it->get<bool>();
  }
  request->object = ReadRaw(json, "object");
  request->old_object = ReadRaw(json, "oldObject");
  return Status::Ok();
}

// What runtime.Interpret says about a body that is JSON but not an object.
Status NotAnObject(const Json& body) {
  return Status::BadRequest(
      "couldn't get version/kind; json parse error: json: cannot unmarshal " +
      std::string(api::GoJsonKind(body)) +
      " into Go value of type struct { APIVersion string \"json:\\\"apiVersion,omitempty\\\"\"; "
      "Kind string \"json:\\\"kind,omitempty\\\"\" }");
}

void AppendField(std::string* out, std::string_view name) {
  if (out->back() != '{') out->push_back(',');
  api::AppendGoJsonString(name, out);
  out->push_back(':');
}

void AppendStatus(const AdmissionStatus& status, std::string* out) {
  *out += "{\"metadata\":{}";
  if (!status.message.empty()) {
    AppendField(out, "message");
    api::AppendGoJsonString(status.message, out);
  }
  if (!status.reason.empty()) {
    AppendField(out, "reason");
    api::AppendGoJsonString(status.reason, out);
  }
  if (status.code != 0) {
    AppendField(out, "code");
    *out += std::to_string(status.code);
  }
  out->push_back('}');
}

// json.Marshal of []jsonpatch.JsonPatchOperation: {"op","path","value"} with `value` omitted
// when nil (Go's omitempty on an interface).
std::string MarshalPatch(const Json& patch) {
  Json operations = Json::array();
  for (const Json& operation : patch) {
    Json copy = operation;
    if (auto value = copy.find("value"); value != copy.end() && value->is_null()) {
      copy.erase(value);
    }
    operations.push_back(std::move(copy));
  }
  return api::MarshalGoJson(operations);
}

}  // namespace

Result<AdmissionReview> DecodeAdmissionReview(std::string_view body) {
  ASSIGN_OR_RETURN(Json json, api::DecodeJsonBody(std::string(body),
                                                  "couldn't get version/kind; json parse error"));
  if (!json.is_object()) return NotAnObject(json);
  AdmissionReview review;
  constexpr std::string_view kStruct = "AdmissionReview";
  RETURN_IF_ERROR(
      ReadString(json, "apiVersion", kStruct, "apiVersion", "string", &review.api_version));
  RETURN_IF_ERROR(ReadString(json, "kind", kStruct, "kind", "string", &review.kind));
  const std::size_t first_slash = review.api_version.find('/');
  if (first_slash != std::string::npos &&
      review.api_version.find('/', first_slash + 1) != std::string::npos) {
    return Status::BadRequest("unexpected GroupVersion string: " + review.api_version);
  }
  auto request = json.find("request");
  if (request == json.end() || request->is_null()) return review;
  if (!request->is_object()) {
    return TypeError(*request, kStruct, "request", "v1.AdmissionRequest");
  }
  RETURN_IF_ERROR(ReadRequest(*request, &review.request));
  return review;
}

std::string EncodeAdmissionReview(const AdmissionResponse& response, std::string_view api_version,
                                  std::string_view kind) {
  std::string out = "{";
  if (!kind.empty()) {
    AppendField(&out, "kind");
    api::AppendGoJsonString(kind, &out);
  }
  if (!api_version.empty()) {
    AppendField(&out, "apiVersion");
    api::AppendGoJsonString(api_version, &out);
  }
  AppendField(&out, "response");
  out += "{\"uid\":";
  api::AppendGoJsonString(response.uid, &out);
  out += response.allowed ? ",\"allowed\":true" : ",\"allowed\":false";
  if (response.status) {
    AppendField(&out, "status");
    AppendStatus(*response.status, &out);
  }
  if (response.patch) {
    AppendField(&out, "patch");
    api::AppendGoJsonString(api::Base64Encode(MarshalPatch(*response.patch)), &out);
    AppendField(&out, "patchType");
    out += "\"JSONPatch\"";
  }
  if (!response.warnings.empty()) {
    AppendField(&out, "warnings");
    out += api::MarshalGoJson(Json(response.warnings));
  }
  out += "}}\n";  // json.Encoder ends every value with a newline
  return out;
}

AdmissionResponse Errored(int code, std::string message) {
  return {.allowed = false, .status = AdmissionStatus{code, "", std::move(message)}};
}

AdmissionResponse Denied(std::string message) {
  return {.allowed = false, .status = AdmissionStatus{403, "Forbidden", std::move(message)}};
}

AdmissionResponse Allowed() { return {.allowed = true, .status = AdmissionStatus{200, "", ""}}; }

}  // namespace lws::operator_webhook
