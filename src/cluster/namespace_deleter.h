// File: cluster/namespace_deleter.h
//
// The namespace controller's deleter (k8s.io/kubernetes pkg/controller/namespace/deletion): a
// DELETE of a namespace only marks it Terminating (store/delete_rules.cc); a pass of this deleter
// then, for every namespace Terminating for at least kNamespaceDeletionGracePeriod (5 s, the
// namespace controller's namespaceDeletionGracePeriod: it is also what lets `kubectl delete -k`
// delete a namespace and then its content without NotFound errors),
//   1. deletes every object of every namespaced resource in it that is not already being
//      deleted (pods get their grace period: the kubelets finish them);
//   2. while objects remain, writes the conditions kube-controller-manager writes
//      (NamespaceContentRemaining "Some resources are remaining: pods has 2 resource
//      instances", NamespaceFinalizersRemaining, and the three deletion-failure conditions
//      False), so `kubectl describe namespace` says what it waits for;
//   3. once nothing remains, removes the "kubernetes" finalizer from spec.finalizers (the
//      finalize subresource) and deletes the namespace for good.
// Like the garbage collector it reads the store, writes through its client (the namespace
// controller's, so admission sees the writes) and owns no thread or clock: the caller runs
// passes (`lws apiserver`'s control loop, `lws up`'s collection pass).
#pragma once

#include <map>
#include <optional>
#include <string>

#include "api/resources.h"
#include "base/clock.h"
#include "base/result.h"
#include "client/local/local_client.h"
#include "store/store.h"

namespace lws::cluster {

// The status conditions of a terminating namespace from what remains in it: counts by group
// resource ("pods", "statefulsets.apps") of objects, and of objects holding each finalizer.
// `old` is the current conditions list (lastTransitionTime is kept for unchanged statuses).
api::Json TerminatingConditions(const std::map<std::string, int>& remaining,
                                const std::map<std::string, int>& finalizers, const api::Json& old,
                                Time now);

inline constexpr Duration kNamespaceDeletionGracePeriod = std::chrono::seconds(5);

class NamespaceDeleter {
 public:
  // `client`: an in-process client of the API server over `store` (in process: it finalizes
  // through namespaces/finalize, which the Client interface does not offer). REQUIRES: all three
  // outlive the deleter; the registry does not change during a pass.
  NamespaceDeleter(store::Store* store, const client::LocalClient* client,
                   const api::ResourceRegistry* registry)
      : store_(store), client_(client), registry_(registry) {}

  // One pass over every terminating namespace. Returns the number of writes, or the first error
  // other than NotFound or Conflict (a namespace raced with another writer is judged next pass).
  // `next_due`, when given, is set to the earliest time a namespace still in its grace period
  // becomes due (the caller runs a pass then), and left alone when none is waiting.
  Result<int> RunOnce(Time now, std::optional<Time>* next_due = nullptr);

 private:
  Result<int> Terminate(const store::ObjectPtr& ns, Time now);
  Result<int> Finalize(const store::ObjectPtr& ns);
  // True iff the object `uid` still exists: a DELETE's answer does not say whether it removed
  // the object or only marked it (finalizers, a pod's grace period).
  bool StillStored(const api::ResourceInfo& resource, const std::string& ns,
                   const std::string& name, const std::string& uid) const;

  store::Store* store_;
  const client::LocalClient* client_;
  const api::ResourceRegistry* registry_;
};

}  // namespace lws::cluster
