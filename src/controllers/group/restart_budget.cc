#include "controllers/group/restart_budget.h"

#include "api/go_duration.h"

namespace lws::controllers {
namespace {

std::string GroupOf(const api::Pod& leader) { return leader.metadata.Label(api::kGroupIndexLabel); }

std::string Times(std::int32_t n) { return std::to_string(n) + (n == 1 ? " time" : " times"); }

BudgetDecision Exhaust(const BudgetInputs& in, const std::string& key,
                       const std::string& failed_pod) {
  BudgetDecision d;
  d.verdict = BudgetVerdict::kExhaust;
  d.counts = in.counts;
  (*d.counts)[key].exhausted = true;
  const std::string& leader = in.leader->metadata.name;
  d.event_type = "Warning";
  d.reason = kReasonRestartBudgetExceeded;
  d.note = "Pod " + failed_pod + " failed; group " + GroupOf(*in.leader) +
           " was already recreated " + Times((*d.counts)[key].restarts) + " (" +
           api::kMaxGroupRestartsAnnotation + ": " + std::to_string(*in.config.max_restarts) +
           "), so it is kept as it is for debugging; annotate leader pod " + leader + " with " +
           api::kRecoverAnnotation + "=true to recreate it";
  return d;
}

// When the leader's group may be recreated; nullopt when now (no backoff, or no creation time).
std::optional<Time> NotBefore(const BudgetInputs& in, std::int32_t restarts) {
  if (!in.config.backoff) return std::nullopt;
  Result<Time> created = ParseRfc3339(in.leader->metadata.creation_timestamp);
  if (!created.ok()) return std::nullopt;
  const Time at = *created + api::GroupRestartDelay(*in.config.backoff, restarts);
  if (at <= in.now) return std::nullopt;
  return at;
}

}  // namespace

std::string GroupRestartKeyOf(const api::Pod& leader) {
  return api::GroupRestartKey(leader.metadata.Label(api::kRevisionLabel), GroupOf(leader));
}

BudgetDecision GateRecreate(const BudgetInputs& in, const std::string& failed_pod) {
  const std::string key = GroupRestartKeyOf(*in.leader);
  auto it = in.counts.find(key);
  const api::GroupRestartEntry entry =
      it != in.counts.end() ? it->second : api::GroupRestartEntry{};
  if (entry.exhausted) return BudgetDecision{BudgetVerdict::kKeep};
  if (in.config.max_restarts && entry.restarts >= *in.config.max_restarts) {
    return Exhaust(in, key, failed_pod);
  }
  if (std::optional<Time> at = NotBefore(in, entry.restarts)) {
    BudgetDecision d;
    d.verdict = BudgetVerdict::kWait;
    d.wait = *at - in.now;
    d.event_type = "Normal";
    d.reason = kReasonGroupRestartBackoff;
    d.note = "Pod " + failed_pod + " failed; group " + GroupOf(*in.leader) + " was recreated " +
             Times(entry.restarts) + ", so it is recreated at " + FormatRfc3339(*at) + ", " +
             api::FormatGoDuration(api::GroupRestartDelay(*in.config.backoff, entry.restarts)) +
             " after its leader was created (" + api::kGroupRestartBackoffAnnotation + ": " +
             api::FormatGoDuration(*in.config.backoff) + ")";
    return d;
  }
  BudgetDecision d;
  d.counts = in.counts;
  ++(*d.counts)[key].restarts;
  return d;
}

std::optional<BudgetDecision> PlanRecover(const BudgetInputs& in) {
  if (in.leader->metadata.Annotation(api::kRecoverAnnotation) != "true") return std::nullopt;
  if (in.leader->metadata.IsDeleting()) return std::nullopt;
  const std::string key = GroupRestartKeyOf(*in.leader);
  auto it = in.counts.find(key);
  if (it == in.counts.end() || !it->second.exhausted) return std::nullopt;
  BudgetDecision d;
  d.counts = in.counts;
  d.counts->erase(key);
  d.event_type = "Normal";
  d.reason = kReasonRecoverGroup;
  d.note = "Leader pod " + in.leader->metadata.name + " carries " + api::kRecoverAnnotation +
           "=true: cleared the restart count of group " + GroupOf(*in.leader) +
           " and deleted the leader to recreate the group";
  return d;
}

}  // namespace lws::controllers
