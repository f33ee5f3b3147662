// The StatefulSet controller's informers, work queue, expectations and snapshots
// (statefulset_controller.h). The writes of a plan are in statefulset_controller_apply.cc.
#include "cluster/statefulset_controller.h"

#include <algorithm>
#include <string_view>
#include <type_traits>

#include "base/log.h"
#include "store/decoded_view.h"

namespace lws::cluster {

namespace {

using api::Json;

std::string KeyString(const store::ObjectName& key) { return key.namespace_ + "/" + key.name; }

// Revisions, PVCs and pods start before the sets, in the order this controller always used.
OwnerController::Options QueueOptions(std::function<void(const store::ObjectName&)> forget) {
  OwnerController::Options options;
  options.name = std::string(kStatefulSetControllerName);
  options.owner = client::kStatefulSets;
  options.controlled = {{client::kControllerRevisions, "StatefulSet", nullptr},
                        {client::kPersistentVolumeClaims, "StatefulSet", nullptr},
                        {client::kPods, "StatefulSet", nullptr}};
  options.on_owner_deleted = std::move(forget);
  return options;
}

}  // namespace

StatefulSetController::StatefulSetController(EventLoop* loop, const client::Client* client)
    : loop_(loop),
      client_(client),
      recorder_(client, &loop->clock(), std::string(kStatefulSetControllerName)),
      queue_(loop, client, QueueOptions([this](const SetKey& key) { states_.erase(key); }),
             [this](const store::ObjectPtr& set) { return Sync(set); }) {}

void StatefulSetController::Stop() {
  queue_.Stop();
  states_.clear();
}

std::optional<Duration> StatefulSetController::Sync(const store::ObjectPtr& set_object) {
  const SetKey key = set_object->name();
  SetState& state = states_[key];
  auto log = Logger(std::string(kStatefulSetControllerName));
  Result<StatefulSetSnapshot> snapshot = Snapshot(set_object);
  if (snapshot.ok()) snapshot->proposed = Proposed(snapshot->set, state);
  Result<StatefulSetPlan> plan =
      snapshot.ok() ? PlanStatefulSet(*snapshot) : Result<StatefulSetPlan>(snapshot.status());
  // Holding the views keeps them alive, so the next sync decodes only the pods that changed.
  if (snapshot.ok()) {
    state.pods_held = snapshot->pods;
    state.revisions_held = snapshot->revisions;
  }
  if (!plan.ok()) {
    // Only a malformed set or revision gets here; a later change to it enqueues it again.
    log->warn("{}: cannot plan: {}", KeyString(key), plan.status().message());
    return std::nullopt;
  }
  return Apply(set_object, snapshot->set, *plan);
}

std::shared_ptr<const ProposedRevision> StatefulSetController::Proposed(const api::StatefulSet& set,
                                                                        SetState& state) const {
  // The template sits in the spec, whose every change moves the generation; the uid tells a
  // namesake set apart.
  const std::int32_t collision_count = set.status.collision_count.value_or(0);
  const bool same = state.proposed != nullptr && state.proposed_uid == set.metadata.uid &&
                    state.proposed_generation == set.metadata.generation &&
                    state.proposed->collision_count == collision_count;
  if (!same) {
    state.proposed =
        std::make_shared<const ProposedRevision>(ProposeStatefulSetRevision(set, collision_count));
    state.proposed_uid = set.metadata.uid;
    state.proposed_generation = set.metadata.generation;
  }
  return state.proposed;
}

Result<StatefulSetSnapshot> StatefulSetController::Snapshot(
    const store::ObjectPtr& set_object) const {
  StatefulSetSnapshot snap;
  ASSIGN_OR_RETURN(std::shared_ptr<const api::StatefulSet> set,
                   store::DecodedView<api::StatefulSet>(*set_object));
  snap.set = *set;  // the shared view, copied: a version is decoded once, not on every sync
  snap.now = loop_->Now();
  const SetKey key{snap.set.metadata.namespace_, snap.set.metadata.name};
  const std::string& uid = snap.set.metadata.uid;
  auto log = Logger(std::string(kStatefulSetControllerName));

  // The shared decoded views of the set's objects of controlled kind `kind`. A pod that did not
  // change since the last sync is the view this set still holds (SetState::pods_held), or one
  // another in-process reader holds; only a new version is decoded.
  auto owned = [&](std::size_t kind, auto& out) {
    using View =
        std::remove_const_t<typename std::decay_t<decltype(out)>::value_type::element_type>;
    for (const store::ObjectPtr& object : queue_.Owned(kind, key, uid)) {
      Result<std::shared_ptr<const View>> view = store::DecodedView<View>(*object);
      if (!view.ok()) {
        log->warn("{}: skipping undecodable {}: {}", KeyString(key), object->name().name,
                  view.status().message());
        continue;
      }
      out.push_back(std::move(*view));
    }
  };
  owned(kPods, snap.pods);
  owned(kRevisions, snap.revisions);

  // The claims of the replicas' ordinals: all the plan looks up.
  int start = snap.set.spec.ordinals ? snap.set.spec.ordinals->start : 0;
  int replicas = snap.set.spec.replicas.value_or(1);
  for (const api::PersistentVolumeClaim& claim : snap.set.spec.volume_claim_templates) {
    for (int ordinal = start; ordinal < start + replicas; ++ordinal) {
      store::ObjectPtr pvc = queue_.controlled(kPvcs).Get(
          key.namespace_, StatefulSetPvcName(snap.set, claim, ordinal));
      if (!pvc) continue;
      auto decoded = store::DecodedView<api::PersistentVolumeClaim>(*pvc);
      if (decoded.ok()) snap.pvcs.push_back(**decoded);
    }
  }
  return snap;
}

}  // namespace lws::cluster
