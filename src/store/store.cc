#include "store/store.h"

#include <charconv>
#include <filesystem>

#include "base/deferred_ack.h"
#include "base/log.h"
#include "store/group_sync.h"
#include "store/persistence.h"
#include "store/run_locked.h"
#include "store/space_reserve.h"

namespace lws::store {

namespace {

using internal::RunLocked;

bool HasManagedFieldsKey(const Json& object) {
  auto meta = object.find("metadata");
  return meta != object.end() && meta->is_object() && meta->contains("managedFields");
}

constexpr int kGenerateNameAttempts = 8;  // upstream's RetryGenerateName: 1 + 7 retries

}  // namespace

Result<std::uint64_t> ParseResourceVersion(std::string_view text) {
  if (text.empty()) return std::uint64_t{0};
  std::uint64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size()) {
    return Status::BadRequest(
        "invalid resource version: resourceVersion: Invalid value: " + api::GoQuote(text) +
        ": strconv.ParseUint: parsing " + api::GoQuote(text) + ": invalid syntax");
  }
  return value;
}

Json DeleteResponseBody(const api::ResourceInfo& info, const DeleteResult& result) {
  if (!result.deleted || ReturnsDeletedObject(info)) return result.object->FullJson();
  Json details = {
      {"name", result.object->name().name}, {"kind", info.resource}, {"uid", result.object->uid()}};
  if (!info.group.empty()) details["group"] = info.group;
  return {{"kind", "Status"},
          {"apiVersion", "v1"},
          {"metadata", Json::object()},
          {"status", "Success"},
          {"details", std::move(details)}};
}

Store::Store(StoreOptions options)
    : options_(std::move(options)), history_(options_.history_size, 0), rng_(options_.seed) {}

// Not analysed: it fills the new store unlocked, before any other thread can reach it.
Result<std::unique_ptr<Store>> Store::Open(StoreOptions options) NO_THREAD_SAFETY_ANALYSIS {
  if (options.clock == nullptr) return Status::Internal("store: StoreOptions.clock is required");
  std::unique_ptr<Store> store(new Store(std::move(options)));
  if (!store->options_.data_dir.empty()) {
    ASSIGN_OR_RETURN(store->db_, Database::Open(store->options_.data_dir));
    RETURN_IF_ERROR(store->Load());
    store->space_ = std::make_unique<SpaceReserve>(
        (std::filesystem::path(store->options_.data_dir) / "space.reserve").string(),
        store->db_->path(), store->options_.space_reserve_bytes);
    store->space_->Open();
    if (store->options_.sync_writes) {
      store->sync_ =
          std::make_unique<GroupSync>([db = store->db_.get()] { return db->FlushLog(); });
    }
  }
  store->history_ = History(store->options_.history_size, store->rv_);
  store->rng_ = Rng(store->options_.seed).Derive("store@" + std::to_string(store->rv_));
  return store;
}

Store::~Store() {
  Notifications notes;
  {
    MutexLock lock(&mu_);
    for (auto& [resource, list] : watchers_) {
      for (auto& w : list) {
        if (w->End(WatchEvent{EventType::kError, nullptr})) notes.Add(w);
      }
    }
  }
  notes.Run();
}

// Not analysed, nor its callback: Open calls it, unlocked (see there).
Status Store::Load() NO_THREAD_SAFETY_ANALYSIS {
  ASSIGN_OR_RETURN(rv_, db_->LoadCounter());
  return db_->LoadObjects(
      [&](std::string_view key, std::uint64_t rv, std::string_view text) NO_THREAD_SAFETY_ANALYSIS {
        std::string group_resource;
        ObjectName name;
        if (!ParseStorageKey(key, &group_resource, &name)) {
          return Status::Internal("store: " + db_->path() + ": malformed object key " +
                                  api::GoQuote(key));
        }
        Json json = Json::parse(text, nullptr, /*allow_exceptions=*/false);
        if (json.is_discarded() || !json.is_object() || NameOf(json) != name) {
          return Status::Internal("store: " + db_->path() + ": object " + api::GoQuote(key) +
                                  " is not a valid stored object");
        }
        ObjectPtr object;
        if (MetaString(json, "resourceVersion") == std::to_string(rv)) {
          ManagedEntries entries = TakeManagedFields(&json);
          auto stored = std::make_shared<StoredObject>(std::move(json), rv);
          stored->SetManagedFields(std::move(entries));
          stored->SetBytes(std::string(text));  // the whole object, its managedFields included
          object = std::move(stored);
        } else {
          object = MakeStoredObject(std::move(json), rv);
        }
        objects_[group_resource][name] = std::move(object);
        rv_ = std::max(rv_, rv);
        std::uint64_t& last = last_write_[group_resource];
        last = std::max(last, rv);
        return Status::Ok();
      });
}

