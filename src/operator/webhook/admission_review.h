// File: operator/webhook/admission_review.h
//
// AdmissionReview as the operator's webhook server reads and answers it (spec 21.6), without
// I/O. kube-apiserver POSTs an `admission.k8s.io/v1` AdmissionReview whose `request` names the
// operation and carries the object; the webhook answers an AdmissionReview whose `response`
// says allowed or not, with a status and, for a mutation, a base64 RFC 6902 JSON patch.
//
// Decoding follows controller-runtime (pkg/webhook/admission/http.go): v1beta1 reads as v1 (the
// fields are the same); unknown fields are ignored; `request` absent or null reads as an empty
// request; `object`/`oldObject` are kept as any JSON value (a RawExtension), absent when null.
// A body that is not a JSON object, an apiVersion with two slashes, or a known field of the wrong
// JSON type is BadRequest with Go's wording where it is cheap to match:
//   couldn't get version/kind; json parse error: <parser's message>
//   json: cannot unmarshal number into Go struct field AdmissionRequest.request.uid of type
//   types.UID
//
// Encoding writes Go's bytes for the response (field order, omitempty, HTML-safe escaping, the
// trailing newline of json.Encoder), so that a test can compare with what the Go operator sends:
//   {"kind":"AdmissionReview","apiVersion":"admission.k8s.io/v1","response":{"uid":"u",
//    "allowed":true,"status":{"metadata":{},"code":200}}}
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "api/codec.h"
#include "base/result.h"

namespace lws::operator_webhook {

using api::Json;

inline constexpr std::string_view kAdmissionV1 = "admission.k8s.io/v1";
inline constexpr std::string_view kAdmissionReviewKind = "AdmissionReview";

struct AdmissionReviewRequest {
  std::string uid;
  std::string kind_group, kind_version, kind;              // request.kind
  std::string resource_group, resource_version, resource;  // request.resource
  std::string sub_resource;
  std::string name;
  std::string namespace_;
  std::string operation;           // "CREATE", "UPDATE", "DELETE", "CONNECT"; kept as sent
  std::optional<Json> object;      // absent when missing or null
  std::optional<Json> old_object;  // absent when missing or null
  bool dry_run = false;
};

struct AdmissionReview {
  // As sent; both empty when the body named neither (the answer is then a v1 AdmissionReview).
  std::string api_version;
  std::string kind;
  AdmissionReviewRequest request;
};

// metav1.Status inside the response. Code 0 is written as omitted (Go's omitempty).
struct AdmissionStatus {
  int code = 0;
  std::string reason;
  std::string message;
};

struct AdmissionResponse {
  std::string uid;
  bool allowed = false;
  std::optional<AdmissionStatus> status;
  std::optional<Json> patch;  // an RFC 6902 array; written base64 with patchType "JSONPatch"
  std::vector<std::string> warnings;
};

// Reads an AdmissionReview body (rules in the file comment).
Result<AdmissionReview> DecodeAdmissionReview(std::string_view body);

// The bytes controller-runtime writes. `api_version`/`kind` empty: no type information, as its
// writeResponse does for a request it could not decode.
std::string EncodeAdmissionReview(const AdmissionResponse& response, std::string_view api_version,
                                  std::string_view kind);

// controller-runtime's admission.Errored: not allowed, status {code, message}.
AdmissionResponse Errored(int code, std::string message);
// admission.Denied: not allowed, status {code 403, reason Forbidden, message}.
AdmissionResponse Denied(std::string message);
// admission.Allowed(""): allowed, status {code 200}.
AdmissionResponse Allowed();

}  // namespace lws::operator_webhook
