// File: apiserver/handlers_review.cc
//
// POST of the create-only review kinds (TokenReview, SelfSubjectReview, SubjectAccessReview,
// SelfSubjectAccessReview, SelfSubjectRulesReview): the request comes back with its status filled
// in (access_review.h), 201 Created, and nothing is stored. Every other verb on them is 405.
// POST serviceaccounts/{name}/token: the TokenRequest comes back with a token
// (authenticator.h).
#include "apiserver/access_review.h"
#include "apiserver/request_body.h"
#include "apiserver/request_handler.h"

namespace lws::apiserver {

Result<Answer> RequestHandler::Review() {
  ASSIGN_OR_RETURN(Json review, DecodeObjectBody(false));
  Json spec = review.value("spec", Json::object());
  if (!spec.is_object()) spec = Json::object();
  const Authorizer* authorizer = server_->authorizer();
  if (info_->kind == "TokenReview") {
    RETURN_IF_ERROR(ValidateTokenReview(spec));
    review["status"] = server_->authenticator().Review(spec);
  } else if (info_->kind == "SelfSubjectRulesReview") {
    review["status"] = SubjectRulesReviewStatus(spec, user_, authorizer);
  } else if (info_->kind == "SelfSubjectReview") {
    review["status"] = SelfSubjectReviewStatus(user_);
  } else {
    const bool self = info_->kind == "SelfSubjectAccessReview";
    api::ErrorList errors = ValidateSubjectAccessReview(spec, self);
    if (!errors.empty()) return api::InvalidStatus(store::QualifiedKind(*info_), "", errors);
    review["status"] = SubjectAccessReviewStatus(spec, self ? user_ : SubjectOf(spec), authorizer);
  }
  // Never stored, so never given a name, uid or resourceVersion.
  review["metadata"]["creationTimestamp"] = nullptr;
  return JsonResponse(201, review);
}

Result<Answer> RequestHandler::IssueServiceAccountToken() {
  ASSIGN_OR_RETURN(Json request, SubresourceBody("TokenRequest", {"authentication.k8s.io/v1"}));
  request["apiVersion"] = "authentication.k8s.io/v1";
  request["kind"] = "TokenRequest";
  ASSIGN_OR_RETURN(Json answered, server_->authenticator().IssueToken(
                                      target_.namespace_, target_.name, std::move(request)));
  return JsonResponse(201, answered);
}

}  // namespace lws::apiserver
