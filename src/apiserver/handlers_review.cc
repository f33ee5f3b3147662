// File: apiserver/handlers_review.cc
//
// POST of the create-only review kinds (TokenReview, SelfSubjectReview, SubjectAccessReview,
// SelfSubjectAccessReview, SelfSubjectRulesReview): the request comes back with its status filled in (access_review.h),
// 201 Created, and nothing is stored. Every other verb on them is 405.
#include "apiserver/access_review.h"
#include "apiserver/request_handler.h"

namespace lws::apiserver {

Result<HttpResponse> RequestHandler::Review() {
  ASSIGN_OR_RETURN(Json review, DecodeObjectBody(false));
  Json spec = review.value("spec", Json::object());
  if (!spec.is_object()) spec = Json::object();
  if (info_->kind == "TokenReview") {
    RETURN_IF_ERROR(ValidateTokenReview(spec));
    review["status"] = TokenReviewStatus(spec, server_->token());
  } else if (info_->kind == "SelfSubjectRulesReview") {
    review["status"] = SubjectRulesReviewStatus();
  } else if (info_->kind == "SelfSubjectReview") {
    review["status"] = SelfSubjectReviewStatus();
  } else {
    api::ErrorList errors =
        ValidateSubjectAccessReview(spec, info_->kind == "SelfSubjectAccessReview");
    if (!errors.empty()) return api::InvalidStatus(store::QualifiedKind(*info_), "", errors);
    review["status"] = SubjectAccessReviewStatus();
  }
  // Never stored, so never given a name, uid or resourceVersion.
  review["metadata"]["creationTimestamp"] = nullptr;
  return JsonResponse(201, review);
}

}  // namespace lws::apiserver
