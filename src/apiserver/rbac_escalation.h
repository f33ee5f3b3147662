// File: apiserver/rbac_escalation.h
//
// RBAC's escalation check, as kube-apiserver's rbac registry makes it: a user may create or
// update a Role or ClusterRole only with rules it already holds (or the `escalate` verb on that
// kind), and bind a role only when it holds every rule of it (or the `bind` verb on it); using an
// aggregationRule needs the rules of cluster-admin. Without this, anyone who may write
// RoleBindings could grant itself cluster-admin. system:masters is never checked.
//
// Runs as a validating admission plugin on the four RBAC resources, refusing with 403 Forbidden:
//   clusterroles.rbac.authorization.k8s.io "x" is forbidden: user "u" (groups=["a" "b"]) is
//   attempting to grant RBAC permissions not currently held:
//   {APIGroups:[""], Resources:["secrets"], Verbs:["get" "list"]}
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "admission/admission.h"
#include "apiserver/authorizer.h"

namespace lws::apiserver {

// The rules of `wanted`, broken down to one verb, group, resource (and name) or URL each, that
// no rule of `owner` covers (validation.Covers), compacted as upstream prints them: one rule per
// group, resource and name with the verbs together.
std::vector<PolicyRule> UncoveredRules(const std::vector<PolicyRule>& owner,
                                       const std::vector<PolicyRule>& wanted);

// rbac/v1 CompactString: {APIGroups:["apps"], Resources:["deployments"], Verbs:["get" "list"]}.
std::string CompactString(const PolicyRule& rule);

// The plugin; `authorizer` must outlive it.
std::unique_ptr<admission::AdmissionPlugin> NewRbacEscalationAdmission(
    const Authorizer* authorizer);

}  // namespace lws::apiserver
