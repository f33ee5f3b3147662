// File: apiserver/access_review.h
//
// The answers of the local cluster to authentication.k8s.io/v1 TokenReview and
// authorization.k8s.io/v1 (Self)SubjectAccessReview, the two questions a metrics endpoint behind
// controller-runtime's authentication/authorization filter asks (spec 21.3), and to the questions
// kubectl asks about its own user (SelfSubjectRulesReview, SelfSubjectReview). Tokens are checked
// by the authenticator (authenticator.h); access questions are answered from RBAC
// (authorizer.h), or allowed when authorization is off. The handler (handlers_review.cc) decodes
// and answers.
#pragma once

#include <string_view>

#include "api/field.h"
#include "apiserver/authorizer.h"

namespace lws::apiserver {

using Json = api::Json;

// Whether a presented token equals the server's, in time that depends on neither token's
// content nor length (both are hashed, the digests compared with CRYPTO_memcmp): a byte-by-byte
// comparison that stops early tells a remote caller how much of its guess was right.
bool TokenMatches(std::string_view presented, std::string_view expected);

// Checks a TokenReview spec: upstream answers 400 without a token.
Status ValidateTokenReview(const Json& spec);

// Field errors of a SubjectAccessReview spec (`self`: a SelfSubjectAccessReview, which names no
// user): exactly one of resourceAttributes and nonResourceAttributes, and a user or a group.
api::ErrorList ValidateSubjectAccessReview(const Json& spec, bool self);

// status of a (Self)SubjectAccessReview with `spec`, asked about `user` (the spec's for a
// SubjectAccessReview, the caller for a SelfSubjectAccessReview): RBAC's decision and reason, or
// allowed when `authorizer` is null (authorization off).
Json SubjectAccessReviewStatus(const Json& spec, const admission::UserInfo& user,
                               const Authorizer* authorizer);

// The user a SubjectAccessReview spec asks about (user, uid, groups, extra).
admission::UserInfo SubjectOf(const Json& spec);

// status of a SelfSubjectRulesReview (`kubectl auth can-i --list`) by `user` in spec.namespace:
// the RBAC rules that hold for it there, or everything when `authorizer` is null.
Json SubjectRulesReviewStatus(const Json& spec, const admission::UserInfo& user,
                              const Authorizer* authorizer);

// status of a SelfSubjectReview (`kubectl auth whoami`).
Json SelfSubjectReviewStatus(const admission::UserInfo& user);

}  // namespace lws::apiserver
