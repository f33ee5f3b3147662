#include "controllers/disaggregatedset/planner.h"

#include <algorithm>
#include <cstdint>

namespace lws::disaggregatedset {
namespace {

using Counts = std::vector<int>;

// Upstream computes these with float64 and math.Floor/Ceil; for counts within API bounds that is
// exact integer division of non-negative numbers.
int FloorDiv(std::int64_t a, std::int64_t b) { return static_cast<int>(a / b); }
int CeilDiv(std::int64_t a, std::int64_t b) { return static_cast<int>((a + b - 1) / b); }

// How many replicas of a role one step moves: maxSurge, or without surge max(1, maxUnavailable).
int BatchSize(const RoleRollout& r) {
  return r.max_surge > 0 ? r.max_surge : std::max(1, r.max_unavailable);
}

// The new revision's counts one step on from the role that is furthest behind (never lower
// than now; upstream computeNextNewReplicas).
Counts NextNew(const PlannerInput& in, int steps) {
  const std::size_t n = in.target.size();
  if (steps == 0) return in.target;
  int behind = steps;
  for (std::size_t i = 0; i < n; ++i) {
    const int at =
        in.target[i] == 0 ? steps : FloorDiv(std::int64_t{in.current_new[i]} * steps, in.target[i]);
    behind = std::min(behind, at);
  }
  const int next = behind + 1;
  Counts out(n);
  for (std::size_t i = 0; i < n; ++i) {
    const int want = std::min(CeilDiv(std::int64_t{next} * in.target[i], steps), in.target[i]);
    out[i] = std::max(in.current_new[i], want);
  }
  return out;
}

// The old revisions' counts one step on from the role that is furthest ahead (never higher
// than now; upstream computeNextOldReplicas).
Counts NextOld(const PlannerInput& in, int steps) {
  const std::size_t n = in.target.size();
  if (steps == 0) return Counts(n, 0);
  int ahead = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (in.initial_old[i] <= 0) continue;
    const std::int64_t drained = in.initial_old[i] - in.current_old[i];
    ahead = std::max(ahead, FloorDiv(drained * steps, in.initial_old[i]));
  }
  const int next = ahead + 1;
  Counts out(n);
  for (std::size_t i = 0; i < n; ++i) {
    const int keep =
        in.initial_old[i] > 0
            ? in.initial_old[i] - FloorDiv(std::int64_t{next} * in.initial_old[i], steps)
            : 0;
    out[i] = std::min(in.current_old[i], std::max(0, keep));
  }
  return out;
}

// The availability floor of each old role: a role that does not grow keeps target -
// maxUnavailable replicas between its revisions (upstream computeMinOld).
Counts MinOld(const PlannerInput& in) {
  Counts out(in.target.size(), 0);
  for (std::size_t i = 0; i < out.size(); ++i) {
    if (in.initial_old[i] < in.target[i]) continue;
    out[i] = std::max(0, in.target[i] - in.rollout[i].max_unavailable - in.current_new[i]);
  }
  return out;
}

// Whether every non-growing role stays available with the old revisions at zero, given `news`.
bool CanDrainAllToZero(const PlannerInput& in, const Counts& news) {
  for (std::size_t i = 0; i < news.size(); ++i) {
    if (in.initial_old[i] >= in.target[i] &&
        news[i] < in.target[i] - in.rollout[i].max_unavailable) {
      return false;
    }
  }
  return true;
}

// No old role drops to zero while another keeps replicas: all go to zero together when that
// keeps every role available, otherwise those at zero keep one (upstream applyOrphanPrevention).
void PreventOrphans(const PlannerInput& in, const Counts& news, Counts* old) {
  int roles = 0;
  int zero = 0;
  for (std::size_t i = 0; i < old->size(); ++i) {
    if (in.initial_old[i] <= 0) continue;
    ++roles;
    if ((*old)[i] == 0) ++zero;
  }
  if (zero == 0 || zero == roles) return;
  const bool all = CanDrainAllToZero(in, news);
  for (std::size_t i = 0; i < old->size(); ++i) {
    if (in.initial_old[i] <= 0) continue;
    if (all) {
      (*old)[i] = 0;
    } else if ((*old)[i] == 0) {
      (*old)[i] = 1;
    }
  }
}

bool AnyBelow(const Counts& a, const Counts& b) {
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i] < b[i]) return true;
  }
  return false;
}

}  // namespace