std::string Store::ReserveUid() {
  MutexLock lock(&mu_);
  return NewUid();
}

std::string Store::NewUid() {
  unsigned char b[16];
  for (int half = 0; half < 2; ++half) {
    std::uint64_t word = rng_.Next();
    for (int i = 0; i < 8; ++i) b[half * 8 + i] = static_cast<unsigned char>(word >> (8 * i));
  }
  b[6] = static_cast<unsigned char>((b[6] & 0x0f) | 0x40);  // version 4
  b[8] = static_cast<unsigned char>((b[8] & 0x3f) | 0x80);  // RFC 4122 variant
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (int i = 0; i < 16; ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) out += '-';
    out += kHex[b[i] >> 4];
    out += kHex[b[i] & 0xf];
  }
  return out;
}

std::string Store::NewName(std::string_view generate_name) {
  std::string name = GeneratedNamePrefix(generate_name);
  const auto last = static_cast<std::int64_t>(kGeneratedNameAlphabet.size()) - 1;
  for (int i = 0; i < kGeneratedNameSuffixLength; ++i) {
    name += kGeneratedNameAlphabet[static_cast<std::size_t>(rng_.UniformInt(0, last))];
  }
  return name;
}

const ObjectPtr* Store::Find(const std::string& group_resource, const ObjectName& name) const {
  auto resource = objects_.find(group_resource);
  if (resource == objects_.end()) return nullptr;
  auto it = resource->second.find(name);
  return it == resource->second.end() ? nullptr : &it->second;
}

const ObjectPtr* Store::Find(const api::ResourceInfo& info, const std::string& namespace_,
                             const std::string& name) const {
  return Find(info.GroupResource(), {info.namespaced ? namespace_ : "", name});
}

Result<ObjectPtr> Store::Create(const api::ResourceInfo& info, Json object,
                                const CreateOptions& options) {
  Notifications notes;
  auto result = RunLocked(
      mu_, [&]() REQUIRES(mu_) { return CreateLocked(info, std::move(object), options, &notes); });
  return Acknowledge(std::move(result), &notes);
}

Result<ObjectPtr> Store::Update(const api::ResourceInfo& info, Json object,
                                const UpdateOptions& options) {
  Notifications notes;
  auto result = RunLocked(mu_, [&]() REQUIRES(mu_) {
    return UpdateLocked(info, std::move(object), false, options, &notes);
  });
  return Acknowledge(std::move(result), &notes);
}

Result<ObjectPtr> Store::UpdateStatus(const api::ResourceInfo& info, Json object,
                                      const UpdateOptions& options) {
  Notifications notes;
  auto result = RunLocked(mu_, [&]() REQUIRES(mu_) {
    return UpdateLocked(info, std::move(object), true, options, &notes);
  });
  return Acknowledge(std::move(result), &notes);
}

Result<DeleteResult> Store::Delete(const api::ResourceInfo& info, const std::string& namespace_,
                                   const std::string& name, const DeleteOptions& options) {
  Notifications notes;
  ObjectName key{info.namespaced ? namespace_ : "", name};
  auto result =
      RunLocked(mu_, [&]() REQUIRES(mu_) { return DeleteLocked(info, key, options, &notes); });
  return Acknowledge(std::move(result), &notes);
}

Result<ObjectPtr> Store::Get(const api::ResourceInfo& info, const std::string& namespace_,
                             const std::string& name) const {
  MutexLock lock(&mu_);
  const ObjectPtr* found = Find(info, namespace_, name);
  if (found == nullptr) return NotFoundError(info, name);
  return *found;
}

bool Store::Contains(const api::ResourceInfo& info, const std::string& namespace_,
                     const std::string& name) const {
  MutexLock lock(&mu_);
  return Find(info, namespace_, name) != nullptr;
}

std::uint64_t Store::CurrentResourceVersion() const {
  MutexLock lock(&mu_);
  return rv_;
}

std::uint64_t Store::LastWrite(const api::ResourceInfo& info) const {
  MutexLock lock(&mu_);
  auto it = last_write_.find(info.GroupResource());
  return it == last_write_.end() ? 0 : it->second;
}

