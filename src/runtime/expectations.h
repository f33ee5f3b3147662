// File: runtime/expectations.h
//
// Stale-cache protection for reconcilers, as kube-controller-manager's ControllerExpectations
// and the StatefulSet controller here (cluster/statefulset_controller.h) do it.
//
// A write's watch event reaches the informer in a later loop task, so a reconcile run right
// after a write would see the world without it and, for example, create the same StatefulSet
// again or compute a status from pods it has just deleted. So every successful write records
// the resourceVersion it produced against the key being reconciled and the informer that will
// deliver it; the key's next reconcile waits (Satisfied returns false) until that informer has
// delivered an event at or beyond it. Watches deliver in resourceVersion order and the store
// numbers every write from one counter, so the write is then in the cache.
//
// Expectations time out: a watch that restarted from a fresh list may never deliver the exact
// version a write produced (it may have been superseded, or the object deleted), and a key must
// not wait forever. A reconciler that finds its key unsatisfied should requeue it for Deadline()
// as a safety net; normally the informer event that meets the expectation re-adds the key.
//
// Threading: any thread (reconcile workers record and check, the loop's handlers forget), one
// mutex. Deterministic: keys in a std::map, expectations in insertion order.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <vector>

#include "api/codec.h"
#include "base/clock.h"
#include "base/mutex.h"
#include "client/informer.h"
#include "runtime/work_queue.h"

namespace lws::runtime {

class Expectations {
 public:
  explicit Expectations(Duration timeout = std::chrono::seconds(30));

  // The key's next reconcile needs `informer` to have delivered resourceVersion `rv`. Several
  // expectations of one informer keep the highest version, and the latest deadline.
  void Expect(const Key& key, const client::Informer* informer, std::uint64_t rv, Time now);
  // Convenience: rv read from a write's answer (metadata.resourceVersion, a decimal string);
  // no-op when absent or not a positive decimal number (a DELETE may answer with a Status).
  void ExpectAnswer(const Key& key, const client::Informer* informer, const api::Json& answer,
                    Time now);
  // The same with a write's answer as the client gives it: a stored version, or a Status
  // document (resourceVersion 0) after a DELETE.
  void ExpectAnswer(const Key& key, const client::Informer* informer,
                    const store::StoredObject& answer, Time now) {
    if (answer.resource_version() > 0) Expect(key, informer, answer.resource_version(), now);
  }
  // True when every expectation of `key` is met (informer->last_resource_version() >= rv) or
  // has timed out; met and timed-out ones are dropped (a timeout is logged).
  bool Satisfied(const Key& key, Time now);
  // The earliest deadline among the key's unmet expectations, nullopt when it has none: when to
  // reconcile again at the latest if no informer event comes.
  std::optional<Time> Deadline(const Key& key) const;
  // Drops every expectation of `key` (its object was deleted).
  void Forget(const Key& key);

  // Number of keys with expectations, for tests and debugging.
  std::size_t size() const {
    MutexLock lock(&mu_);
    return expected_.size();
  }
  Duration timeout() const { return timeout_; }

 private:
  struct Expectation {
    const client::Informer* informer;
    std::uint64_t rv;
    Time deadline;
  };

  const Duration timeout_;
  mutable Mutex mu_;
  std::map<Key, std::vector<Expectation>> expected_ GUARDED_BY(mu_);
};

// metadata.resourceVersion of `object` as a number; nullopt when absent, empty or not decimal.
std::optional<std::uint64_t> ResourceVersionOf(const api::Json& object);

}  // namespace lws::runtime
