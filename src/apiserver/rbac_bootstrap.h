// File: apiserver/rbac_bootstrap.h
//
// The RBAC objects kube-apiserver creates at start
// (plugin/pkg/auth/authorizer/rbac/ bootstrappolicy, the subset a local cluster
// needs): cluster-admin bound to system:masters; the user-facing roles admin,
// edit and view, aggregated from system:aggregate-to-{admin,edit,view} as
// upstream builds them, so that a CRD's roles can join them by label;
// system:discovery, system:basic-user and system:public-info-viewer, which let
// every authenticated user discover the API and ask about itself, and anyone
// read /version and the health paths; system:auth-delegator for TokenReview and
// SubjectAccessReview callers (a metrics endpoint). Each carries
// kubernetes.io/bootstrapping=rbac-defaults and the autoupdate annotation.
#pragma once

#include <vector>

#include "api/field.h"

namespace lws::apiserver {

std::vector<api::Json> BootstrapClusterRoles();
std::vector<api::Json> BootstrapClusterRoleBindings();

}  // namespace lws::apiserver
