// File: operator/leader_election.h
//
// Leader election among the operator's replicas on a coordination.k8s.io/v1 Lease, as
// client-go's LeaderElector runs it for controller-runtime (spec 21.1): every retry_period a
// candidate reads the Lease and acts on DecideLease (operator/lease.h); the leader renews
// every retry_period and, when it cannot for renew_deadline, stops leading (the command then
// exits, as controller-runtime does, and the pod restarts as a candidate).
//
//   LeaderElector elector(&loop, &client, options, {
//       .on_started_leading = [&] { StartControllers(); },
//       .on_stopped_leading = [&] { Exit("leader election lost"); }});
//   elector.Start();
//   ...
//   elector.Stop();  // a leader writes an empty holder first (release_on_cancel)
//
// I/O. Each attempt is one loop task: a leader first tries to renew from the Lease it last
// wrote (client-go's fast path: one PUT, no read); otherwise, and when that fails, it reads the
// Lease, decides, and creates or updates it. Updates carry the resourceVersion last seen, so a
// concurrent writer makes ours fail with 409 and we decide again on the next attempt.
//
// Determinism: time comes from the loop's clock and attempts are loop tasks, so an election on
// the virtual loop (sim/virtual_loop.h) is a pure function of the schedule. Attempts are exactly
// retry_period apart (client-go adds up to 1.2 x retry_period of jitter to candidates' retries;
// the Lease's optimistic concurrency, not the jitter, is what keeps elections safe).
//
// Threading: loop only. Client calls block the loop for their duration, so in production the
// elector should have a loop of its own (a slow API server then delays only the election).
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "base/event_loop.h"
#include "client/client.h"
#include "operator/lease.h"

namespace lws::op {

class GaugeVec;

struct LeaderCallbacks {
  std::function<void()> on_started_leading;
  // Called once when leadership ends: lost (renew deadline passed, or another holder found)
  // or given up by Stop. Never called for a candidate that did not lead.
  std::function<void()> on_stopped_leading;
  // The holder seen changed (also to us, and to "" after a release); client-go's OnNewLeader.
  std::function<void(const std::string& identity)> on_new_leader;
};

class LeaderElector {
 public:
  // `master_status`, when given, is leader_election_master_status: {lease name} is 1 while
  // leading, 0 otherwise. REQUIRES: loop, client and master_status outlive the elector.
  LeaderElector(EventLoop* loop, const client::Client* client, LeaderElectionOptions options,
                LeaderCallbacks callbacks, GaugeVec* master_status = nullptr);
  // Cancels the next attempt; no release and no callbacks (Stop is the graceful way out).
  ~LeaderElector();
  LeaderElector(const LeaderElector&) = delete;
  LeaderElector& operator=(const LeaderElector&) = delete;

  // The first attempt runs at once (posted to the loop).
  void Start();
  // Ends the election: no further attempts; a leader releases the Lease when
  // release_on_cancel and then hears on_stopped_leading. Idempotent.
  void Stop();

  bool leading() const { return self_.leading; }
  // True once the election ended (Stop, or leadership lost).
  bool stopped() const { return stopped_; }
  // The holder of the last record seen ("" when none).
  const std::string& leader() const { return observed_.holder_identity; }
  const LeaderElectionOptions& options() const { return options_; }

 private:
  void Attempt();
  // The leader's renewal from the Lease it last wrote; false when it did not succeed.
  bool TryFastRenew(Time now);
  LeaseObservation Observe(Time now);
  // Writes the decision's record; true on success.
  bool Write(const LeaseDecision& decision, Time now);
  void Succeeded(Time now);
  void Lose(const std::string& reason);
  void Release(Time now);
  void ReportLeader();
  void SetMasterStatus(bool leading);
  void Schedule(Time when);

  EventLoop* const loop_;
  const client::Client* const client_;
  const LeaderElectionOptions options_;
  const LeaderCallbacks callbacks_;
  GaugeVec* const master_status_;

  Leadership self_;
  std::optional<Json> lease_;      // the Lease as last read or written (its resourceVersion)
  LeaderElectionRecord observed_;  // its record
  Time observed_time_{};           // when `observed_` last changed, as we saw it
  std::optional<std::string> reported_leader_;
  bool started_ = false;
  bool stopped_ = false;
  TaskId next_attempt_ = 0;
  std::shared_ptr<char> alive_ = std::make_shared<char>(0);
};

}  // namespace lws::op
