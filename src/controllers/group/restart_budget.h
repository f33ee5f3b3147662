// File: controllers/group/restart_budget.h
//
// The opt-in restart budget and backoff (api/group_restarts.h) between DecideRestart's "delete
// the leader" and the deletion: whether this recreation may happen now, later, or never.
//
// GateRecreate, for a group DecideRestart would recreate, in order:
//   1. the group is already exhausted: nothing (the Warning was recorded when it became so);
//   2. the budget is spent (restarts >= max): mark the group exhausted, Warning event
//      ReplicaRestartBudgetExceeded; the group is kept as it is, its pods stay on their nodes
//      (under scarcity a released node may not come back) and kubelet keeps restarting the
//      failed container in place, so `kubectl logs --previous` shows why;
//   3. the backoff has not elapsed since the leader was created: wait, Normal event
//      GroupRestartBackoff naming the time (the same note on every try, so the recorder folds
//      them into one event with a count);
//   4. otherwise count the recreation and delete the leader (upstream's RecreateGroup).
// The delay runs from the leader's creation, not from the failure: a group that ran longer than
// the delay is recreated at once, as kubelet resets CrashLoopBackOff after a long enough run.
//
// PlanRecover: a leader carrying lws-cpp.dev/recover=true whose group is exhausted gets its count
// cleared and is deleted, so the group comes back with a fresh budget. Deleting the retained pods
// by hand is not recovery: the new group starts with the spent budget and is kept at its first
// failure (KEP 820's rule: recovery is asked for explicitly).
#pragma once

#include <optional>
#include <string>

#include "api/group_restarts.h"
#include "api/pod.h"
#include "base/clock.h"

namespace lws::controllers {

inline const std::string kReasonRestartBudgetExceeded = "ReplicaRestartBudgetExceeded";
inline const std::string kReasonGroupRestartBackoff = "GroupRestartBackoff";
inline const std::string kReasonRecoverGroup = "RecoverGroup";

struct BudgetInputs {
  api::GroupRestartConfig config;
  api::GroupRestartCounts counts;    // the LWS's state annotation
  const api::Pod* leader = nullptr;  // the group's leader (never null)
  Time now;
};

enum class BudgetVerdict { kRecreate, kWait, kExhaust, kKeep };

struct BudgetDecision {
  BudgetVerdict verdict = BudgetVerdict::kRecreate;
  // kRecreate and kExhaust: the counts to write before acting.
  std::optional<api::GroupRestartCounts> counts;
  Duration wait{0};  // kWait: how long until the group may be recreated
  // The event to record, if any (type "Normal" or "Warning").
  std::string event_type;
  std::string reason;
  std::string note;
};

// REQUIRES: in.config.enabled(). `failed_pod` names the pod whose failure asks for the
// recreation (for the notes).
BudgetDecision GateRecreate(const BudgetInputs& in, const std::string& failed_pod);

// nullopt unless in.leader asks for recovery and its group is exhausted; then kRecreate with the
// entry removed and the RecoverGroup event.
std::optional<BudgetDecision> PlanRecover(const BudgetInputs& in);

// The key of the leader's group in the counts: its revision label and group index.
std::string GroupRestartKeyOf(const api::Pod& leader);

}  // namespace lws::controllers
