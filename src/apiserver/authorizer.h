// File: apiserver/authorizer.h
//
// The server's authorization, in kube-apiserver's order: a user in
// system:masters may do everything (the privileged-group authorizer, before
// RBAC); anyone else is allowed what the RBAC objects grant (rbac_policy.h).
// The RBAC snapshot is built again only after a write to Roles, ClusterRoles or
// their bindings (Store::LastWrite), so a request pays a few lookups, and a
// binding created now holds for the next request.
#pragma once

#include <array>
#include <memory>

#include "apiserver/rbac_policy.h"
#include "base/mutex.h"
#include "store/store.h"

namespace lws::apiserver {

class Authorizer {
 public:
  explicit Authorizer(store::Store* store);

  AuthorizationDecision Authorize(const AuthorizationAttributes& attributes) const;
  // The RBAC snapshot of now.
  std::shared_ptr<const RbacPolicy> Policy() const;

 private:
  store::Store* store_;
  std::array<const api::ResourceInfo*, 4> resources_;  // roles, clusterroles, and their bindings
  mutable Mutex mu_;
  mutable std::array<std::uint64_t, 4> built_at_ GUARDED_BY(mu_) = {};
  mutable std::shared_ptr<const RbacPolicy> policy_ GUARDED_BY(mu_);
};

// The metav1.Status of a refusal, as kube-apiserver's Forbidden writes it:
// reason Forbidden, code 403, message `pods "x" is forbidden: User "u" cannot
// get resource "pods" in API group "" in the namespace "ns"[: reason]`
// (`forbidden: User "u" cannot get path "/x"` outside the resource paths),
// details {name, group, kind = resource}.
Json ForbiddenStatusJson(const AuthorizationAttributes& attributes, std::string_view reason);

// Creates the bootstrap ClusterRoles and ClusterRoleBindings (rbac_bootstrap.h)
// that are missing; ones a user changed are left as they are.
Status SeedBootstrapPolicy(store::Store* store);

}  // namespace lws::apiserver