int TotalSteps(const PlannerInput& in) {
  int total = 0;
  for (std::size_t i = 0; i < in.target.size(); ++i) {
    const int most = std::max({in.initial_old[i], in.target[i], 0});
    total = std::max(total, CeilDiv(most, BatchSize(in.rollout[i])));
  }
  return total;
}

std::optional<UpdateStep> NextStep(const PlannerInput& in) {
  const std::size_t n = in.target.size();
  bool complete = true;
  bool new_at_target = true;
  for (std::size_t i = 0; i < n; ++i) {
    complete = complete && in.current_old[i] == 0 && in.current_new[i] >= in.target[i];
    new_at_target = new_at_target && in.current_new[i] >= in.target[i];
  }
  if (complete) return std::nullopt;
  const int steps = TotalSteps(in);
  if (steps == 0) return std::nullopt;
  // Old replicas above where the rollout began (someone scaled an old revision up): back down.
  Counts expected(n);
  bool abnormal = false;
  for (std::size_t i = 0; i < n; ++i) {
    expected[i] = std::min(in.initial_old[i], in.current_old[i]);
    abnormal = abnormal || in.current_old[i] > expected[i];
  }
  if (abnormal) return UpdateStep{expected, in.current_new};
  if (new_at_target) return UpdateStep{Counts(n, 0), in.current_new};

  // Scale up first, within each role's surge (a role the spec dropped has no surge bound).
  const Counts next_new = NextNew(in, steps);
  bool fits = true;
  for (std::size_t i = 0; i < n; ++i) {
    if (in.target[i] != 0 &&
        in.current_old[i] + next_new[i] > in.target[i] + in.rollout[i].max_surge) {
      fits = false;
    }
  }
  if (fits && AnyBelow(in.current_new, next_new)) return UpdateStep{in.current_old, next_new};

  // Then drain in proportion, above each role's availability floor.
  const Counts floor = MinOld(in);
  Counts next_old = NextOld(in, steps);
  for (std::size_t i = 0; i < n; ++i) next_old[i] = std::max(next_old[i], floor[i]);
  PreventOrphans(in, in.current_new, &next_old);
  if (AnyBelow(next_old, in.current_old)) return UpdateStep{next_old, in.current_new};

  // A scale-up the surge blocks: drain what makes room and scale up in the same step.
  Counts drained(n);
  bool any = false;
  for (std::size_t i = 0; i < n; ++i) {
    const RoleRollout& r = in.rollout[i];
    drained[i] = std::max(0, std::min(in.current_old[i], in.target[i] + r.max_surge - next_new[i]));
    if (in.initial_old[i] >= in.target[i]) {
      drained[i] =
          std::max(drained[i], std::max(0, in.target[i] - r.max_unavailable - next_new[i]));
    }
    any = any || drained[i] < in.current_old[i];
  }
  if (!any) return std::nullopt;
  PreventOrphans(in, next_new, &drained);
  return UpdateStep{drained, next_new};
}

std::vector<UpdateStep> AllSteps(const std::vector<int>& initial_old,
                                 const std::vector<int>& target,
                                 const std::vector<RoleRollout>& rollout) {
  PlannerInput in{initial_old, initial_old, Counts(target.size(), 0), target, rollout};
  std::vector<UpdateStep> steps{{in.current_old, in.current_new}};
  int most = 0;
  for (int v : initial_old) most = std::max(most, v);
  for (int v : target) most = std::max(most, v);
  for (int k = 0; k < most * 2 + 10; ++k) {
    std::optional<UpdateStep> step = NextStep(in);
    if (!step) break;
    in.current_old = step->old;
    in.current_new = step->new_;
    steps.push_back(*std::move(step));
  }
  return steps;
}

}  // namespace lws::disaggregatedset
