// File: client/faulty_client.h
//
// A Client that forwards every call to another one and, while faults are on, fails some of them
// the way a real API server and its network do: DESIGN.md 2.3's "faults come from the seed", at
// the client boundary. controller-runtime's client/interceptor wraps a client the same way for
// hand-written error injection; here a seeded Rng chooses the faults.
//
// Write faults, drawn for each Create, Update, UpdateStatus, Patch, Delete and Bind:
//   - refused (the write is not applied): 500 InternalError (etcd lost its leader), 409 Conflict
//     (the optimistic-lock message of the registry) or 429 TooManyRequests (the max-in-flight and
//     priority-and-fairness filters), one third each;
//   - lost answer (the write is applied, the client still sees an error): 504 Timeout (the
//     request timeout filter answers while the write goes on) or 500 InternalError (etcd's
//     "request timed out", which the Raft log may already hold), half each.
// Each answer is the metav1.Status document kube-apiserver sends, read through StatusFromAnswer,
// as an answer off the wire is.
//
// Watch faults:
//   - delay: each event waits a seeded delay of up to watch_delay_max before the handler sees
//     it; the stream keeps its order (a slow watch, as a loaded API server's, never reorders);
//   - drop (DropWatches): every open stream ends at once and the events still in flight are
//     lost. Each stream re-lists, as a client whose watch was closed and whose resourceVersion
//     has expired must: one batch of DELETED for every object it had delivered that the list
//     lacks and ADDED for every listed object (client/relist.h), then a new inner stream (whose
//     own initial list the handler already has).
// Reads (Get, List) pass through: the controllers read their caches, which the watches fill.
//
// With faults off (the default, or SetFaults({})) calls only forward, no random number is drawn,
// and a watch event reaches the handler in the task that delivered it; events delayed earlier
// still arrive in order.
//
// Determinism: one Rng stream for the writes and one for the watches, both derived from the one
// given, so a seed replays; callers give each component its own (Rng(seed).Derive(name)).
//
// Threading: single-threaded, on the loop (the simulator's). Not for reconcile workers.
// REQUIRES: the inner client outlives this one and its subscriptions.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "base/clock.h"
#include "base/rng.h"
#include "client/client.h"

namespace lws::client {

struct ClientFaults {
  double refused = 0;          // share of writes refused: 500, 409 or 429, not applied
  double lost_answer = 0;      // share of writes applied and then answered 504 or 500
  Duration watch_delay_max{};  // each watch event waits up to this long (uniform, in ms)
  bool any() const { return refused > 0 || lost_answer > 0 || watch_delay_max > Duration::zero(); }
};

// What the faults did, for tests and for the sweep's report of a run.
struct FaultCounts {
  std::uint64_t refused = 0;
  std::uint64_t lost_answers = 0;
  std::uint64_t delayed_events = 0;
  std::uint64_t dropped_streams = 0;
};

class FaultyWatch;  // faulty_watch.cc

class FaultyClient final : public Client {
 public:
  // The shared state of the client and its watches (the watches may outlive neither).
  struct State {
    ClientFaults faults;
    Rng writes;
    Rng watches;
    FaultCounts counts;
    std::vector<std::weak_ptr<FaultyWatch>> open;  // in the order they were opened
  };

  FaultyClient(const Client* inner, Rng rng);
  FaultyClient(const FaultyClient&) = delete;
  FaultyClient& operator=(const FaultyClient&) = delete;

  void SetFaults(const ClientFaults& faults) { state_->faults = faults; }
  const ClientFaults& faults() const { return state_->faults; }
  const FaultCounts& counts() const { return state_->counts; }
  // Ends every open watch stream now; each starts over from a fresh list (see above).
  void DropWatches();

  Result<store::ObjectPtr> Create(const Resource& resource, Json object) const override;
  Result<store::ObjectPtr> Update(const Resource& resource, Json object) const override;
  Result<store::ObjectPtr> UpdateStatus(const Resource& resource, Json object) const override;
  Result<store::ObjectPtr> Patch(const Resource& resource, const std::string& ns,
                                 const std::string& name, client::PatchType type, const Json& patch,
                                 const std::string& subresource = "") const override;
  Result<store::ObjectPtr> Delete(const Resource& resource, const std::string& ns,
                                  const std::string& name,
                                  const DeleteOptions& options = {}) const override;
  Status Bind(const std::string& ns, const std::string& pod, const std::string& pod_uid,
              const std::string& node) const override;

  Result<store::ObjectPtr> Get(const Resource& resource, const std::string& ns,
                               const std::string& name) const override {
    return inner_->Get(resource, ns, name);
  }
  Result<store::ListResult> List(const Resource& resource,
                                 const store::ListOptions& options = {}) const override {
    return inner_->List(resource, options);
  }
  Result<std::unique_ptr<Subscription>> Watch(EventLoop* loop, const Resource& resource,
                                              const std::string& ns,
                                              WatchHandler handler) const override;

  const std::string& field_manager() const override { return inner_->field_manager(); }

 private:
  enum class WriteFault { kNone, kRefused, kLostAnswer };
  WriteFault DrawWriteFault() const;
  // Forwards `write` unless a fault refuses it; a lost answer replaces its success.
  template <class Write>
  Result<store::ObjectPtr> Faulted(const Resource& resource, const std::string& name,
                                   Write write) const;

  const Client* inner_;
  std::shared_ptr<State> state_;
};

// The errors above, as kube-apiserver words them (exposed for the tests).
Status RefusedWrite(int http_code, const Resource& resource, const std::string& name);
Status LostAnswer(int http_code);

}  // namespace lws::client
