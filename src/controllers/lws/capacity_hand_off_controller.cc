// The capacity hand-off's reconciler (capacity_hand_off_controller.h).
#include "controllers/lws/capacity_hand_off_controller.h"

#include <fmt/format.h>

#include "base/log.h"
#include "client/resource.h"

namespace lws::controllers {
namespace {

bool AsksForHandOff(const api::LeaderWorkerSet* lws) {
  return lws != nullptr && lws->metadata.annotations.count(api::kCapacityHandOffAnnotation) > 0;
}

bool Is(const Status& s, Code code) { return s.code() == code; }

}  // namespace

CapacityHandOffController::CapacityHandOffController(EventLoop* loop, const client::Client* client,
                                                     Caches* caches,
                                                     client::EventRecorder* recorder,
                                                     runtime::WorkQueueOptions queue)
    : loop_(loop),
      client_(client),
      caches_(caches),
      recorder_(recorder),
      queue_(
          loop, "capacity-hand-off", [this](const runtime::Key& key) { return Reconcile(key); },
          std::move(queue)) {}

void CapacityHandOffController::Register() {
  // Only pods of an LWS that asks for the hand-off, and placeholders: every other pod event
  // would be a reconcile that finds nothing to do.
  caches_->pods.AddHandler([this](const api::Pod* old, const api::Pod* now) {
    const api::Pod& pod = now != nullptr ? *now : *old;
    const std::string& ns = pod.metadata.namespace_;
    if (std::string held = HeldPodName(pod); !held.empty()) {
      queue_.Add({ns, held});
      return;
    }
    const std::string& lws = pod.metadata.Label(api::kSetNameLabel);
    if (lws.empty() || !AsksForHandOff(caches_->sets.Get(ns, lws))) return;
    if (now == nullptr && !pod.spec.node_name.empty()) {
      MutexLock lock(&mu_);
      departed_[{ns, pod.metadata.name}] = pod;
    }
    queue_.Add({ns, pod.metadata.name});
    // A hold may go to any pod of the LWS: every hold looks again.
    for (const api::Pod* placeholder : caches_->pods.ByIndex(kHandOffOf, IndexValue(ns, lws))) {
      queue_.Add({ns, HeldPodName(*placeholder)});
    }
  });
  caches_->sets.AddHandler([this](const api::LeaderWorkerSet* old,
                                  const api::LeaderWorkerSet* now) { OnLws(old, now); });
}

// An LWS that stops asking (or is gone) releases its holds now, not at their deadlines.
void CapacityHandOffController::OnLws(const api::LeaderWorkerSet* old,
                                      const api::LeaderWorkerSet* now) {
  if (AsksForHandOff(now) || !AsksForHandOff(old)) return;
  const api::ObjectMeta& meta = old->metadata;
  for (const api::Pod* placeholder :
       caches_->pods.ByIndex(kHandOffOf, IndexValue(meta.namespace_, meta.name))) {
    queue_.Add({meta.namespace_, HeldPodName(*placeholder)});
  }
}

runtime::ReconcileResult CapacityHandOffController::Reconcile(const runtime::Key& key) {
  HandOffInput in;
  in.now = loop_->clock().Now();
  in.pod = caches_->pods.Get(key.namespace_, key.name);
  std::optional<api::Pod> departed = TakeDeparted(key);
  if (departed) in.departed = &*departed;
  in.placeholder = caches_->pods.Get(key.namespace_, PlaceholderName(key.name));
  if (in.placeholder != nullptr && HeldPodName(*in.placeholder) != key.name)
    in.placeholder = nullptr;
  std::string lws_name;
  if (in.placeholder != nullptr) lws_name = in.placeholder->metadata.Label(api::kHandOffOfLabel);
  if (const api::Pod* pod = in.pod != nullptr ? in.pod : in.departed; lws_name.empty() && pod) {
    lws_name = pod->metadata.Label(api::kSetNameLabel);
  }
  if (lws_name.empty()) return runtime::ReconcileResult::Done();
  in.lws = caches_->sets.Get(key.namespace_, lws_name);
  if (in.placeholder != nullptr) {
    const std::string index = IndexValue(key.namespace_, lws_name);
    in.lws_pods = caches_->pods.ByIndex(kByLwsName, index);
    for (const api::Pod* other : caches_->pods.ByIndex(kHandOffOf, index)) {
      in.held_for.insert(HeldPodName(*other));
    }
  }

  const HandOffDecision decision = PlanHandOff(in);
  Status status;
  switch (decision.step) {
    case HandOffStep::kCreate:
      status = Create(*in.lws, in.pod != nullptr ? *in.pod : *in.departed, *decision.until);
      break;
    case HandOffStep::kDelete:
      status = Release(in.lws, *in.placeholder, decision.reason);
      break;
    case HandOffStep::kNone:
      break;
  }
  if (!status.ok()) return runtime::ReconcileResult::Error(status);
  if (decision.until) return runtime::ReconcileResult::After(*decision.until - in.now);
  return runtime::ReconcileResult::Done();
}

std::optional<api::Pod> CapacityHandOffController::TakeDeparted(const runtime::Key& key) {
  MutexLock lock(&mu_);
  auto it = departed_.find(key);
  if (it == departed_.end()) return std::nullopt;
  std::optional<api::Pod> pod = std::move(it->second);
  departed_.erase(it);
  return pod;
}

Status CapacityHandOffController::Create(const api::LeaderWorkerSet& lws, const api::Pod& pod,
                                         Time until) {
  Result<store::ObjectPtr> created =
      client_->Create(client::kPods, PlaceholderPod(lws, pod, until));
  if (!created.ok())
    return Is(created.status(), Code::kAlreadyExists) ? Status::Ok() : created.status();
  const std::string note = fmt::format("Holding node {} for the replacement of pod {} until {}",
                                       pod.spec.node_name, pod.metadata.name, FormatRfc3339(until));
  Logger("capacity-hand-off")
      ->debug("lws {}/{}: {}", lws.metadata.namespace_, lws.metadata.name, note);
  RecordOnLws(*caches_, recorder_, lws, "Normal", "CapacityHeld", note, "Create");
  return Status::Ok();
}

Status CapacityHandOffController::Release(const api::LeaderWorkerSet* lws,
                                          const api::Pod& placeholder, const std::string& reason) {
  client::DeleteOptions options;
  options.grace_period_seconds = 0;
  options.precondition_uid = placeholder.metadata.uid;
  Result<store::ObjectPtr> deleted = client_->Delete(client::kPods, placeholder.metadata.namespace_,
                                                     placeholder.metadata.name, options);
  if (!deleted.ok()) {
    const Status& s = deleted.status();
    return Is(s, Code::kNotFound) || Is(s, Code::kConflict) ? Status::Ok() : s;
  }
  const std::string note =
      fmt::format("Released the hold of pod {}: {}", placeholder.metadata.name, reason);
  Logger("capacity-hand-off")
      ->debug("{}/{}: {}", placeholder.metadata.namespace_,
              placeholder.metadata.Label(api::kHandOffOfLabel), note);
  if (lws != nullptr) {
    RecordOnLws(*caches_, recorder_, *lws, "Normal", "CapacityReleased", note, "Delete");
  }
  return Status::Ok();
}

}  // namespace lws::controllers