Result<ObjectPtr> Store::CreateLocked(const api::ResourceInfo& info, Json object,
                                      const CreateOptions& options, Notifications* notes) {
  if (!object.is_object() || (object.contains("metadata") && !object["metadata"].is_object())) {
    return Status::BadRequest("the object and its metadata must be JSON objects");
  }
  const std::string gr = info.GroupResource();
  const std::string generate_name = MetaString(object, "generateName");
  if (MetaString(object, "name").empty() && !generate_name.empty()) {
    ObjectName candidate{info.namespaced ? MetaString(object, "namespace") : "", ""};
    for (int attempt = 0; attempt < kGenerateNameAttempts; ++attempt) {
      candidate.name = NewName(generate_name);
      if (Find(gr, candidate) == nullptr) break;
    }
    object["metadata"]["name"] = candidate.name;
  }
  ASSIGN_OR_RETURN(Json prepared,
                   PrepareForCreate(info, std::move(object), options_.clock->Now(),
                                    options.uid.empty() ? NewUid() : options.uid, options));
  const ObjectName name = NameOf(prepared);
  if (Find(gr, name) != nullptr) return AlreadyExistsError(info, name.name);
  NewEntries entries =
      options.managed_fields ? *options.managed_fields : NewEntries(TakeManagedFields(&prepared));
  if (options.dry_run) return MakeStoredObject(std::move(prepared), 0, std::move(entries));
  RETURN_IF_ERROR(AdmitWrite());
  return CommitPut(gr, name, std::move(prepared), std::move(entries), nullptr, notes);
}

Result<ObjectPtr> Store::UpdateLocked(const api::ResourceInfo& info, Json object, bool status_only,
                                      const UpdateOptions& options, Notifications* notes) {
  if (!object.is_object()) return Status::BadRequest("the object must be a JSON object");
  if (status_only && !info.has_status) {
    return Status::NotFound("the server could not find the requested resource");
  }
  const std::string gr = info.GroupResource();
  ObjectName name = NameOf(object);
  if (!info.namespaced) name.namespace_.clear();
  const ObjectPtr* found = Find(gr, name);
  if (found == nullptr) return NotFoundError(info, name.name);
  const ObjectPtr current = *found;
  RETURN_IF_ERROR(CheckUpdatePrecondition(info, object, current->resource_version()));
  // A status write's body without managedFields keeps the live ones (WithStatusOf, which copied
  // them when the object held them).
  const bool keeps_live_entries =
      !options.managed_fields && status_only && !HasManagedFieldsKey(object);
  ASSIGN_OR_RETURN(Json updated, PrepareForUpdate(info, current->document(), std::move(object),
                                                  status_only, options.with_status));
  NewEntries entries = options.managed_fields ? *options.managed_fields
                       : keeps_live_entries   ? KeptEntries(current)
                                              : NewEntries(TakeManagedFields(&updated));
  if (ShouldDeleteDuringUpdate(current->document(), updated)) {
    if (options.dry_run) {
      return MakeStoredObject(std::move(updated), current->resource_version(), std::move(entries));
    }
    return CommitDelete(gr, name, std::move(updated), std::move(entries), current, notes);
  }
  // no-op: same RV, no event
  if (updated == current->document() && SameEntries(entries, updated, *current)) {
    return current;
  }
  if (options.dry_run) {
    return MakeStoredObject(std::move(updated), current->resource_version(), std::move(entries));
  }
  // A built-in kind's status write may change metadata too: only a write that changed nothing
  // but the status keeps its predecessor's body_rv and decoded view.
  const bool only_status = status_only && OnlyStatusChanged(info, current->document(), updated);
  RETURN_IF_ERROR(AdmitWrite());
  return CommitPut(gr, name, std::move(updated), std::move(entries), current, notes, only_status);
}

Result<DeleteResult> Store::DeleteLocked(const api::ResourceInfo& info, const ObjectName& name,
                                         const DeleteOptions& options, Notifications* notes) {
  const std::string gr = info.GroupResource();
  const ObjectPtr* found = Find(gr, name);
  if (found == nullptr) return NotFoundError(info, name.name);
  const ObjectPtr current = *found;
  RETURN_IF_ERROR(ValidateDeleteOptions(options));
  ASSIGN_OR_RETURN(DeletePlan plan,
                   PlanDelete(info, current->document(), options, options_.clock->Now()));
  const bool deleted = plan.action == DeletePlan::Action::kDelete;
  if (plan.action == DeletePlan::Action::kKeep ||
      (plan.action == DeletePlan::Action::kUpdate && plan.object == current->document())) {
    return DeleteResult{current, false};
  }
  // The planned object is the live one with deletion fields set: it keeps the live entries.
  NewEntries entries = KeptEntries(current);
  if (options.dry_run) {
    return DeleteResult{
        MakeStoredObject(std::move(plan.object), current->resource_version(), std::move(entries)),
        deleted};
  }
  if (deleted) {
    ASSIGN_OR_RETURN(ObjectPtr last, CommitDelete(gr, name, std::move(plan.object),
                                                  std::move(entries), current, notes));
    return DeleteResult{last, true};
  }
  ASSIGN_OR_RETURN(ObjectPtr kept,
                   CommitPut(gr, name, std::move(plan.object), std::move(entries), current, notes));
  return DeleteResult{kept, false};
}

