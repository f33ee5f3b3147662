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

// Whether a controller reference names a StatefulSet: kind StatefulSet in the apps group, any
// version. Read from the JSON (ControllingStatefulSet) and from a decoded view (Snapshot).
bool NamesStatefulSet(std::string_view kind, std::string_view api_version) {
  return kind == "StatefulSet" && api_version.starts_with("apps/");
}

}  // namespace

std::optional<StatefulSetOwner> ControllingStatefulSet(const api::Json& object) {
  std::optional<ControllerOf> owner = ControllingOwner(object, "StatefulSet");
  if (!owner) return std::nullopt;
  return StatefulSetOwner{std::move(owner->owner), std::move(owner->uid)};
}

StatefulSetController::StatefulSetController(EventLoop* loop, const client::LocalClient* client)
    : loop_(loop),
      client_(client),
      recorder_(client, &loop->clock(), std::string(kStatefulSetControllerName)),
      sets_(loop, client, client::kStatefulSets),
      pods_(loop, client, client::kPods),
      revisions_(loop, client, client::kControllerRevisions),
      pvcs_(loop, client, client::kPersistentVolumeClaims) {
  sets_.AddHandler([this](const auto& old, const auto& now) { OnSet(old, now); });
  pods_.AddHandler([this](const auto& old, const auto& now) { OnOwned(&pods_by_set_, old, now); });
  revisions_.AddHandler(
      [this](const auto& old, const auto& now) { OnOwned(&revisions_by_set_, old, now); });
  pvcs_.AddHandler([this](const auto& old, const auto& now) { OnOwned(nullptr, old, now); });
}

StatefulSetController::~StatefulSetController() { Stop(); }

Status StatefulSetController::Start() {
  if (started_) return Status::Internal("statefulset-controller: already started");
  started_ = true;
  alive_ = std::make_shared<char>(0);
  // Dependents first, sets last, so that the sets' first syncs find their pods when the lists
  // are small; the gate below covers lists delivered in several batches.
  for (client::Informer* informer : {&revisions_, &pvcs_, &pods_, &sets_}) {
    const client::Resource* resource = informer == &sets_        ? &client::kStatefulSets
                                       : informer == &pods_      ? &client::kPods
                                       : informer == &revisions_ ? &client::kControllerRevisions
                                                                 : &client::kPersistentVolumeClaims;
    std::uint64_t rv = client_->store()->CurrentResourceVersion();
    ASSIGN_OR_RETURN(store::ListResult list, client_->List(*resource));
    initial_.push_back({informer, list.items.size(), rv});
    RETURN_IF_ERROR(informer->Start());
  }
  CheckSynced();
  return Status::Ok();
}

void StatefulSetController::Stop() {
  for (client::Informer* informer : {&sets_, &pods_, &revisions_, &pvcs_}) informer->Stop();
  for (auto& [key, state] : states_) {
    if (state.retry_task != 0) loop_->Cancel(state.retry_task);
  }
  states_.clear();
  queued_.clear();
  alive_.reset();
}

// ---- Events --------------------------------------------------------------------------------

void StatefulSetController::OnSet(const store::ObjectPtr& old, const store::ObjectPtr& now) {
  SetKey key = store::NameOf((now ? now : old)->json);
  if (!now) {
    auto it = states_.find(key);
    if (it != states_.end()) {
      if (it->second.retry_task != 0) loop_->Cancel(it->second.retry_task);
      states_.erase(it);
    }
    return;
  }
  CheckSynced();
  Enqueue(key);
}

void StatefulSetController::OnOwned(std::map<SetKey, std::set<std::string>>* index,
                                    const store::ObjectPtr& old, const store::ObjectPtr& now) {
  std::optional<StatefulSetOwner> was = old ? ControllingStatefulSet(old->json) : std::nullopt;
  std::optional<StatefulSetOwner> is = now ? ControllingStatefulSet(now->json) : std::nullopt;
  std::string name = store::MetaString((now ? now : old)->json, "name");
  if (index != nullptr) {
    if (was && (!is || was->set != is->set)) {
      auto it = index->find(was->set);
      if (it != index->end()) {
        it->second.erase(name);
        if (it->second.empty()) index->erase(it);
      }
    }
    if (is) (*index)[is->set].insert(name);
  }
  CheckSynced();
  if (was) Enqueue(was->set);
  if (is && (!was || was->set != is->set)) Enqueue(is->set);
}

void StatefulSetController::CheckSynced() {
  if (synced_ || initial_.size() < 4) return;
  for (const Initial& initial : initial_) {
    bool delivered = initial.informer->objects().size() >= initial.count ||
                     initial.informer->last_resource_version() > initial.rv;
    if (!delivered) return;
  }
  synced_ = true;
  for (const auto& [key, object] : sets_.objects()) Enqueue(key);
}

// ---- Queue ---------------------------------------------------------------------------------

void StatefulSetController::Enqueue(const SetKey& key) {
  if (!synced_ || !alive_ || queued_.count(key)) return;
  auto state = states_.find(key);
  if (state != states_.end() && state->second.last_sync &&
      loop_->Now() < *state->second.last_sync + kMinSyncInterval) {
    return EnqueueAfter(key, *state->second.last_sync + kMinSyncInterval - loop_->Now());
  }
  queued_.insert(key);
  std::weak_ptr<char> alive = alive_;
  loop_->Post([this, alive, key] {
    if (alive.expired()) return;
    queued_.erase(key);
    Sync(key);
  });
}

