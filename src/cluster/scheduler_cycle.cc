// The scheduling cycle (scheduler.h): pop a batch, decide with the pure core, bind or park.
#include <fmt/format.h>

#include <optional>

#include "base/log.h"
#include "cluster/scheduler.h"
#include "cluster/scheduler_json.h"
#include "store/decoded_view.h"

namespace lws::cluster {

using api::Json;
using store::ObjectName;
using store::ObjectPtr;

namespace {

// Pods per loop task, so the kubelets, controllers and watches interleave with a long queue.
constexpr int kBatchSize = 256;

// An Event's message is cut at 1 KiB with " ..." (upstream truncateMessage, NoteLengthLimit);
// the condition keeps the whole message.
std::string TruncateNote(const std::string& message) {
  constexpr std::size_t kLimit = 1024;
  if (message.size() <= kLimit) return message;
  const std::string suffix = " ...";
  return message.substr(0, kLimit - suffix.size()) + suffix;
}

// The index of the PodScheduled condition in status.conditions, or -1.
int FindPodScheduled(const Json& pod) {
  const Json& conditions =
      scheduler_json::Child(scheduler_json::Child(pod, "status"), "conditions");
  if (!conditions.is_array()) return -1;
  for (std::size_t i = 0; i < conditions.size(); ++i) {
    if (api::StringMember(conditions[i], "type") == "PodScheduled") return static_cast<int>(i);
  }
  return -1;
}

bool IsRace(const Status& status) {
  return status.code() == Code::kConflict || status.code() == Code::kNotFound;
}

// A condition patch also loses a race when its test op finds another condition at the index.
bool IsPatchRace(const Status& status) { return IsRace(status) || status.code() == Code::kInvalid; }

}  // namespace

void Scheduler::RunBatch() {
  for (int i = 0; i < kBatchSize && !active_.empty(); ++i) {
    auto first = active_.begin();
    const ObjectName key = first->second;
    active_.erase(first);
    ScheduleOne(key);
  }
  if (!active_.empty()) Kick();
}

void Scheduler::ScheduleOne(const ObjectName& key) {
  auto it = pending_.find(key);
  if (it == pending_.end()) return;
  ObjectPtr current = pods_.Get(key.namespace_, key.name);
  if (!current || !scheduler_json::NodeName(current->document()).empty() ||
      !WantsToSchedule(current->document()) || cache_.FindPod(key) != nullptr) {
    pending_.erase(it);  // gone, bound, or no longer ours: the informer says so
    return;
  }
  Result<std::shared_ptr<const api::Pod>> view = store::DecodedView<api::Pod>(*current);
  if (!view.ok()) {
    Logger(options_.scheduler_name)
        ->warn("cannot read pod {}/{}: {}", key.namespace_, key.name, view.status().message());
    pending_.erase(it);  // its next update brings it back
    return;
  }
  const api::Pod& pod = **view;
  if (options_.gang && !pod.metadata.Annotation(std::string(kGroupNameAnnotation)).empty()) {
    ScheduleGang(pod);
    return;
  }
  ++attempts_;
  ScheduleResult result =
      SchedulePod(pod, cache_.nodes(), NodeSearch{true, next_start_}, Nominations());
  next_start_ = result.next_start;
  if (!result.nominated_node.empty()) {
    Nominate(key, current, pod, result);
    return;
  }
  if (result.node_name.empty()) {
    Park(key, current, result.condition_reason, result.message);
    return;
  }
  BindTo(key, current, pod, result.node_name);
}

void Scheduler::BindTo(const ObjectName& key, const ObjectPtr& current, const api::Pod& pod,
                       const std::string& node) {
  Status bound = client_->Bind(key.namespace_, key.name, pod.metadata.uid, node);
  if (!bound.ok()) {
    if (IsRace(bound)) {
      Forget(key);  // bound by someone else, being deleted, or gone
    } else {
      Park(key, current, "SchedulerError", bound.message());
    }
    return;
  }
  Forget(key);
  // Assumed at once: the next pod of this batch must see the node's resources taken.
  auto assumed = std::make_shared<api::Pod>(pod);
  assumed->spec.node_name = node;
  cache_.SetPod(key, std::move(assumed), nullptr);
  ++bindings_;
  recorder_.Record(*current, "Normal", "Scheduled",
                   fmt::format("Successfully assigned {}/{} to {}", key.namespace_, key.name, node),
                   "Binding");
}

void Scheduler::Park(const ObjectName& key, const ObjectPtr& pod, const std::string& reason,
                     const std::string& message) {
  Pending& pending = pending_.at(key);
  pending.parked = true;
  pending.parked_at = loop_->Now();
  recorder_.Record(*pod, "Warning", "FailedScheduling", TruncateNote(message), "Scheduling");
  WriteCondition(pod, pending, reason, message);
  ArmRetry();
}

void Scheduler::WriteCondition(const ObjectPtr& pod, Pending& pending, const std::string& reason,
                               const std::string& message) {
  const int index = FindPodScheduled(pod->document());
  const Json* existing =
      index >= 0
          ? &pod->document().at("status").at("conditions").at(static_cast<std::size_t>(index))
          : nullptr;
  const bool was_false = existing != nullptr && api::StringMember(*existing, "status") == "False";
  if (was_false && api::StringMember(*existing, "reason") == reason &&
      api::StringMember(*existing, "message") == message) {
    return;
  }
  // The informer may not show our last write yet; it is the newer truth until it does.
  const bool informer_stale =
      pending.written_rv != 0 && pod->resource_version() < pending.written_rv;
  if (informer_stale && pending.written_reason == reason && pending.written_message == message) {
    return;
  }
  // lastTransitionTime moves only when the status does (upstream UpdatePodCondition).
  std::string transition = FormatRfc3339(loop_->Now());
  if (informer_stale) {
    transition = pending.written_transition;
  } else if (was_false && !api::StringMember(*existing, "lastTransitionTime").empty()) {
    transition = api::StringMember(*existing, "lastTransitionTime");
  }
  Json condition = {{"type", "PodScheduled"},   {"status", "False"},
                    {"lastProbeTime", nullptr}, {"lastTransitionTime", transition},
                    {"reason", reason},         {"message", message}};
  const ObjectName key = pod->name();
  Result<store::ObjectPtr> patched =
      client_->Patch(client::kPods, key.namespace_, key.name, client::PatchType::kJson,
                     scheduler_json::ConditionPatch(pod->document(), index, condition), "status");
  if (!patched.ok()) {
    if (!IsPatchRace(patched.status())) {
      Logger(options_.scheduler_name)
          ->warn("cannot set PodScheduled on {}/{}: {}", key.namespace_, key.name,
                 patched.status().message());
    }
    return;
  }
  ++condition_writes_;
  pending.written_reason = reason;
  pending.written_message = message;
  pending.written_transition = transition;
  pending.written_rv = (*patched)->resource_version();
}

void Scheduler::ArmRetry() {
  if (retry_task_ != 0 || !running_) return;
  std::optional<Time> earliest;
  for (const auto& [key, pending] : pending_) {
    if (pending.parked && (!earliest || pending.parked_at < *earliest))
      earliest = pending.parked_at;
  }
  if (!earliest) return;
  retry_task_ = loop_->At(*earliest + options_.unschedulable_retry, [this] {
    retry_task_ = 0;
    OnRetry();
  });
}

void Scheduler::OnRetry() {
  const Time now = loop_->Now();
  bool any = false;
  for (auto& [key, pending] : pending_) {
    if (pending.parked && pending.parked_at + options_.unschedulable_retry <= now) {
      Activate(key, pending);
      any = true;
    }
  }
  if (any) Kick();
  ArmRetry();
}

}  // namespace lws::cluster
