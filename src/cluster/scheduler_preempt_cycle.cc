// Preemption's I/O (scheduler.h): nominate the pod, evict the victims, park the pod. The decision
// is scheduler_preemption.h's.
#include <fmt/format.h>

#include "base/log.h"
#include "cluster/scheduler.h"
#include "cluster/scheduler_json.h"
#include "cluster/scheduler_preemption.h"

namespace lws::cluster {

using api::Json;
using store::ObjectName;
using store::ObjectPtr;

void Scheduler::Nominate(const ObjectName& key, const ObjectPtr& current, const api::Pod& pod,
                         const ScheduleResult& result) {
  const std::string& node = result.nominated_node;
  for (const api::Pod* victim : result.victims) EvictVictim(*victim, pod, node);
  // Pods of lower priority nominated on that node may no longer fit there (upstream
  // prepareCandidate clears their nominations).
  const std::int32_t priority = PodPriority(pod);
  for (auto it = nominated_.begin(); it != nominated_.end();) {
    if (it->first != key && it->second.first == node &&
        PodPriority(*it->second.second) < priority) {
      WriteNomination(it->first, nullptr);
      it = nominated_.erase(it);
    } else {
      ++it;
    }
  }
  nominated_[key] = {node, std::make_shared<api::Pod>(pod)};
  nominations_stale_ = true;
  WriteNomination(key, node);
  Park(key, current, "Unschedulable", result.message);
}

void Scheduler::EvictVictim(const api::Pod& victim, const api::Pod& preemptor,
                            const std::string& node) {
  const ObjectName key{victim.metadata.namespace_, victim.metadata.name};
  const ObjectPtr object = pods_.Get(key.namespace_, key.name);
  if (victim.metadata.IsDeleting() || !object) return;  // already on its way out, or gone
  // The condition first, so that the pod reads as preempted while it terminates.
  const Json condition = {
      {"type", "DisruptionTarget"},
      {"status", "True"},
      {"lastTransitionTime", FormatRfc3339(loop_->Now())},
      {"reason", "PreemptionByScheduler"},
      {"message", options_.scheduler_name + ": preempting to accommodate a higher priority pod"}};
  (void)client_->Patch(client::kPods, key.namespace_, key.name, client::PatchType::kJson,
                       scheduler_json::ConditionPatch(object->document(), -1, condition), "status");
  recorder_.Record(*object, "Normal", "Preempted",
                   fmt::format("Preempted by pod {} on node {}", preemptor.metadata.uid, node),
                   "Preempting");
  auto deleted = client_->Delete(client::kPods, key.namespace_, key.name);
  if (!deleted.ok() && deleted.status().code() != Code::kNotFound) {
    Logger(options_.scheduler_name)
        ->warn("cannot preempt {}/{}: {}", key.namespace_, key.name, deleted.status().message());
    return;
  }
  ++preemptions_;
}

void Scheduler::WriteNomination(const ObjectName& key, const Json& node) {
  Json patch = {{"status", {{"nominatedNodeName", node}}}};
  auto written = client_->Patch(client::kPods, key.namespace_, key.name, client::PatchType::kMerge,
                                patch, "status");
  if (!written.ok() && written.status().code() != Code::kNotFound) {
    Logger(options_.scheduler_name)
        ->warn("cannot nominate {}/{}: {}", key.namespace_, key.name, written.status().message());
  }
}

const NominatedPods* Scheduler::Nominations() {
  if (nominated_.empty()) return nullptr;
  if (nominations_stale_) {
    nominations_.clear();
    for (const auto& [key, entry] : nominated_)
      nominations_[entry.first].push_back(entry.second.get());
    nominations_stale_ = false;
  }
  return &nominations_;
}

}  // namespace lws::cluster
