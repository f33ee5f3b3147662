// File: operator/lease.h
//
// Leader election's record on a coordination.k8s.io/v1 Lease, and the pure decision of one
// election attempt: client-go's tools/leaderelection tryAcquireOrRenew with its I/O taken out
// (DESIGN.md 2.1). The loop that reads and writes the Lease is operator/leader_election.h.
//
// The rules, as client-go applies them:
//   1. A holder's claim is valid until `leaseDurationSeconds` after the moment WE last saw the
//      record change ("observed time"), never by the remote renewTime: the clocks of two pods
//      need not agree, only their rates.
//   2. No Lease: create one naming us. Held by another and still valid: wait. Held by us: renew
//      (acquireTime and leaderTransitions kept). Empty holder (released) or expired: take over,
//      leaderTransitions + 1.
//   3. A leader that has not renewed by its renew deadline has lost; so has a leader that finds
//      another holder with a valid claim. client-go keeps trying until the deadline in the
//      second case; stopping at once is never less safe, so we do.
//
// Times are written as metav1.MicroTime ("2006-01-02T15:04:05.000000Z"); a record is built
// from microsecond-truncated times so that what we write compares equal to what we read back.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "api/codec.h"
#include "base/clock.h"
#include "base/result.h"
#include "base/rng.h"
#include "client/resource.h"

namespace lws::op {

using api::Json;

inline const client::Resource kLeases{"coordination.k8s.io", "v1", "leases"};

// client-go's resourcelock.LeaderElectionRecord, as a Lease spec carries it.
struct LeaderElectionRecord {
  std::string holder_identity;  // "" : released, nobody holds it
  int lease_duration_seconds = 0;
  std::optional<Time> acquire_time;
  std::optional<Time> renew_time;
  int leader_transitions = 0;
  bool operator==(const LeaderElectionRecord&) const = default;
};

// controller-runtime's defaults (spec 21.1), and the Lease upstream LWS elects on.
struct LeaderElectionOptions {
  std::string lease_namespace = "lws-system";
  std::string lease_name = "b8b2488c.x-k8s.io";
  std::string identity;  // LeaderIdentity(): "<hostname>_<uuid>"
  Duration lease_duration = std::chrono::seconds(15);
  Duration renew_deadline = std::chrono::seconds(10);
  Duration retry_period = std::chrono::seconds(2);
  // On Stop, a leader writes an empty holder so a standby takes over at once, not after
  // lease_duration (controller-runtime's LeaderElectionReleaseOnCancel).
  bool release_on_cancel = true;
};

// The record of a Lease's spec (LeaseSpecToLeaseElectionRecord): absent fields read as zero.
// A field of the wrong type or a time that does not parse is BadRequest naming
// "spec.<field>" and the Lease.
Result<LeaderElectionRecord> RecordFromLease(const Json& lease);

// The Lease spec a record is written as (LeaderElectionRecordToLeaseSpec).
Json LeaseSpecFromRecord(const LeaderElectionRecord& record);

// A new Lease object `ns`/`name` carrying `record`.
Json NewLease(const std::string& ns, const std::string& name, const LeaderElectionRecord& record);

// "<hostname>_<uuid v4>" as controller-runtime names a candidate; the uuid's bits come from
// `rng` (the command seeds it from the operating system, tests from a constant).
std::string LeaderIdentity(std::string_view hostname, Rng* rng);

// `t` without its sub-microsecond part: the precision a MicroTime keeps.
Time TruncateToMicros(Time t);

// What one attempt found when it read the Lease.
struct LeaseObservation {
  enum class State { kUnreadable, kMissing, kPresent };
  State state = State::kUnreadable;
  LeaderElectionRecord record;  // kPresent only
  Time observed_time{};         // kPresent: when `record` last changed as we saw it
};

// The candidate's own side of the election.
struct Leadership {
  bool leading = false;
  Time renew_deadline_at{};  // leading: leadership ends here unless renewed before
};

enum class LeaseAction { kWait, kCreate, kAcquire, kRenew, kLost };
std::string_view LeaseActionName(LeaseAction action);

struct LeaseDecision {
  LeaseAction action = LeaseAction::kWait;
  LeaderElectionRecord record;  // kCreate, kAcquire, kRenew: the record to write
  std::string reason;           // kWait, kLost: why, for the log
  bool operator==(const LeaseDecision&) const = default;
};

// True iff `record`, which we saw change at `observed_time`, still binds other candidates at
// `now` (client-go's isLeaseValid).
bool LeaseValid(const LeaderElectionRecord& record, Time observed_time, Time now);

// True iff a leader has reached its renew deadline without renewing.
bool RenewDeadlinePassed(const Leadership& self, Time now);

// One election attempt, decided (rules 1-3 above).
LeaseDecision DecideLease(const LeaseObservation& observation, const Leadership& self, Time now,
                          const LeaderElectionOptions& options);

// What a leader writes when it steps down (client-go's release): no holder, a one-second
// lease, renew and acquire times now, leaderTransitions kept.
LeaderElectionRecord ReleasedRecord(const LeaderElectionRecord& held, Time now);

}  // namespace lws::op