// Keeps one timer per set, the earliest asked for.
void StatefulSetController::EnqueueAfter(const SetKey& key, Duration delay) {
  if (!alive_ || !sets_.Get(key.namespace_, key.name)) return;
  SetState& state = states_[key];
  Time when = loop_->Now() + delay;
  if (state.retry_task != 0) {
    if (state.retry_at <= when) return;
    loop_->Cancel(state.retry_task);
  }
  std::weak_ptr<char> alive = alive_;
  state.retry_at = when;
  state.retry_task = loop_->At(when, [this, alive, key] {
    if (alive.expired()) return;
    auto it = states_.find(key);
    if (it != states_.end()) it->second.retry_task = 0;
    Enqueue(key);
  });
}

// ---- Sync ----------------------------------------------------------------------------------

bool StatefulSetController::ExpectationsMet(const SetKey& key, SetState& state) {
  bool met = pods_.last_resource_version() >= state.want_pods_rv &&
             revisions_.last_resource_version() >= state.want_revisions_rv &&
             sets_.last_resource_version() >= state.want_sets_rv;
  if (met) return true;
  if (loop_->Now() >= state.expect_deadline) {
    Logger(std::string(kStatefulSetControllerName))
        ->warn("{}: writes not observed after {} s; syncing anyway", KeyString(key),
               std::chrono::duration_cast<std::chrono::seconds>(kExpectationTimeout).count());
    return true;
  }
  // The write's own event enqueues the set; this timer only covers a watch that relisted.
  EnqueueAfter(key, state.expect_deadline - loop_->Now());
  return false;
}

void StatefulSetController::Sync(const SetKey& key) {
  store::ObjectPtr set_object = sets_.Get(key.namespace_, key.name);
  if (!set_object) return;
  SetState& state = states_[key];
  if (!ExpectationsMet(key, state)) return;
  state.want_pods_rv = state.want_revisions_rv = state.want_sets_rv = 0;
  state.last_sync = loop_->Now();
  ++syncs_;

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
    return;
  }
  std::optional<Duration> retry = Apply(set_object, snapshot->set, *plan, state);
  if (retry) EnqueueAfter(key, *retry);
}

std::shared_ptr<const ProposedRevision> StatefulSetController::Proposed(
    const api::StatefulSet& set, SetState& state) const {
  // The template sits in the spec, whose every change moves the generation; the uid tells a
  // namesake set apart.
  const std::int32_t collision_count = set.status.collision_count.value_or(0);
  const bool same = state.proposed != nullptr && state.proposed_uid == set.metadata.uid &&
                    state.proposed_generation == set.metadata.generation &&
                    state.proposed->collision_count == collision_count;
  if (!same) {
    state.proposed = std::make_shared<const ProposedRevision>(
        ProposeStatefulSetRevision(set, collision_count));
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

  // The shared decoded views of the objects `index` lists for the set whose controller
  // reference carries its uid.
  auto owned = [&](const std::map<SetKey, std::set<std::string>>& index,
                   const client::Informer& informer, auto& out) {
    using View =
        std::remove_const_t<typename std::decay_t<decltype(out)>::value_type::element_type>;
    auto it = index.find(key);
    if (it == index.end()) return;
    for (const std::string& name : it->second) {
      store::ObjectPtr object = informer.Get(key.namespace_, name);
      if (!object) continue;
      Result<std::shared_ptr<const View>> view = store::DecodedView<View>(*object);
      if (!view.ok()) {
        log->warn("{}: skipping undecodable {}: {}", KeyString(key), name, view.status().message());
        continue;
      }
      const api::OwnerReference* ref = (*view)->metadata.ControllerRef();
      if (ref == nullptr || !NamesStatefulSet(ref->kind, ref->api_version) || ref->uid != uid) {
        continue;  // a namesake set's leftovers
      }
      out.push_back(std::move(*view));
    }
  };
  // Pods: the stored versions' shared decoded views. A pod that did not change since the last
  // sync is the view this set still holds (SetState::pods_held), or one another in-process
  // reader holds; only a new version is decoded.
  owned(pods_by_set_, pods_, snap.pods);
  owned(revisions_by_set_, revisions_, snap.revisions);

  // The claims of the replicas' ordinals: all the plan looks up.
  int start = snap.set.spec.ordinals ? snap.set.spec.ordinals->start : 0;
  int replicas = snap.set.spec.replicas.value_or(1);
  for (const api::PersistentVolumeClaim& claim : snap.set.spec.volume_claim_templates) {
    for (int ordinal = start; ordinal < start + replicas; ++ordinal) {
      store::ObjectPtr pvc = pvcs_.Get(key.namespace_, StatefulSetPvcName(snap.set, claim, ordinal));
      if (!pvc) continue;
      auto decoded = api::Decode<api::PersistentVolumeClaim>(pvc->json);
      if (decoded.ok()) snap.pvcs.push_back(std::move(*decoded));
    }
  }
  return snap;
}

}  // namespace lws::cluster
