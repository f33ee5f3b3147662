// What a run watches (watched.h).
#include "simulate/watched.h"

#include <algorithm>

#include "api/disaggregatedset_types.h"
#include "api/lws_types.h"
#include "client/resource.h"
#include "controllers/disaggregatedset/naming.h"
#include "controllers/disaggregatedset/revision.h"
#include "controllers/disaggregatedset/slice_plan.h"
#include "controllers/lws/rolling_update.h"
#include "store/decoded_view.h"

namespace lws::simulate {
namespace {

bool IsReady(GroupState s) { return s == GroupState::kOldReady || s == GroupState::kNewReady; }

// A group of a DisaggregatedSet role's LWS: new when the LWS is of the set's current revision,
// old otherwise, whatever the LWS's own template says.
GroupState AsRevision(GroupState s, bool current) {
  switch (s) {
    case GroupState::kOldReady:
    case GroupState::kNewReady:
      return current ? GroupState::kNewReady : GroupState::kOldReady;
    case GroupState::kOldStarting:
    case GroupState::kNewStarting:
      return current ? GroupState::kNewStarting : GroupState::kOldStarting;
    default:
      return s;
  }
}

// An LWS at rest: Available, no update in progress, its leader set at spec.replicas.
bool AtRest(const Observation& o) {
  return o.available && !o.update_in_progress && o.sts_replicas == o.replicas;
}

bool ConditionTrue(const std::vector<api::Condition>& conditions, const std::string& type) {
  return std::any_of(conditions.begin(), conditions.end(),
                     [&](const api::Condition& c) { return c.type == type && c.status == "True"; });
}

// Adds `part`'s counts to `role` (its groups are added by the caller, on their rows).
void AddCounts(const Observation& part, Observation* role) {
  role->sts_replicas += part.sts_replicas;
  role->partition += part.partition;
  role->ready += part.ready;
  role->new_ready += part.new_ready;
  role->accelerators += part.accelerators;
  role->surge_accelerators += part.surge_accelerators;
  role->stranded_accelerators += part.stranded_accelerators;
  role->restarts += part.restarts;
}

}  // namespace

WatchedWorkload WorkloadOf(const Json& object) {
  return {api::StringMember(object, "kind"), NameOf(object)};
}

std::vector<const Json*> Targets(const Change& c, const std::vector<Json>& workloads) {
  std::vector<const Json*> out;
  if (c.kind != Change::Kind::kPatch) return out;
  for (const Json& object : workloads) {
    if (!IsRollable(object)) continue;
    if (c.target_kind.empty() ||
        (api::StringMember(object, "kind") == c.target_kind && NameOf(object) == c.target)) {
      out.push_back(&object);
    }
  }
  return out;
}

std::vector<WatchedWorkload> WatchedOf(const Scenario& s, const std::vector<Json>& workloads) {
  std::vector<WatchedWorkload> out;
  for (const Change& c : s.timeline) {
    for (const Json* object : Targets(c, workloads)) {
      if (std::find(out.begin(), out.end(), WorkloadOf(*object)) == out.end())
        out.push_back(WorkloadOf(*object));
    }
  }
  for (const Json& object : workloads) {
    if (out.empty() && IsRollable(object)) out.push_back(WorkloadOf(object));
  }
  return out;
}

std::string Watched::Names() const {
  std::string names;
  for (const WatchedWorkload& w : workloads_) names += (names.empty() ? "" : ",") + w.name;
  return names;
}

void Watched::Changed(const WatchedWorkload& w, std::int64_t generation) {
  std::int64_t& at = changed_[{w.kind, w.name}];
  at = std::max(at, generation);
}

std::int64_t Watched::ChangeGeneration(const WatchedWorkload& w) const {
  auto it = changed_.find({w.kind, w.name});
  return it == changed_.end() ? 1 : it->second;
}

bool Watched::LwsAtRest(const std::string& name, const Observation& o) const {
  return AtRest(o) && o.observed_generation >= ChangeGeneration({api::kLwsKind.data(), name});
}

std::string Watched::RowLabel(int row) const {
  return row >= 0 && row < static_cast<int>(row_labels_.size()) ? row_labels_[row] : "";
}

void Watched::Place(const std::string& role, const std::string& lws, const Observation& part,
                    std::vector<GroupView>* rows) {
  for (const GroupView& g : part.groups) {
    if (g.state == GroupState::kAbsent) continue;
    auto [it, fresh] = rows_.try_emplace({lws, g.index}, static_cast<int>(rows_.size()));
    if (fresh) row_labels_.push_back(role + " " + std::to_string(g.index));
    rows->push_back(g);
    rows->back().index = it->second;
  }
}

bool Watched::ObserveLws(const client::LocalClient& client, const std::string& name, Time now,
                         std::vector<RoleObservation>* roles) {
  RoleObservation role;
  role.name = name;
  role.o = simulate::Observe(client, name, accelerator_, now, &slots_[name]);
  std::vector<GroupView> groups;
  Place(name, name, role.o, &groups);
  role.o.groups = std::move(groups);
  auto stored = client.Get(client::kLeaderWorkerSets, "default", name);
  if (stored.ok()) {
    // The view Observe read too, decoded once per version for every reader.
    if (auto lws = store::DecodedView<api::LeaderWorkerSet>(**stored); lws.ok()) {
      Result<controllers::RolloutSettings> settings = controllers::RolloutSettingsOf(**lws);
      if (settings.ok()) role.floor = std::max(0, settings->replicas - settings->max_unavailable);
    }
  }
  for (const GroupView& g : role.o.groups) {
    if (IsReady(g.state)) role.ready_accelerators += g.accelerators;
  }
  const bool at_rest = LwsAtRest(name, role.o);
  roles->push_back(std::move(role));
  return at_rest;
}

bool Watched::ObserveSet(const client::LocalClient& client, const std::string& name, Time now,
                         std::vector<RoleObservation>* roles) {
  auto stored = client.Get(client::kDisaggregatedSets, "default", name);
  if (!stored.ok()) return false;
  auto view = store::DecodedView<api::DisaggregatedSet>(**stored);
  if (!view.ok()) return false;
  const std::shared_ptr<const api::DisaggregatedSet>& ds = *view;
  Result<std::string> computed = disaggregatedset::ComputeRevision(*ds);
  const std::string revision = computed.ok() ? *computed : "";
  bool at_rest = ds->status.observed_generation >= ChangeGeneration({api::kDsKind.data(), name}) &&
                 ConditionTrue(ds->status.conditions, api::kConditionAvailable);
  for (const api::DisaggregatedRoleSpec& spec : ds->spec.roles) {
    RoleObservation role;
    role.name = spec.name;
    Observation& o = role.o;
    o.at = now;
    o.generation = ds->metadata.generation;
    o.observed_generation = ds->status.observed_generation;
    o.replicas = ds->Slices() * spec.Replicas();
    o.size = spec.spec.leader_worker_template.size.value_or(1);
    o.update_revision = revision;
    role.floor =
        ds->Slices() *
        std::max(0, spec.Replicas() -
                        disaggregatedset::RolloutOf(spec, spec.Replicas()).max_unavailable);
    store::ListOptions options;
    options.namespace_ = "default";
    options.label_selector =
        api::Selector::FromSet({{api::kDsNameLabel, name}, {api::kDsRoleLabel, spec.name}});
    auto listed = client.List(client::kLeaderWorkerSets, options);
    std::vector<std::pair<bool, std::string>> children;  // (current revision, name): old first
    for (const store::ObjectPtr& object :
         listed.ok() ? listed->items : std::vector<store::ObjectPtr>{}) {
      children.emplace_back(object->label(api::kDsRevisionLabel) == revision, object->name().name);
    }
    std::sort(children.begin(), children.end());
    int replicas = 0;
    for (const auto& [current, child] : children) {
      Observation part = simulate::Observe(client, child, accelerator_, now, &slots_[child]);
      for (GroupView& g : part.groups) g.state = AsRevision(g.state, current);
      // Every ready group of the current revision's LWS is new, none of the others; the role's
      // surge is counted below, over its LWSs together.
      part.new_ready = current ? part.ready : 0;
      part.surge_accelerators = 0;
      AddCounts(part, &o);
      Place(spec.name, child, part, &o.groups);
      replicas += part.replicas;
      at_rest = at_rest && current && AtRest(part);
    }
    at_rest = at_rest && replicas == o.replicas;
    // The groups beyond the role's target, the old revision's first, are its surge; a group
    // tearing down holds its nodes until it is gone, but it is not surge (as observation.h).
    int present = 0;
    for (GroupView& g : o.groups) {
      if (g.state == GroupState::kTerminating) continue;
      g.surge = ++present > o.replicas;
      if (g.surge) o.surge_accelerators += g.accelerators;
      if (IsReady(g.state)) role.ready_accelerators += g.accelerators;
    }
    o.available = at_rest;
    roles->push_back(std::move(role));
  }
  return at_rest;
}

WatchedObservation Watched::Observe(const client::LocalClient& client, Time now) {
  WatchedObservation out;
  if (workloads_.size() == 1 && workloads_.front().kind == api::kLwsKind) {
    const std::string& name = workloads_.front().name;
    out.total = simulate::Observe(client, name, accelerator_, now, &slots_[name]);
    out.at_rest = LwsAtRest(name, out.total);
    return out;
  }
  out.at_rest = true;
  for (const WatchedWorkload& w : workloads_) {
    const bool at_rest = w.kind == api::kLwsKind ? ObserveLws(client, w.name, now, &out.roles)
                                                 : ObserveSet(client, w.name, now, &out.roles);
    out.at_rest = out.at_rest && at_rest;
  }
  Observation& total = out.total;
  total.at = now;
  total.available = out.at_rest;
  for (const RoleObservation& role : out.roles) {
    AddCounts(role.o, &total);
    total.replicas += role.o.replicas;
    total.update_in_progress = total.update_in_progress || role.o.update_in_progress;
    if (total.update_revision.empty()) total.update_revision = role.o.update_revision;
    for (const GroupView& g : role.o.groups) {
      if (static_cast<int>(total.groups.size()) <= g.index) total.groups.resize(g.index + 1);
      total.groups[g.index] = g;
    }
  }
  for (std::size_t i = 0; i < total.groups.size(); ++i) total.groups[i].index = static_cast<int>(i);
  return out;
}

}  // namespace lws::simulate
