// File: scenario/ds_rollout_checker.h
//
// The invariants of a DisaggregatedSet rollout (docs/disaggregatedset.md, "What the sweep
// checks"), read through the API as kubectl would after every stored change. Per slice and role,
// with I the role's replicas when the rollout began, N its target, mu and ms its resolved
// maxUnavailable and maxSurge (the executor's reading: percentages of N, {1, 0} when both are 0
// or absent) and T the planner's step count for the slice:
//
//   1. Floor: old + new replicas asked for never fall below N - mu, for a role with I >= N
//      (upstream's TestNRole_UnavailableConstraint, here at every write, not only every step).
//   2. Surge: old + new never exceed N + ms, except inside a step that drains and scales at once,
//      between its scale-up and its drain (upstream's executor scales up first): there by at most
//      that step's growth, ceil(N / T).
//   3. Ratio: no role's new replicas run ahead of the slowest role's next step: with k the least
//      step index floor(new_j * T / N_j) over the roles, new_i <= ceil((k + 1) * N_i / T).
//   4. Convergence (Converged): the set is Available at its generation, each slice has exactly
//      one LWS per role, at the current revision, with N replicas, and the role statuses say so.
//
// 1-3 are checked while a rollout is in progress (from RolloutStarted until the next
// convergence); the counts are the LeaderWorkerSets' spec.replicas, what the controller asks.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "api/disaggregatedset_types.h"
#include "client/local/local_client.h"

namespace lws::scenario {

class DsRolloutChecker {
 public:
  DsRolloutChecker(const client::LocalClient* user, std::string name)
      : user_(user), name_(std::move(name)) {}

  // A template change was made: the counts now are each role's I, and 1-3 apply.
  void RolloutStarted();
  void Check();
  // The set's state of rest (4); `why` says what is missing.
  bool Converged(std::string* why) const;
  const std::vector<std::string>& violations() const { return violations_; }

 private:
  struct RoleCounts {
    int old_ = 0;
    int new_ = 0;
  };
  // Per slice, per role: the replicas of the current revision and of the others.
  using Counts = std::map<int, std::map<std::string, RoleCounts>>;
  bool Read(api::DisaggregatedSet* ds, std::string* revision, Counts* counts) const;
  void CheckSlice(const api::DisaggregatedSet& ds, int slice,
                  const std::map<std::string, RoleCounts>& counts);
  void Violation(std::string what);

  const client::LocalClient* user_;
  std::string name_;
  bool rolling_ = false;
  std::map<int, std::map<std::string, int>> initial_;  // I per slice and role
  std::vector<std::string> violations_;
};

}  // namespace lws::scenario
