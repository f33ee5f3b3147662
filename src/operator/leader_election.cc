// The election loop (leader_election.h): one attempt per retry period, each reading and writing
// the Lease through the client and acting on DecideLease.
#include "operator/leader_election.h"

#include <algorithm>

#include "base/log.h"
#include "operator/metrics_registry.h"

namespace lws::op {
namespace {

const std::string kLogger = "leader-election";

}  // namespace

LeaderElector::LeaderElector(EventLoop* loop, const client::Client* client,
                             LeaderElectionOptions options, LeaderCallbacks callbacks,
                             GaugeVec* master_status)
    : loop_(loop),
      client_(client),
      options_(std::move(options)),
      callbacks_(std::move(callbacks)),
      master_status_(master_status) {}

LeaderElector::~LeaderElector() {
  if (next_attempt_ != 0) loop_->Cancel(next_attempt_);
  alive_.reset();
}

void LeaderElector::Start() {
  if (started_ || stopped_) return;
  started_ = true;
  SetMasterStatus(false);
  Logger(kLogger)->info("attempting to acquire leader lease {}/{} as {}", options_.lease_namespace,
                        options_.lease_name, options_.identity);
  Schedule(loop_->Now());
}

void LeaderElector::Stop() {
  if (stopped_) return;
  stopped_ = true;
  if (next_attempt_ != 0) loop_->Cancel(next_attempt_);
  next_attempt_ = 0;
  if (!self_.leading) return;
  if (options_.release_on_cancel) Release(loop_->Now());
  self_.leading = false;
  SetMasterStatus(false);
  if (callbacks_.on_stopped_leading) callbacks_.on_stopped_leading();
}

void LeaderElector::Schedule(Time when) {
  std::weak_ptr<char> alive = alive_;
  next_attempt_ = loop_->At(when, [this, alive] {
    if (alive.expired()) return;
    next_attempt_ = 0;
    Attempt();
  });
}

void LeaderElector::Attempt() {
  if (stopped_) return;
  const Time now = loop_->Now();
  if (self_.leading && !RenewDeadlinePassed(self_, now) && TryFastRenew(now)) return Succeeded(now);

  LeaseDecision decision;
  if (RenewDeadlinePassed(self_, now)) {
    decision = DecideLease({}, self_, now, options_);  // lost, whatever the Lease says now
  } else {
    decision = DecideLease(Observe(now), self_, now, options_);
    ReportLeader();
  }
  switch (decision.action) {
    case LeaseAction::kLost:
      return Lose(decision.reason);
    case LeaseAction::kWait:
      Logger(kLogger)->debug("{}: {}", options_.identity, decision.reason);
      break;
    case LeaseAction::kCreate:
    case LeaseAction::kAcquire:
    case LeaseAction::kRenew:
      if (Write(decision, now)) return Succeeded(now);
      break;
  }
  // A leader retries no later than its deadline, so it notices at once that it has lost.
  Time next = now + options_.retry_period;
  if (self_.leading) next = std::min(next, self_.renew_deadline_at);
  Schedule(next);
}

bool LeaderElector::TryFastRenew(Time now) {
  if (!lease_ || !LeaseValid(observed_, observed_time_, now)) return false;
  LeaseObservation cached{LeaseObservation::State::kPresent, observed_, observed_time_};
  LeaseDecision decision = DecideLease(cached, self_, now, options_);
  if (decision.action != LeaseAction::kRenew) return false;
  if (Write(decision, now)) return true;
  Logger(kLogger)->info("{}: optimistic renewal failed, reading the Lease", options_.identity);
  return false;
}

LeaseObservation LeaderElector::Observe(Time now) {
  using State = LeaseObservation::State;
  Result<store::ObjectPtr> got =
      client_->Get(kLeases, options_.lease_namespace, options_.lease_name);
  if (!got.ok()) {
    if (got.status().code() == Code::kNotFound) {
      lease_.reset();
      return {State::kMissing, {}, {}};
    }
    Logger(kLogger)->error("error retrieving lease {}/{}: {}", options_.lease_namespace,
                           options_.lease_name, got.status().ToString());
    return {};
  }
  Result<LeaderElectionRecord> record = RecordFromLease((*got)->document());
  if (!record.ok()) {
    Logger(kLogger)->error("{}", record.status().ToString());
    return {};
  }
  lease_ = (*got)->document();
  // Rule 1 of lease.h: the holder's time runs from when we saw the record change.
  if (*record != observed_ || observed_time_ == Time{}) {
    observed_ = *record;
    observed_time_ = now;
  }
  return {State::kPresent, observed_, observed_time_};
}

bool LeaderElector::Write(const LeaseDecision& decision, Time now) {
  Result<store::ObjectPtr> answer = Status::Internal("unreachable");
  if (decision.action == LeaseAction::kCreate) {
    answer = client_->Create(
        kLeases, NewLease(options_.lease_namespace, options_.lease_name, decision.record));
  } else {
    Json lease = *lease_;  // keeps metadata.resourceVersion: a concurrent write makes this 409
    lease["spec"] = LeaseSpecFromRecord(decision.record);
    answer = client_->Update(kLeases, std::move(lease));
  }
  if (!answer.ok()) {
    Logger(kLogger)->info("{}: failed to {} lease {}/{}: {}", options_.identity,
                          LeaseActionName(decision.action), options_.lease_namespace,
                          options_.lease_name, answer.status().ToString());
    return false;
  }
  lease_ = (*answer)->document();
  observed_ = decision.record;
  observed_time_ = now;
  return true;
}

void LeaderElector::Succeeded(Time now) {
  self_.renew_deadline_at = now + options_.retry_period + options_.renew_deadline;
  ReportLeader();
  if (!self_.leading) {
    self_.leading = true;
    Logger(kLogger)->info("{}: successfully acquired lease {}/{}", options_.identity,
                          options_.lease_namespace, options_.lease_name);
    SetMasterStatus(true);
    if (callbacks_.on_started_leading) callbacks_.on_started_leading();
    if (stopped_) return;  // the callback stopped the election
  }
  Schedule(now + options_.retry_period);
}

void LeaderElector::Lose(const std::string& reason) {
  Logger(kLogger)->error("{}: leader election lost: {}", options_.identity, reason);
  stopped_ = true;
  self_.leading = false;
  SetMasterStatus(false);
  if (callbacks_.on_stopped_leading) callbacks_.on_stopped_leading();
}

void LeaderElector::Release(Time now) {
  if (!lease_ || observed_.holder_identity != options_.identity) return;
  LeaderElectionRecord released = ReleasedRecord(observed_, now);
  Json lease = *lease_;
  lease["spec"] = LeaseSpecFromRecord(released);
  Result<store::ObjectPtr> answer = client_->Update(kLeases, std::move(lease));
  if (!answer.ok()) {
    Logger(kLogger)->error("{}: failed to release lease {}/{}: {}", options_.identity,
                           options_.lease_namespace, options_.lease_name,
                           answer.status().ToString());
    return;
  }
  lease_ = (*answer)->document();
  observed_ = released;
  observed_time_ = now;
  Logger(kLogger)->info("{}: released lease {}/{}", options_.identity, options_.lease_namespace,
                        options_.lease_name);
}

void LeaderElector::ReportLeader() {
  if (reported_leader_ && *reported_leader_ == observed_.holder_identity) return;
  if (!reported_leader_ && observed_.holder_identity.empty() && !lease_)
    return;  // nothing seen yet
  reported_leader_ = observed_.holder_identity;
  if (callbacks_.on_new_leader) callbacks_.on_new_leader(*reported_leader_);
}

void LeaderElector::SetMasterStatus(bool leading) {
  if (master_status_ != nullptr) master_status_->Set({options_.lease_name}, leading ? 1 : 0);
}

}  // namespace lws::op
