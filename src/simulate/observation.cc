// Reading an LWS's groups at one instant (observation.h).
#include "simulate/observation.h"

#include <map>

#include "api/apps.h"
#include "api/lws_types.h"
#include "api/pod_requests.h"
#include "client/resource.h"
#include "store/decoded_view.h"

namespace lws::simulate {
namespace {

std::optional<int> IndexOf(const api::ObjectMeta& meta) {
  const std::string text = meta.Label(api::kGroupIndexLabel);
  if (text.empty() || text.size() > 6 || text.find_first_not_of("0123456789") != std::string::npos) {
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

// The top of an Observation: the LWS and its leader StatefulSet.
void ObserveSets(const client::LocalClient& client, const std::string& name, Observation* o) {
  if (auto lws = client.Get(client::kLeaderWorkerSets, "default", name); lws.ok()) {
    if (auto view = View<api::LeaderWorkerSet>(*lws)) {
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
}

}  // namespace

const char* GroupStateName(GroupState state) {
  switch (state) {
    case GroupState::kAbsent: return "absent";
    case GroupState::kPending: return "pending";
    case GroupState::kOldStarting: return "old-starting";
    case GroupState::kOldReady: return "old-ready";
    case GroupState::kNewStarting: return "new-starting";
    case GroupState::kNewReady: return "new-ready";
    case GroupState::kTerminating: return "terminating";
  }
  return "?";
}

Observation Observe(const client::LocalClient& client, const std::string& name,
                    const std::string& accelerator, Time now) {
  Observation o;
  o.at = now;
  ObserveSets(client, name, &o);
  std::map<int, const api::Pod*> leaders;
  std::map<std::string, bool> workers_ready;  // worker StatefulSet name -> every worker available
  std::vector<std::shared_ptr<const api::Pod>> pods;  // kept alive while `leaders` points in
  auto sets = client.List(client::kStatefulSets, OfLws(name));
  for (const store::ObjectPtr& object : sets.ok() ? sets->items : std::vector<store::ObjectPtr>{}) {
    auto sts = View<api::StatefulSet>(object);
    if (sts == nullptr || sts->metadata.name == name) continue;
    workers_ready[sts->metadata.name] =
        sts->status.available_replicas >= sts->spec.replicas.value_or(1);
  }
  auto listed = client.List(client::kPods, OfLws(name));
  for (const store::ObjectPtr& object : listed.ok() ? listed->items : std::vector<store::ObjectPtr>{}) {
    auto pod = View<api::Pod>(object);
    if (pod == nullptr) continue;
    std::optional<int> index = IndexOf(pod->metadata);
    if (!index) continue;
    if (static_cast<int>(o.groups.size()) <= *index) o.groups.resize(*index + 1);
    GroupView& group = o.groups[*index];
    group.index = *index;
    const std::int64_t held = pod->spec.node_name.empty() ? 0 : AcceleratorsOf(*pod, accelerator);
    group.accelerators += held;
    o.accelerators += held;
    if (pod->spec.node_name.empty()) group.waiting_pods.push_back(pod->metadata.name);
    for (const api::ContainerStatus& c : pod->status.container_statuses) o.restarts += c.restart_count;
    if (pod->metadata.Label(api::kWorkerIndexLabel) == "0") leaders[*index] = pod.get();
    pods.push_back(std::move(pod));
  }
  for (GroupView& group : o.groups) {
    auto leader = leaders.find(group.index);
    if (leader == leaders.end()) continue;
    const api::Pod& pod = *leader->second;
    const bool is_new = pod.metadata.Label(api::kRevisionLabel) == o.update_revision;
    auto workers = workers_ready.find(pod.metadata.name);
    const bool workers_up =
        workers == workers_ready.end() ? o.size == 1 : workers->second;
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
    if (group.index >= o.replicas) o.surge_accelerators += group.accelerators;
  }
  return o;
}

}  // namespace lws::simulate
