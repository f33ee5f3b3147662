// File: apiserver/admission_review.cc
#include "apiserver/admission_review.h"

#include <array>
#include <cstdint>

#include "api/base64.h"

namespace lws::apiserver {
namespace {

constexpr std::string_view kReviewApiVersion = "admission.k8s.io/v1";
constexpr std::string_view kReviewKind = "AdmissionReview";

Json GroupVersionKindJson(const ReviewRequest& r) {
  return {{"group", r.group}, {"version", r.version}, {"kind", r.kind}};
}

Json GroupVersionResourceJson(const ReviewRequest& r) {
  return {{"group", r.group}, {"version", r.version}, {"resource", r.resource}};
}

// The operation's options object, as the API server passes it to admission.
Json OptionsFor(const ReviewRequest& r) {
  std::string kind = r.operation == "DELETE"   ? "DeleteOptions"
                     : r.operation == "UPDATE" ? "UpdateOptions"
                                               : "CreateOptions";
  Json options = {{"kind", kind}, {"apiVersion", "meta.k8s.io/v1"}};
  if (r.dry_run) options["dryRun"] = Json::array({"All"});
  if (!r.field_manager.empty() && r.operation != "DELETE") {
    options["fieldManager"] = r.field_manager;
  }
  return options;
}

// schema.GroupVersionKind.String(): "admission.k8s.io/v1, Kind=AdmissionReview".
std::string GvkString(const Json& review) {
  std::string api_version = api::StringMember(review, "apiVersion");
  if (api_version.find('/') == std::string::npos) api_version = "/" + api_version;
  return api_version + ", Kind=" + api::StringMember(review, "kind");
}

Status InvalidResponse(std::string_view what) {
  return Status::Internal("received invalid webhook response: " + std::string(what));
}

// Checks the patch fields of `response` for a webhook of `type` (VerifyAdmissionResponse).
Status CheckPatchFields(const Json& response, WebhookType type) {
  const bool has_patch = !api::StringMember(response, "patch").empty();
  auto patch_type = response.find("patchType");
  const bool has_type = patch_type != response.end() && !patch_type->is_null();
  if (type == WebhookType::kValidating) {
    if (has_patch) return InvalidResponse("validating webhook may not return response.patch");
    if (has_type) return InvalidResponse("validating webhook may not return response.patchType");
    return Status::Ok();
  }
  if (has_patch && !has_type) {
    return InvalidResponse("webhook returned response.patch but not response.patchType");
  }
  if (!has_patch && has_type) {
    return InvalidResponse("webhook returned response.patchType but not response.patch");
  }
  if (has_type && (!patch_type->is_string() || patch_type->get<std::string>().empty())) {
    return InvalidResponse("webhook returned invalid response.patchType of \"\"");
  }
  return Status::Ok();
}

// Decodes response.patch; a patch that is not a JSON array of operations is undecodable.
Result<Json> DecodePatch(const std::string& base64) {
  auto undecodable = [](const std::string& why) {
    return Status::Internal("received undecodable patch in webhook response: " + why);
  };
  Result<std::string> bytes = api::Base64Decode(base64);
  if (!bytes.ok()) return Status::Internal("failed to call webhook: " + bytes.status().message());
  Json patch = Json::parse(*bytes, nullptr, false);
  if (patch.is_discarded()) return undecodable("invalid character in JSON patch");
  if (!patch.is_array()) {
    return undecodable("json: cannot unmarshal " + std::string(patch.type_name()) +
                       " into Go value of type jsonpatch.Patch");
  }
  return patch;
}

}  // namespace

namespace {

// The stored object as the review carries it, its managedFields included.
Json OldObjectOf(const ReviewRequest& r) {
  if (r.old_object == nullptr) return Json();
  Json old = *r.old_object;
  if (r.old_version != nullptr && !r.old_version->managed_fields().empty()) {
    store::PutManagedFields(&old, r.old_version->managed_fields());
  }
  return old;
}

}  // namespace

Json BuildAdmissionReview(const ReviewRequest& r) {
  Json request = {
      {"uid", r.uid},
      {"kind", GroupVersionKindJson(r)},
      {"resource", GroupVersionResourceJson(r)},
      {"requestKind", GroupVersionKindJson(r)},
      {"requestResource", GroupVersionResourceJson(r)},
      {"operation", r.operation},
      {"userInfo", admission::UserInfoJson(r.user != nullptr ? *r.user : admission::AdminUser())},
      {"object", r.object != nullptr ? *r.object : Json()},
      {"oldObject", OldObjectOf(r)},
      {"dryRun", r.dry_run},
      {"options", OptionsFor(r)}};
  // omitempty in admission/v1.
  if (!r.subresource.empty()) {
    request["subResource"] = r.subresource;
    request["requestSubResource"] = r.subresource;
  }
  if (!r.name.empty()) request["name"] = r.name;
  if (!r.namespace_.empty()) request["namespace"] = r.namespace_;
  return {
      {"kind", kReviewKind}, {"apiVersion", kReviewApiVersion}, {"request", std::move(request)}};
}

Result<WebhookVerdict> ReadAdmissionReview(const Json& review, std::string_view uid,
                                           WebhookType type) {
  if (!review.is_object()) {
    return Status::Internal("failed to call webhook: json: cannot unmarshal " +
                            std::string(review.type_name()) +
                            " into Go value of type v1.AdmissionReview");
  }
  auto response = review.find("response");
  if (response == review.end() || response->is_null()) {
    return InvalidResponse("webhook response was absent");
  }
  if (!response->is_object()) return InvalidResponse("webhook response was absent");
  std::string response_uid = api::StringMember(*response, "uid");
  if (response_uid != uid) {
    return InvalidResponse("expected response.uid=" + api::GoQuote(uid) + ", got " +
                           api::GoQuote(response_uid));
  }
  if (api::StringMember(review, "apiVersion") != kReviewApiVersion ||
      api::StringMember(review, "kind") != kReviewKind) {
    return InvalidResponse(
        "expected webhook response of admission.k8s.io/v1, Kind=AdmissionReview, got " +
        GvkString(review));
  }
  RETURN_IF_ERROR(CheckPatchFields(*response, type));
  WebhookVerdict verdict;
  auto allowed = response->find("allowed");
  verdict.allowed = allowed != response->end() && allowed->is_boolean() && allowed->get<bool>();
  if (auto status = response->find("status"); status != response->end() && status->is_object()) {
    verdict.status = *status;
  }
  if (auto w = response->find("warnings"); w != response->end() && w->is_array()) {
    for (const Json& item : *w) {
      if (item.is_string()) verdict.warnings.push_back(item.get<std::string>());
    }
  }
  std::string patch = api::StringMember(*response, "patch");
  if (type == WebhookType::kMutating && verdict.allowed && !patch.empty()) {
    ASSIGN_OR_RETURN(verdict.patch, DecodePatch(patch));
    verdict.patch_type = api::StringMember(*response, "patchType");
  }
  return verdict;
}

Status WebhookDenied(std::string_view webhook, const Json& status) {
  const Json result = status.is_object() ? status : Json::object();
  std::string message = api::StringMember(result, "message");
  std::string reason = api::StringMember(result, "reason");
  int code = 0;
  if (auto c = result.find("code"); c != result.end() && c->is_number_integer()) {
    code = c->get<int>();
  }
  if (code < 400) code = 400;  // a rejection is never answered below 400
  std::string denied = "admission webhook " + api::GoQuote(webhook) + " denied the request";
  if (!message.empty()) {
    denied += ": " + message;
  } else if (!reason.empty()) {
    denied += ": " + reason;
  } else {
    denied += " without explanation";
  }
  std::vector<FieldCause> causes;
  auto details = result.find("details");
  if (details != result.end() && details->is_object()) {
    for (const Json& cause : details->value("causes", Json::array())) {
      if (!cause.is_object()) continue;
      causes.push_back({api::StringMember(cause, "reason"), api::StringMember(cause, "message"),
                        api::StringMember(cause, "field")});
    }
  }
  return Status(CodeFromReason(reason, code), std::move(denied), std::move(causes));
}

Status WebhookCallFailed(std::string_view webhook, std::string_view reason) {
  std::string error =
      "failed calling webhook " + api::GoQuote(webhook) + ": " + std::string(reason);
  return Status(Code::kInternal, "Internal error occurred: " + error, {FieldCause{"", error, ""}});
}

Status WebhookDryRunUnsupported(std::string_view webhook) {
  return Status::BadRequest("admission webhook " + api::GoQuote(webhook) +
                            " does not support dry run");
}

bool SideEffectsAllowDryRun(std::string_view side_effects) {
  return side_effects == "None" || side_effects == "NoneOnDryRun";
}

}  // namespace lws::apiserver
