// The scheduling cycle of gang mode (scheduler.h, SchedulerOptions::gang): a pod of a PodGroup
// is placed with its whole group (scheduler_gang.h) or parked with it.
#include <fmt/format.h>

#include <algorithm>

#include "base/log.h"
#include "client/resource.h"
#include "cluster/scheduler.h"
#include "cluster/scheduler_gang.h"
#include "cluster/scheduler_json.h"
#include "store/decoded_view.h"
#include "store/object_meta.h"

namespace lws::cluster {

using api::Json;
using store::ObjectName;
using store::ObjectPtr;

namespace {

// spec.minMember (at least 1) and spec.minResources of a PodGroup.
GangSpec GangSpecOf(const Json& group) {
  const Json& spec = scheduler_json::Child(group, "spec");
  GangSpec gang;
  const Json& min_member = scheduler_json::Child(spec, "minMember");
  if (min_member.is_number_integer()) gang.min_member = std::max(1, min_member.get<int>());
  const Json& resources = scheduler_json::Child(spec, "minResources");
  if (resources.is_object()) {
    for (const auto& [name, value] : resources.items()) {
      Result<api::Quantity> amount = value.is_string()
                                         ? api::Quantity::Parse(value.get<std::string>())
                                         : api::Quantity::Parse(value.dump());
      if (amount.ok()) gang.min_resources[name] = *amount;
    }
  }
  return gang;
}

struct Member {
  ObjectPtr object;
  std::shared_ptr<const api::Pod> pod;
};

}  // namespace

void Scheduler::ScheduleGang(const api::Pod& pod) {
  const std::string& ns = pod.metadata.namespace_;
  const std::string group_name = pod.metadata.Annotation(std::string(kGroupNameAnnotation));
  Result<ObjectPtr> group = client_->Get(client::kPodGroups, ns, group_name);
  // Every member this scheduler may place, and the ones already placed.
  std::vector<Member> waiting;
  int bound = 0;
  for (const ObjectPtr& object : pods_.Select(ns, {})) {
    if (object->deleting()) continue;
    if (store::Annotation(*object, kGroupNameAnnotation) != group_name) continue;
    const ObjectName key = object->name();
    if (!scheduler_json::NodeName(object->document()).empty() || cache_.FindPod(key) != nullptr) {
      if (!scheduler_json::IsTerminal(object->document())) ++bound;
      continue;
    }
    if (!WantsToSchedule(object->document())) continue;
    Result<std::shared_ptr<const api::Pod>> view = store::DecodedView<api::Pod>(*object);
    if (!view.ok()) continue;
    waiting.push_back({object, std::move(*view)});
    // This attempt decides for every waiting member: none is tried again in this batch.
    Pending& pending = pending_[key];
    if (pending.order.second == 0) pending.order.second = next_arrival_++;
    active_.erase(pending.order);
  }
  std::sort(waiting.begin(), waiting.end(), [](const Member& a, const Member& b) {
    return a.pod->metadata.name < b.pod->metadata.name;
  });
  attempts_ += waiting.size();
  if (!group.ok()) {
    const std::string message = group.status().code() == Code::kNotFound
                                    ? fmt::format("pod group {}/{} does not exist", ns, group_name)
                                    : group.status().message();
    for (const Member& m : waiting) Park(m.object->name(), m.object, "Unschedulable", message);
    return;
  }
  std::vector<const api::Pod*> pods;
  for (const Member& m : waiting) pods.push_back(m.pod.get());
  const GangSpec gang = GangSpecOf((*group)->document());
  GangPlacement placement = PlaceGang(pods, bound, gang, cache_.nodes());
  if (!placement.admitted) {
    for (const Member& m : waiting)
      Park(m.object->name(), m.object, "Unschedulable", placement.message);
    UpdatePodGroup(*group, false, placement.reason, placement.message);
    return;
  }
  std::vector<bool> placed(waiting.size(), false);
  for (const auto& [index, node] : placement.placed) {
    placed[index] = true;
    BindTo(waiting[index].object->name(), waiting[index].object, *waiting[index].pod, node);
  }
  for (std::size_t i = 0; i < waiting.size(); ++i) {  // members beyond minMember that did not fit
    if (!placed[i]) {
      Park(waiting[i].object->name(), waiting[i].object, "Unschedulable",
           "0/" + std::to_string(cache_.nodes().size()) +
               " nodes are available for the rest of the gang");
    }
  }
  UpdatePodGroup(*group, true, "", "");
}

void Scheduler::UpdatePodGroup(const ObjectPtr& group, bool running, const std::string& reason,
                               const std::string& message) {
  const Json& status = scheduler_json::Child(group->document(), "status");
  const std::string phase = running ? "Running" : "Pending";
  Json conditions = Json::array();
  if (!running) {
    conditions.push_back({{"type", "Unschedulable"},
                          {"status", "True"},
                          {"reason", reason},
                          {"message", message},
                          {"lastTransitionTime", FormatRfc3339(loop_->Now())}});
    gang_recorder_.Record(*group, "Warning", "Unschedulable", message);
  }
  const Json& old_conditions = scheduler_json::Child(status, "conditions");
  const bool same_conditions = running
                                   ? !old_conditions.is_array() || old_conditions.empty()
                                   : old_conditions.is_array() && old_conditions.size() == 1 &&
                                         api::StringMember(old_conditions[0], "message") == message;
  if (api::StringMember(status, "phase") == phase && same_conditions) return;
  // A PodGroup has no status subresource: the status is written with the object.
  Json patch = {{"status", {{"phase", phase}, {"conditions", std::move(conditions)}}}};
  const ObjectName key = group->name();
  Result<ObjectPtr> written = client_->Patch(client::kPodGroups, key.namespace_, key.name,
                                             client::PatchType::kMerge, patch);
  if (!written.ok() && written.status().code() != Code::kNotFound) {
    Logger(options_.scheduler_name)
        ->warn("cannot update PodGroup {}/{}: {}", key.namespace_, key.name,
               written.status().message());
  }
}

}  // namespace lws::cluster
