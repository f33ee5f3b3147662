// Reading an LWS's groups at one instant (observation.h).
#include "simulate/observation.h"

#include <algorithm>
#include <map>
#include <set>

#include "api/apps.h"
#include "api/apps_workloads.h"
#include "api/group_identity.h"
#include "api/lws_types.h"
#include "api/pod_requests.h"
#include "client/resource.h"
#include "store/decoded_view.h"

namespace lws::simulate {
namespace {

std::optional<int> IndexOf(const api::ObjectMeta& meta) {
  const std::string text = meta.Label(api::kGroupIndexLabel);
  if (text.empty() || text.size() > 6 ||
      text.find_first_not_of("0123456789") != std::string::npos) {
    return std::nullopt;
  }
  return std::stoi(text);
}

std::int64_t AcceleratorsOf(const api::Pod& pod, const std::string& accelerator) {
  api::ResourceList requests = api::PodSpecRequests(pod.spec, {}, api::LimitsAsRequests::kYes);
  auto it = requests.find(accelerator);
  return it == requests.end() ? 0 : it->second.Value();
}

store::ListOptions OfLws(const std::string& name) {
  store::ListOptions options;
  options.namespace_ = "default";
  options.label_selector = api::Selector::FromSet({{api::kSetNameLabel, name}});
  return options;
}

template <typename T>
std::shared_ptr<const T> View(const store::ObjectPtr& object) {
  Result<std::shared_ptr<const T>> view = store::DecodedView<T>(*object);
  return view.ok() ? *view : nullptr;
}

// The top of an Observation: the LWS and its leader StatefulSet (or Deployment, with
// groupIdentity Hash). True for a Hash LWS.
bool ObserveSets(const client::LocalClient& client, const std::string& name, Observation* o) {
  bool hash = false;
  if (auto lws = client.Get(client::kLeaderWorkerSets, "default", name); lws.ok()) {
    if (auto view = View<api::LeaderWorkerSet>(*lws)) {
      hash = api::IsHashIdentity(*view);
      o->generation = view->metadata.generation;
      o->observed_generation = view->status.observed_generation;
      o->replicas = view->Replicas();
      o->size = view->Size();
      for (const api::Condition& c : view->status.conditions) {
        if (c.type == api::kConditionAvailable) o->available = c.status == "True";
        if (c.type == api::kConditionUpdateInProgress) o->update_in_progress = c.status == "True";
      }
    }
  }
  if (auto sts = client.Get(client::kStatefulSets, "default", name); sts.ok()) {
    if (auto view = View<api::StatefulSet>(*sts)) {
      o->sts_replicas = view->spec.replicas.value_or(1);
      const auto& rolling = view->spec.update_strategy.rolling_update;
      o->partition = rolling ? rolling->partition.value_or(0) : 0;
      o->update_revision = view->spec.template_.metadata.Label(api::kRevisionLabel);
    }
  }
  if (!hash) return false;
  if (auto deployment = client.Get(client::kDeployments, "default", name); deployment.ok()) {
    if (auto view = View<api::Deployment>(*deployment)) {
      o->sts_replicas = view->spec.replicas.value_or(1);
      o->update_revision = view->spec.template_.metadata.Label(api::kRevisionLabel);
    }
  }
  return true;
}

// The order leaders were made in.
bool OlderLeader(const api::Pod* a, const api::Pod* b) {
  return api::CreatedBefore(a->metadata, b->metadata);
}

// Hash: gives every group key of `pods` a slot, keeping the slots of groups that still exist and
// handing the lowest free slot to a new group (oldest leader first).
void AssignSlots(const std::vector<std::shared_ptr<const api::Pod>>& pods, GroupSlots* slots) {
  std::map<std::string, const api::Pod*> present;  // key -> its leader, or some pod of it
  for (const auto& pod : pods) {
    const std::string& key = pod->metadata.Label(api::kGroupIndexLabel);
    if (key.empty()) continue;
    const api::Pod*& seen = present[key];
    if (seen == nullptr || pod->metadata.Label(api::kWorkerIndexLabel) == "0") seen = pod.get();
  }
  std::set<int> used;
  for (auto it = slots->begin(); it != slots->end();) {
    if (!present.contains(it->first)) {
      it = slots->erase(it);
    } else {
      used.insert(it->second);
      ++it;
    }
  }
  std::vector<std::pair<std::string, const api::Pod*>> fresh;
  for (const auto& [key, pod] : present) {
    if (!slots->contains(key)) fresh.emplace_back(key, pod);
  }
  std::sort(fresh.begin(), fresh.end(),
            [](const auto& a, const auto& b) { return OlderLeader(a.second, b.second); });
  int next = 0;
  for (const auto& entry : fresh) {
    while (used.contains(next)) ++next;
    (*slots)[entry.first] = next;
    used.insert(next);
  }
}

// Which groups are beyond spec.replicas: Ordinal, those of an index >= replicas; Hash, the
// groups of the newest live leaders past the first `replicas` (a group without a live leader is
// tearing down: it holds its nodes until it is gone, but it is not surge).
void MarkSurge(Observation& o, const std::map<int, const api::Pod*>& leaders, bool hash) {
  if (!hash) {
    for (GroupView& group : o.groups) group.surge = group.index >= o.replicas;
    return;
  }
  std::vector<std::pair<const api::Pod*, int>> live;  // leader, its group's index
  for (const auto& [index, leader] : leaders) {
    if (!leader->metadata.IsDeleting()) live.emplace_back(leader, index);
  }
  std::sort(live.begin(), live.end(),
            [](const auto& a, const auto& b) { return OlderLeader(a.first, b.first); });
  for (std::size_t rank = static_cast<std::size_t>(std::max(o.replicas, 0)); rank < live.size();
       ++rank) {
    o.groups[live[rank].second].surge = true;
  }
}

}  // namespace

const char* GroupStateName(GroupState state) {
  switch (state) {
    case GroupState::kAbsent:
      return "absent";
    case GroupState::kPending:
      return "pending";
    case GroupState::kOldStarting:
      return "old-starting";
    case GroupState::kOldReady:
      return "old-ready";
    case GroupState::kNewStarting:
      return "new-starting";
    case GroupState::kNewReady:
      return "new-ready";
    case GroupState::kTerminating:
      return "terminating";
  }
  return "?";
}

Observation Observe(const client::LocalClient& client, const std::string& name,
                    const std::string& accelerator, Time now, GroupSlots* slots) {
  Observation o;
  o.at = now;
  const bool hash = ObserveSets(client, name, &o);
  std::map<int, const api::Pod*> leaders;
  std::map<std::string, bool> workers_ready;  // worker StatefulSet name -> every worker available
  auto sets = client.List(client::kStatefulSets, OfLws(name));
  for (const store::ObjectPtr& object : sets.ok() ? sets->items : std::vector<store::ObjectPtr>{}) {
    auto sts = View<api::StatefulSet>(object);
    if (sts == nullptr || sts->metadata.name == name) continue;
    workers_ready[sts->metadata.name] =
        sts->status.available_replicas >= sts->spec.replicas.value_or(1);
  }
  std::vector<std::shared_ptr<const api::Pod>> pods;  // kept alive while `leaders` points in
  auto listed = client.List(client::kPods, OfLws(name));
  for (const store::ObjectPtr& object :
       listed.ok() ? listed->items : std::vector<store::ObjectPtr>{}) {
    if (auto pod = View<api::Pod>(object)) pods.push_back(std::move(pod));
  }
  if (hash) AssignSlots(pods, slots);
  auto index_of = [&](const api::ObjectMeta& meta) -> std::optional<int> {
    if (!hash) return IndexOf(meta);
    auto it = slots->find(meta.Label(api::kGroupIndexLabel));
    return it == slots->end() ? std::nullopt : std::optional<int>(it->second);
  };
  for (const auto& pod : pods) {
    std::optional<int> index = index_of(pod->metadata);
    if (!index) continue;
    if (static_cast<int>(o.groups.size()) <= *index) o.groups.resize(*index + 1);
    GroupView& group = o.groups[*index];
    group.index = *index;
    const std::int64_t held = pod->spec.node_name.empty() ? 0 : AcceleratorsOf(*pod, accelerator);
    group.accelerators += held;
    o.accelerators += held;
    if (pod->spec.node_name.empty()) group.waiting_pods.push_back(pod->metadata.name);
    for (const api::ContainerStatus& c : pod->status.container_statuses)
      o.restarts += c.restart_count;
    if (pod->metadata.Label(api::kWorkerIndexLabel) == "0") leaders[*index] = pod.get();
  }
  MarkSurge(o, leaders, hash);
  for (GroupView& group : o.groups) {
    auto leader = leaders.find(group.index);
    if (leader == leaders.end()) continue;
    const api::Pod& pod = *leader->second;
    const bool is_new = pod.metadata.Label(api::kRevisionLabel) == o.update_revision;
    // A Hash group's workers are named after its leader's hostname.
    const std::string& workers_name =
        hash && !pod.spec.hostname.empty() ? pod.spec.hostname : pod.metadata.name;
    auto workers = workers_ready.find(workers_name);
    const bool workers_up = workers == workers_ready.end() ? o.size == 1 : workers->second;
    const bool ready = pod.IsRunningAndReady() && workers_up;
    if (pod.metadata.IsDeleting()) {
      group.state = GroupState::kTerminating;
    } else if (!group.waiting_pods.empty()) {
      group.state = GroupState::kPending;
    } else if (ready) {
      group.state = is_new ? GroupState::kNewReady : GroupState::kOldReady;
    } else {
      group.state = is_new ? GroupState::kNewStarting : GroupState::kOldStarting;
    }
    if (ready && !pod.metadata.IsDeleting()) {
      ++o.ready;
      if (is_new) ++o.new_ready;
    } else if (!pod.metadata.IsDeleting()) {
      o.stranded_accelerators += group.accelerators;
    }
  }
  for (const GroupView& group : o.groups) {
    if (group.surge) o.surge_accelerators += group.accelerators;
  }
  return o;
}

}  // namespace lws::simulate
