// The shared work queue of the simulated cluster's owner controllers (owner_controller.h).
#include "cluster/owner_controller.h"

#include <algorithm>

#include "base/log.h"
#include "store/object_meta.h"

namespace lws::cluster {

namespace {

using api::Json;

constexpr Duration kRaceRetry = std::chrono::milliseconds(100);
constexpr Duration kFirstBackoff = std::chrono::seconds(1);
constexpr Duration kMaxBackoff = std::chrono::minutes(5);

std::string KeyString(const store::ObjectName& key) { return key.namespace_ + "/" + key.name; }

}  // namespace

std::optional<ControllerOf> ControllingOwner(const store::StoredObject& object,
                                             std::string_view kind) {
  std::optional<store::OwnerRefView> ref = store::ControllerReference(object);
  if (!ref) return std::nullopt;
  // Only one controller reference is allowed; it either names the kind or not.
  // Jobs are the batch group's; every other owner kind here is an apps one.
  const std::string_view group = kind == "Job" ? "batch/" : "apps/";
  if (ref->kind != kind || !ref->api_version.starts_with(group)) return std::nullopt;
  return ControllerOf{{object.name().namespace_, std::string(ref->name)}, std::string(ref->uid)};
}

api::OwnerReference AppsControllerRef(std::string kind, const api::ObjectMeta& owner) {
  return ControllerRefTo("apps/v1", std::move(kind), owner);
}

api::OwnerReference ControllerRefTo(std::string api_version, std::string kind,
                                    const api::ObjectMeta& owner) {
  api::OwnerReference ref;
  ref.api_version = std::move(api_version);
  ref.kind = std::move(kind);
  ref.name = owner.name;
  ref.uid = owner.uid;
  ref.controller = true;
  ref.block_owner_deletion = true;
  return ref;
}

OwnerController::OwnerController(EventLoop* loop, const client::Client* client, Options options,
                                 SyncFn sync)
    : loop_(loop), client_(client), options_(std::move(options)), sync_(std::move(sync)) {
  owners_ = std::make_unique<client::Informer>(loop, client, options_.owner);
  owners_->AddHandler([this](const auto& old, const auto& now) { OnOwner(old, now); });
  controlled_.reserve(options_.controlled.size());
  for (const Controlled& kind : options_.controlled) {
    controlled_.push_back(
        {kind, std::make_unique<client::Informer>(loop, client, kind.resource), {}});
  }
  for (Index& index : controlled_) {
    index.informer->AddHandler(
        [this, &index](const auto& old, const auto& now) { OnControlled(index, old, now); });
  }
}

OwnerController::~OwnerController() { Stop(); }

Status OwnerController::Start() {
  if (started_) return Status::Internal(options_.name + ": already started");
  started_ = true;
  alive_ = std::make_shared<char>(0);
  // Controlled kinds first, owners last, so that the owners' first syncs find their objects
  // when the lists are small; the gate covers lists delivered in several batches.
  std::vector<std::pair<client::Informer*, const client::Resource*>> order;
  for (Index& index : controlled_) order.emplace_back(index.informer.get(), &index.kind.resource);
  order.emplace_back(owners_.get(), &options_.owner);
  for (auto [informer, resource] : order) {
    ASSIGN_OR_RETURN(store::ListResult list, client_->List(*resource));
    initial_.push_back({informer, list.items.size(), list.resource_version});
    RETURN_IF_ERROR(informer->Start());
  }
  CheckSynced();
  return Status::Ok();
}

void OwnerController::Stop() {
  owners_->Stop();
  for (Index& index : controlled_) index.informer->Stop();
  for (auto& [key, state] : states_) {
    if (state.retry_task != 0) loop_->Cancel(state.retry_task);
  }
  states_.clear();
  queued_.clear();
  alive_.reset();
}

// ---- Events --------------------------------------------------------------------------------

void OwnerController::OnOwner(const store::ObjectPtr& old, const store::ObjectPtr& now) {
  Key key = (now ? now : old)->name();
  if (!now) {
    auto it = states_.find(key);
    if (it != states_.end()) {
      if (it->second.retry_task != 0) loop_->Cancel(it->second.retry_task);
      states_.erase(it);
    }
    if (options_.on_owner_deleted) options_.on_owner_deleted(key);
    return;
  }
  CheckSynced();
  Enqueue(key);
}

void OwnerController::OnControlled(Index& index, const store::ObjectPtr& old,
                                   const store::ObjectPtr& now) {
  const std::string& kind = index.kind.owner_kind;
  std::optional<ControllerOf> was = old ? ControllingOwner(*old, kind) : std::nullopt;
  std::optional<ControllerOf> is = now ? ControllingOwner(*now, kind) : std::nullopt;
  std::string name = (now ? now : old)->name().name;
  if (was && (!is || was->owner != is->owner)) {
    auto it = index.by_owner.find(was->owner);
    if (it != index.by_owner.end()) {
      it->second.erase(name);
      if (it->second.empty()) index.by_owner.erase(it);
    }
  }
  if (is) index.by_owner[is->owner].insert(name);
  CheckSynced();
  if (was) EnqueueReferenced(index, was->owner);
  if (is && (!was || was->owner != is->owner)) EnqueueReferenced(index, is->owner);
}

void OwnerController::EnqueueReferenced(const Index& index, const Key& referenced) {
  if (!index.kind.sync_key) return Enqueue(referenced);
  if (std::optional<Key> key = index.kind.sync_key(referenced)) Enqueue(*key);
}

void OwnerController::CheckSynced() {
  if (synced_ || initial_.size() < controlled_.size() + 1) return;
  for (const Initial& initial : initial_) {
    bool delivered = initial.informer->objects().size() >= initial.count ||
                     initial.informer->last_resource_version() > initial.rv;
    if (!delivered) return;
  }
  synced_ = true;
  for (const auto& [key, object] : owners_->objects()) Enqueue(key);
}

// ---- Queue ---------------------------------------------------------------------------------

void OwnerController::Enqueue(const Key& key) {
  if (!synced_ || !alive_ || queued_.count(key)) return;
  auto state = states_.find(key);
  if (state != states_.end() && state->second.last_sync &&
      loop_->Now() < *state->second.last_sync + options_.min_sync_interval) {
    return EnqueueAfter(key, *state->second.last_sync + options_.min_sync_interval - loop_->Now());
  }
  queued_.insert(key);
  std::weak_ptr<char> alive = alive_;
  loop_->Post([this, alive, key] {
    if (alive.expired()) return;
    queued_.erase(key);
    Sync(key);
  });
}

void OwnerController::EnqueueAfter(const Key& key, Duration delay) {
  if (!alive_ || !owners_->Get(key.namespace_, key.name)) return;
  OwnerState& state = states_[key];
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

const client::Informer& OwnerController::InformerAt(std::size_t i) const {
  return i == kOwnerInformer ? *owners_ : *controlled_[i].informer;
}

bool OwnerController::ExpectationsMet(const Key& key, OwnerState& state) {
  bool met = std::all_of(state.want_rv.begin(), state.want_rv.end(), [&](const auto& want) {
    return InformerAt(want.first).last_resource_version() >= want.second;
  });
  if (met) return true;
  if (loop_->Now() >= state.expect_deadline) {
    Logger(options_.name)
        ->warn("{}: writes not observed after {} s; syncing anyway", KeyString(key),
               std::chrono::duration_cast<std::chrono::seconds>(kExpectationTimeout).count());
    return true;
  }
  // The write's own event enqueues the owner; this timer only covers a watch that relisted.
  EnqueueAfter(key, state.expect_deadline - loop_->Now());
  return false;
}

void OwnerController::Sync(const Key& key) {
  store::ObjectPtr owner = owners_->Get(key.namespace_, key.name);
  if (!owner) return;
  OwnerState& state = states_[key];
  if (!ExpectationsMet(key, state)) return;
  state.want_rv.clear();
  state.last_sync = loop_->Now();
  ++syncs_;
  if (std::optional<Duration> again = sync_(owner)) EnqueueAfter(key, *again);
}

std::vector<store::ObjectPtr> OwnerController::Owned(std::size_t i, const Key& referenced,
                                                     const std::string& uid) const {
  std::vector<store::ObjectPtr> out;
  const Index& index = controlled_[i];
  auto it = index.by_owner.find(referenced);
  if (it == index.by_owner.end()) return out;
  for (const std::string& name : it->second) {
    store::ObjectPtr object = index.informer->Get(referenced.namespace_, name);
    if (!object) continue;
    std::optional<ControllerOf> ref = ControllingOwner(*object, index.kind.owner_kind);
    if (ref && ref->uid == uid) out.push_back(std::move(object));
  }
  return out;
}

void OwnerController::Expect(const Key& owner, std::size_t i, const store::StoredObject& answer) {
  if (answer.resource_version() == 0) return;  // not a stored version: expect nothing
  OwnerState& state = states_[owner];
  std::uint64_t& want = state.want_rv[i];
  want = std::max(want, answer.resource_version());
  state.expect_deadline = loop_->Now() + kExpectationTimeout;
}

Duration OwnerController::Failed(const Key& owner, const Status& status) {
  if (status.code() == Code::kConflict || status.code() == Code::kAlreadyExists ||
      status.code() == Code::kNotFound) {
    return kRaceRetry;
  }
  OwnerState& state = states_[owner];
  state.backoff = state.backoff == Duration(0) ? kFirstBackoff
                                               : std::min<Duration>(state.backoff * 2, kMaxBackoff);
  Logger(options_.name)
      ->warn("{}: {} (retry in {} ms)", KeyString(owner), status.message(),
             std::chrono::duration_cast<std::chrono::milliseconds>(state.backoff).count());
  return state.backoff;
}

void OwnerController::Succeeded(const Key& owner) {
  auto it = states_.find(owner);
  if (it != states_.end()) it->second.backoff = Duration(0);
}

}  // namespace lws::cluster
