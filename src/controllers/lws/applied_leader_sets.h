// File: controllers/lws/applied_leader_sets.h
//
// The last server-side apply of each leader StatefulSet (spec 8), so that a reconcile does not
// send the same apply again to a set nobody has changed since. Upstream applies on every
// reconcile and the API server finds nothing to change, at the price of a whole apply, pod
// template included (docs/performance.md, "Why the code is shaped this way").
//
// An apply is skipped only where it cannot change anything. Applying a configuration is
// idempotent, so applying the last configuration again to the version that apply left behind
// changes nothing; status writes since then do not count, because an apply of the main resource
// neither reads nor writes status, and the status writers' managedFields entries are theirs
// alone. So the skip needs the same configuration and a live version identical to the answered
// one outside `status`, `metadata.resourceVersion` and the entries of the status subresource.
// Any other write to the set, a user's edit of a field the controller owns among them, makes the
// next reconcile apply again, which restores the field as upstream's next apply does.
//
// Threading: reconciles of different LeaderWorkerSets may run on several workers at once; the
// map takes a mutex. Stored versions are immutable and shared.
#pragma once

#include <map>

#include "api/codec.h"
#include "base/mutex.h"
#include "runtime/work_queue.h"
#include "store/object.h"

namespace lws::controllers {

class AppliedLeaderSets {
 public:
  // True when applying `config` to `live` (null: no set) would change nothing: the last apply
  // remembered for `key` sent the same configuration and left what `live` still is.
  bool Unchanged(const runtime::Key& key, const api::Json& config,
                 const store::StoredObject* live) const;
  // `answered`: the version the server answered the apply of `config` with.
  void Remember(const runtime::Key& key, api::Json config, store::ObjectPtr answered);
  void Forget(const runtime::Key& key);

 private:
  struct Applied {
    api::Json config;
    store::ObjectPtr answered;
  };
  mutable Mutex mu_;
  std::map<runtime::Key, Applied> applied_ GUARDED_BY(mu_);
};

// Whether two versions of an object are identical outside `status`, metadata.resourceVersion and
// the managedFields entries of the status subresource.
bool SameOutsideStatus(const api::Json& a, const api::Json& b);

}  // namespace lws::controllers
