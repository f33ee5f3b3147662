#include "scenario/ds_rollout_checker.h"

#include <fmt/format.h>

#include <algorithm>

#include "api/codec.h"
#include "client/resource.h"
#include "controllers/disaggregatedset/ds_caches.h"
#include "controllers/disaggregatedset/naming.h"
#include "controllers/disaggregatedset/revision.h"
#include "controllers/disaggregatedset/slice_plan.h"

namespace lws::scenario {
namespace {

int CeilDiv(std::int64_t a, std::int64_t b) { return static_cast<int>((a + b - 1) / b); }

store::ListOptions OfSet(const std::string& name) {
  store::ListOptions options;
  options.namespace_ = "default";
  options.label_selector = api::Selector::FromSet({{api::kDsNameLabel, name}});
  return options;
}

}  // namespace

bool DsRolloutChecker::Read(api::DisaggregatedSet* ds, std::string* revision,
                            Counts* counts) const {
  auto stored = user_->Get(disaggregatedset::kDisaggregatedSets, "default", name_);
  if (!stored.ok()) return false;
  auto decoded = api::Decode<api::DisaggregatedSet>((*stored)->document());
  if (!decoded.ok()) return false;
  *ds = *decoded;
  Result<std::string> rev = disaggregatedset::ComputeRevision(*ds);
  if (!rev.ok()) return false;
  *revision = *rev;
  auto listed = user_->List(client::kLeaderWorkerSets, OfSet(name_));
  if (!listed.ok()) return false;
  for (const store::ObjectPtr& object : listed->items) {
    auto lws = api::Decode<api::LeaderWorkerSet>(object->document());
    if (!lws.ok()) continue;
    const int slice = disaggregatedset::SliceOfLabels(lws->metadata.labels);
    RoleCounts& c = (*counts)[slice][lws->metadata.Label(api::kDsRoleLabel)];
    (lws->metadata.Label(api::kDsRevisionLabel) == *revision ? c.new_ : c.old_) += lws->Replicas();
  }
  return true;
}

void DsRolloutChecker::RolloutStarted() {
  api::DisaggregatedSet ds;
  std::string revision;
  Counts counts;
  if (!Read(&ds, &revision, &counts)) return Violation("cannot read the set at the rollout");
  initial_.clear();
  for (const auto& [slice, roles] : counts) {
    for (const auto& [role, c] : roles) initial_[slice][role] = c.old_ + c.new_;
  }
  rolling_ = true;
}

void DsRolloutChecker::Check() {
  if (!rolling_) return;
  api::DisaggregatedSet ds;
  std::string revision;
  Counts counts;
  if (!Read(&ds, &revision, &counts)) return;
  for (const auto& [slice, roles] : counts) CheckSlice(ds, slice, roles);
}

void DsRolloutChecker::CheckSlice(const api::DisaggregatedSet& ds, int slice,
                                  const std::map<std::string, RoleCounts>& counts) {
  // The planner's view of the slice: the spec's roles in order.
  disaggregatedset::PlannerInput in;
  std::vector<const api::DisaggregatedRoleSpec*> roles;
  for (const auto& role : ds.spec.roles) {
    roles.push_back(&role);
    in.initial_old.push_back(initial_[slice][role.name]);
    in.target.push_back(role.Replicas());
    in.rollout.push_back(disaggregatedset::RolloutOf(role, role.Replicas()));
  }
  const int steps = disaggregatedset::TotalSteps(in);
  if (steps == 0) return;
  int slowest = steps;
  for (std::size_t i = 0; i < roles.size(); ++i) {
    auto it = counts.find(roles[i]->name);
    const int now = it == counts.end() ? 0 : it->second.new_;
    if (in.target[i] > 0) slowest = std::min(slowest, now * steps / in.target[i]);
  }
  for (std::size_t i = 0; i < roles.size(); ++i) {
    auto it = counts.find(roles[i]->name);
    const RoleCounts c = it == counts.end() ? RoleCounts{} : it->second;
    const int n = in.target[i];
    const auto& r = in.rollout[i];
    const std::string where = fmt::format(
        "slice {} role {} (old {} new {}, target {}, initial {}, "
        "maxSurge {} maxUnavailable {}, {} steps)",
        slice, roles[i]->name, c.old_, c.new_, n, in.initial_old[i], r.max_surge, r.max_unavailable,
        steps);
    if (in.initial_old[i] >= n && c.old_ + c.new_ < n - r.max_unavailable) {
      Violation("below the floor: " + where);
    }
    if (c.new_ > 0 && c.old_ + c.new_ > n + r.max_surge + CeilDiv(n, steps)) {
      Violation("above the surge: " + where);
    }
    if (n > 0 && c.new_ > CeilDiv(static_cast<std::int64_t>(slowest + 1) * n, steps)) {
      Violation(fmt::format("ahead of the slowest role's next step {}: {}", slowest + 1, where));
    }
  }
}

bool DsRolloutChecker::Converged(std::string* why) const {
  api::DisaggregatedSet ds;
  std::string revision;
  Counts counts;
  if (!Read(&ds, &revision, &counts)) {
    *why = "the set cannot be read";
    return false;
  }
  const api::Condition* available = api::FindCondition(ds.status.conditions, "Available");
  if (ds.status.observed_generation != ds.metadata.generation || available == nullptr ||
      available->status != "True") {
    *why = fmt::format("not Available at generation {}", ds.metadata.generation);
    return false;
  }
  for (const auto& [slice, roles] : counts) {
    for (const auto& [role, c] : roles) {
      const api::DisaggregatedRoleSpec* spec = ds.FindRole(role);
      const int want = spec == nullptr || slice >= ds.Slices() ? 0 : spec->Replicas();
      if (c.old_ != 0 || c.new_ != want) {
        *why = fmt::format("slice {} role {}: old {} new {}, want 0 and {}", slice, role, c.old_,
                           c.new_, want);
        return false;
      }
    }
  }
  for (const api::RoleStatus& status : ds.status.role_statuses) {
    const api::DisaggregatedRoleSpec* spec = ds.FindRole(status.name);
    const int want = spec == nullptr ? -1 : spec->Replicas() * ds.Slices();
    if (status.replicas != want || status.ready_replicas != want ||
        status.updated_replicas != want) {
      *why = fmt::format("role status {}: {}/{}/{}, want {}", status.name, status.replicas,
                         status.ready_replicas, status.updated_replicas, want);
      return false;
    }
  }
  return true;
}

void DsRolloutChecker::Violation(std::string what) {
  if (violations_.size() < 20) violations_.push_back(std::move(what));
}

}  // namespace lws::scenario
