// File: apiserver/access_review.h
//
// The answers of the local cluster to authentication.k8s.io/v1 TokenReview and
// authorization.k8s.io/v1 (Self)SubjectAccessReview, the two questions a metrics endpoint behind
// controller-runtime's authentication/authorization filter asks (spec 21.3), and to the questions
// kubectl asks about its own user (SelfSubjectRulesReview, SelfSubjectReview). The local server
// has no users: a token is valid iff it is the server's --token (any token when it has none) and
// names system:admin in system:masters; every access is allowed, as every caller is an
// administrator. Pure functions; the handler (handlers_review.cc) decodes and answers.
#pragma once

#include <string_view>

#include "api/field.h"

namespace lws::apiserver {

using Json = api::Json;

// Whether a presented token equals the server's, in time that depends on neither token's
// content nor length (both are hashed, the digests compared with CRYPTO_memcmp): a byte-by-byte
// comparison that stops early tells a remote caller how much of its guess was right.
bool TokenMatches(std::string_view presented, std::string_view expected);

// status of a TokenReview with `spec`: authenticated with the local user and the audiences it
// asked for, or unauthenticated with an error. `server_token` "" accepts every token.
Json TokenReviewStatus(const Json& spec, std::string_view server_token);

// Checks a TokenReview spec: upstream answers 400 without a token.
Status ValidateTokenReview(const Json& spec);

// Field errors of a SubjectAccessReview spec (`self`: a SelfSubjectAccessReview, which names no
// user): exactly one of resourceAttributes and nonResourceAttributes, and a user or a group.
api::ErrorList ValidateSubjectAccessReview(const Json& spec, bool self);

// status of an allowed SubjectAccessReview.
Json SubjectAccessReviewStatus();

// status of a SelfSubjectRulesReview (`kubectl auth can-i --list`): everything, in any namespace.
Json SubjectRulesReviewStatus();

// status of a SelfSubjectReview (`kubectl auth whoami`): the local user.
Json SelfSubjectReviewStatus();

}  // namespace lws::apiserver