Result<ObjectPtr> Store::CommitPut(const std::string& group_resource, const ObjectName& name,
                                   Json json, NewEntries entries, ObjectPtr prev,
                                   Notifications* notes, bool status_only) {
  RETURN_IF_ERROR(Writable());
  const std::uint64_t rv = rv_ + 1;
  if (entries.deferred) {
    if (entries.kept_from == nullptr) {  // kept entries are pooled already
      entries.deferred->maker = [pool = entry_pool_, make = std::move(entries.deferred->maker)](
                                    const Json& object) { return pool->Share(make(object), {}); };
    }
  } else {
    // The previous version's entries are pooled already (read only when made: reading
    // deferred ones would make them).
    static const ManagedEntries kNone;
    const bool prev_made = prev != nullptr && prev->deferred_depth() == 0;
    entries.made =
        entry_pool_->Share(std::move(entries.made), prev_made ? prev->managed_fields() : kNone);
  }
  ObjectPtr object =
      MakeStoredObject(std::move(json), rv, std::move(entries), status_only ? prev : nullptr);
  if (db_) {
    if (Status put = db_->Put(StorageKey(group_resource, name), rv, object->bytes()); !put.ok()) {
      return WriteFailed(std::move(put));
    }
  }
  Written(rv, notes);
  rv_ = rv;
  objects_[group_resource][name] = object;
  last_write_[group_resource] = rv;
  EventType type = prev ? EventType::kModified : EventType::kAdded;
  Publish(HistoryEvent{type, group_resource, name, rv, object, std::move(prev), nullptr}, notes);
  return object;
}

Result<ObjectPtr> Store::CommitDelete(const std::string& group_resource, const ObjectName& name,
                                      Json last, NewEntries entries, ObjectPtr prev,
                                      Notifications* notes) {
  RETURN_IF_ERROR(Writable());
  const std::uint64_t rv = rv_ + 1;
  ObjectPtr object = MakeStoredObject(std::move(last), rv, std::move(entries));
  if (db_) {
    if (Status removed = db_->Remove(StorageKey(group_resource, name), rv); !removed.ok()) {
      return WriteFailed(std::move(removed));
    }
    // Under the alarm, each deletion gives its space back, so that writes resume once enough is.
    if (space_->alarmed()) {
      if (Status given = db_->GiveBackSpace(); !given.ok())
        Logger("store")->warn("{}", given.message());
    }
  }
  Written(rv, notes);
  rv_ = rv;
  objects_[group_resource].erase(name);
  last_write_[group_resource] = rv;
  Publish(
      HistoryEvent{EventType::kDeleted, group_resource, name, rv, object, std::move(prev), nullptr},
      notes);
  return object;
}

void Store::Written(std::uint64_t rv, Notifications* notes) {
  if (sync_) sync_->Written(rv);
  notes->wrote = rv;
}

// A write is acknowledged once it is durable (group_sync.h); its watchers are woken then too,
// so that what they are shown is on disk as nearly as the log allows. Under an API handler's
// DeferredAck the wait moves to the flusher and this thread goes on (base/deferred_ack.h).
template <class T>
Result<T> Store::Acknowledge(Result<T> result, Notifications* notes) {
  if (sync_ && notes->wrote != 0) {
    if (DeferredAck::Open()) {  // the watchers move into the waiter: only when it will run
      DeferredAck::Defer([sync = sync_.get(), seq = notes->wrote,
                          watchers = std::move(notes->watchers)](DeferredAck::Release release) {
        sync->OnDurable(seq, [watchers, release = std::move(release)](Status durable) {
          for (const auto& w : watchers) w->Notify();
          release(std::move(durable));
        });
      });
      return result;
    }
    if (Status durable = sync_->AwaitDurable(notes->wrote); !durable.ok()) result = durable;
  }
  notes->Run();
  return result;
}

Status Store::AdmitWrite() { return space_ ? space_->Admit() : Status::Ok(); }

Status Store::WriteFailed(Status failed) {
  return db_->TakeDiskFull() ? space_->Full(failed) : failed;
}

Status Store::Writable() const { return sync_ ? sync_->failed() : Status::Ok(); }

void Store::Publish(HistoryEvent event, Notifications* notes) {
  if (auto it = watchers_.find(event.group_resource); it != watchers_.end()) {
    auto& list = it->second;
    std::erase_if(list, [](const WatcherPtr& w) { return w->ended(); });
    for (const auto& w : list) {
      std::optional<WatchEvent> seen = EventFor(event, *w);
      if (seen && w->Push(std::move(*seen))) notes->Add(w);
    }
  }
  history_.Append(std::move(event));
}

}  // namespace lws::store
