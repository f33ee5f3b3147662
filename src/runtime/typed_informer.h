// File: runtime/typed_informer.h
//
// A client::Informer whose objects are also kept decoded, as the api types the controllers
// plan with, and indexed: client-go's typed shared informer with its indexers.
//
// Why decode here. A reconcile of one LeaderWorkerSet reads its StatefulSets and every pod of
// every group; decoding them from JSON on each reconcile would cost more than the plan.
// Instead each stored version is decoded once, when its
// watch event arrives, and kept until the next version replaces it: an object that did not
// change is the same `const T*` on every read.
//
// The decoded object is the stored version's shared view (store/decoded_view.h): the other
// in-process readers of that version (the simulated cluster's controllers) get the same object
// instead of decoding it again, unless DecodePrivately was called. Like every view, it carries no
// metadata.managedFields (client-go's TransformStripManagedFields).
//
// Undecodable objects. A stored object that does not decode as T (a field of the wrong type
// written by some other client) is logged and treated as absent: Get, List and the indexes do
// not see it, and handlers see it deleted if it decoded before. The next version that decodes
// appears as an addition.
//
// Indexes. An IndexFunc maps an object to the values it is filed under (runtime/indexes.h has
// the usual ones: controller uid, controller name, a label); ByIndex answers in (namespace,
// name) order, so a reconcile that walks it writes in a deterministic order.
//
// Handlers get typed pointers valid during the call: `old` is null for an addition, `now` is
// null for a deletion. The old object stays alive until every handler has returned; pointers
// kept beyond the call may dangle after the next event for that object.
//
// synced() is InitialList's rule (runtime/start_gate.h); a TypedInformer is a SyncSource, so a
// StartGate can wait for several of them.
//
// Threading: loop only (AddIndex, AddHandler and Start may be called before the loop runs),
// except after ShareWith: then Get, GetStored, ByIndex, List and size may be called from
// reconcile workers too, inside a ConcurrentReads::Reader (runtime/concurrent_reads.h).
#pragma once

#include <algorithm>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <shared_mutex>
#include <string>
#include <utility>
#include <vector>

#include "api/codec.h"
#include "base/event_loop.h"
#include "base/log.h"
#include "client/client.h"
#include "client/informer.h"
#include "client/resource.h"
#include "runtime/concurrent_reads.h"
#include "runtime/start_gate.h"
#include "runtime/work_queue.h"
#include "store/decoded_view.h"

namespace lws::runtime {

template <class T>  // an api type with Fields() and `metadata` (api::Pod, api::StatefulSet, ...)
class TypedInformer final : public SyncSource {
 public:
  using Handler =
      std::function<void(const T* old, const T* now)>;  // old null: added; now null: deleted
  using IndexFunc = std::function<std::vector<std::string>(const T&)>;

  // REQUIRES: loop and client outlive the informer.
  TypedInformer(EventLoop* loop, const client::Client* client, client::Resource resource,
                std::string ns = "")
      : loop_(loop),
        client_(client),
        resource_(resource),
        ns_(std::move(ns)),
        informer_(loop, client, resource, ns_) {
    informer_.AddHandler(
        [this](const store::ObjectPtr& old, const store::ObjectPtr& now) { OnEvent(old, now); });
  }
  ~TypedInformer() override { Stop(); }
  TypedInformer(const TypedInformer&) = delete;
  TypedInformer& operator=(const TypedInformer&) = delete;

  // REQUIRES: before Start; index names unique.
  void AddIndex(const std::string& index, IndexFunc func) {
    index_funcs_.emplace_back(index, std::move(func));
    indexes_[index];
  }
  // REQUIRES: before Start. Handlers see the initial objects as additions.
  void AddHandler(Handler handler) { handlers_.push_back(std::move(handler)); }
  // Lets reconcile workers read this cache while the loop changes it. REQUIRES: before Start;
  // `reads` outlives the informer.
  void ShareWith(ConcurrentReads* reads) { reads_ = reads; }
  // Decodes each version for this cache alone instead of sharing the stored version's decoded
  // view (store/decoded_view.h) with other in-process readers: what a controller over the REST
  // client gets anyway, and what a measurement of this cache's memory needs. REQUIRES: before
  // Start.
  void DecodePrivately() { share_views_ = false; }

  // Starts the watch and lists (for synced()). Objects arrive in later loop tasks.
  Status Start() {
    if (alive_) return Status::Internal("informer of " + resource_.resource + ": already started");
    Status started = informer_.Start();
    if (!started.ok()) return started;
    Status captured = initial_.Capture(*client_, resource_, ns_);
    if (!captured.ok()) {
      informer_.Stop();
      return captured;
    }
    alive_ = std::make_shared<char>(0);
    // An empty initial list delivers no event: check once from the loop.
    std::weak_ptr<char> alive = alive_;
    loop_->Post([this, alive] {
      if (!alive.expired()) CheckSynced();
    });
    return Status::Ok();
  }
  // Stops the watch; the cache keeps its last contents, sync callbacks are dropped.
  void Stop() {
    informer_.Stop();
    alive_.reset();
    on_synced_.clear();
  }

  // null when absent (or undecodable). `ns` is ignored for cluster-scoped resources.
  const T* Get(const std::string& ns, const std::string& name) const {
    auto lock = ReadLock();
    auto it = entries_.find(KeyFor(ns, name));
    return it == entries_.end() ? nullptr : it->second.object.get();
  }
  // The stored JSON the typed object was decoded from; null when absent (or undecodable).
  store::ObjectPtr GetStored(const std::string& ns, const std::string& name) const {
    auto lock = ReadLock();
    auto it = entries_.find(KeyFor(ns, name));
    return it == entries_.end() ? nullptr : it->second.stored;
  }
  // Objects filed under `value` in `index`, sorted by (namespace, name); empty for an unknown
  // index or value.
  std::vector<const T*> ByIndex(const std::string& index, const std::string& value) const {
    std::vector<const T*> out;
    auto lock = ReadLock();
    auto idx = indexes_.find(index);
    if (idx == indexes_.end()) return out;
    auto filed = idx->second.find(value);
    if (filed == idx->second.end()) return out;
    out.reserve(filed->second.size());
    for (const auto& [key, object] : filed->second) out.push_back(object);
    return out;
  }
  // Every (decodable) object, sorted by (namespace, name).
  std::vector<const T*> List() const {
    std::vector<const T*> out;
    auto lock = ReadLock();
    out.reserve(entries_.size());
    for (const auto& [key, entry] : entries_) out.push_back(entry.object.get());
    return out;
  }
  std::size_t size() const {
    auto lock = ReadLock();
    return entries_.size();
  }

  // For Expectations and last_resource_version().
  const client::Informer& informer() const { return informer_; }
  const client::Resource& resource() const { return resource_; }
  // The objects that existed at Start have all been delivered.
  bool synced() const override { return initial_.delivered(); }
  void OnSynced(std::function<void()> callback) override {
    if (synced()) return callback();
    on_synced_.push_back(std::move(callback));
  }

 private:
  struct Entry {
    store::ObjectPtr stored;
    std::shared_ptr<const T> object;                     // the stored version's decoded view
    std::vector<std::vector<std::string>> index_values;  // per index_funcs_ entry
  };

  // Shared lock on the containers when workers read them; no lock otherwise.
  std::shared_lock<std::shared_mutex> ReadLock() const {
    return reads_ != nullptr ? std::shared_lock<std::shared_mutex>(reads_->containers())
                             : std::shared_lock<std::shared_mutex>();
  }

  store::ObjectName KeyFor(const std::string& ns, const std::string& name) const {
    return {resource_.namespaced ? ns : "", name};
  }

  void OnEvent(const store::ObjectPtr& old_stored, const store::ObjectPtr& now_stored) {
    store::ObjectName key = (now_stored ? now_stored : old_stored)->name();
    if (!resource_.namespaced) key.namespace_.clear();
    std::shared_ptr<const T> decoded;
    if (now_stored) decoded = DecodeOrLog(key, *now_stored);

    // The previous typed version lives until the handlers return (and, with workers, until
    // no reconcile that may have read it is running).
    std::shared_ptr<const T> previous;
    const T* now = decoded.get();
    {
      std::unique_lock<std::shared_mutex> lock;
      if (reads_ != nullptr) lock = std::unique_lock<std::shared_mutex>(reads_->containers());
      auto it = entries_.lower_bound(key);
      const bool known = it != entries_.end() && it->first == key;
      if (known && decoded) {  // a new version: the entry stays where it is
        Refile(key, it->second, decoded.get());
        previous = std::move(it->second.object);
        it->second.stored = now_stored;
        it->second.object = std::move(decoded);
      } else if (known) {
        Unindex(key, it->second);
        previous = std::move(it->second.object);
        entries_.erase(it);
      } else if (decoded) {
        Entry entry{now_stored, std::move(decoded), {}};
        Index(key, entry);
        entries_.emplace_hint(it, key, std::move(entry));
      }
    }
    bool was_synced = synced();
    initial_.Check(informer_);
    if (previous || now) {
      for (const Handler& handler : handlers_) handler(previous.get(), now);
    }
    if (previous && reads_ != nullptr) reads_->Retire(std::move(previous));
    if (!was_synced) CheckSynced();
  }

  std::shared_ptr<const T> DecodeOrLog(const store::ObjectName& key,
                                       const store::StoredObject& stored) const {
    Result<std::shared_ptr<const T>> decoded =
        share_views_ ? store::DecodedView<T>(stored) : store::DecodePrivateView<T>(stored);
    if (decoded.ok()) return std::move(*decoded);
    Logger("runtime")->warn("{} {}: cannot decode, treated as absent: {}", resource_.resource,
                            KeyString(key), decoded.status().message());
    return nullptr;
  }

  // What index `i` files `object` under, sorted and without repeats.
  std::vector<std::string> IndexValues(std::size_t i, const T& object) const {
    std::vector<std::string> values = index_funcs_[i].second(object);
    std::sort(values.begin(), values.end());
    values.erase(std::unique(values.begin(), values.end()), values.end());
    return values;
  }

  void Index(const store::ObjectName& key, Entry& entry) {
    entry.index_values.clear();
    for (std::size_t i = 0; i < index_funcs_.size(); ++i) {
      std::vector<std::string> values = IndexValues(i, *entry.object);
      auto& index = indexes_[index_funcs_[i].first];
      for (const std::string& value : values) index[value].emplace(key, entry.object.get());
      entry.index_values.push_back(std::move(values));
    }
  }

  // Files `now`, the next version of the entry's object. Most versions keep their index values
  // (a status change keeps owner and labels): then only the object pointer changes, where
  // unfiling and filing again cost map nodes on every event.
  void Refile(const store::ObjectName& key, Entry& entry, const T* now) {
    for (std::size_t i = 0; i < index_funcs_.size(); ++i) {
      std::vector<std::string> values = IndexValues(i, *now);
      auto& index = indexes_[index_funcs_[i].first];
      if (values != entry.index_values[i]) {
        Unfile(index, key, entry.index_values[i]);
        entry.index_values[i] = values;
      }
      for (const std::string& value : values) index[value][key] = now;
    }
  }

  void Unindex(const store::ObjectName& key, const Entry& entry) {
    for (std::size_t i = 0; i < entry.index_values.size(); ++i) {
      Unfile(indexes_[index_funcs_[i].first], key, entry.index_values[i]);
    }
  }

  template <class IndexMap>
  static void Unfile(IndexMap& index, const store::ObjectName& key,
                     const std::vector<std::string>& values) {
    for (const std::string& value : values) {
      auto it = index.find(value);
      if (it == index.end()) continue;
      it->second.erase(key);
      if (it->second.empty()) index.erase(it);
    }
  }

  // Runs the sync callbacks once the initial list is in.
  void CheckSynced() {
    if (!initial_.Check(informer_) || on_synced_.empty()) return;
    std::vector<std::function<void()>> callbacks = std::move(on_synced_);
    on_synced_.clear();
    for (auto& callback : callbacks) callback();
  }

  EventLoop* const loop_;
  const client::Client* const client_;
  const client::Resource resource_;
  const std::string ns_;
  ConcurrentReads* reads_ = nullptr;  // set by ShareWith: workers read this cache
  bool share_views_ = true;
  client::Informer informer_;
  std::vector<Handler> handlers_;
  std::vector<std::pair<std::string, IndexFunc>> index_funcs_;
  // index name -> value -> key -> object; the keys' order is ByIndex's (namespace, name) order,
  // and the object pointers spare a lookup in entries_ per key (a status pass over 10,000 groups
  // reads every leader pod through an index).
  std::map<std::string, std::map<std::string, std::map<store::ObjectName, const T*>>> indexes_;
  std::map<store::ObjectName, Entry> entries_;
  InitialList initial_;
  std::vector<std::function<void()>> on_synced_;
  // The posted start-up check holds a weak pointer: it does nothing after Stop.
  std::shared_ptr<char> alive_;
};

}  // namespace lws::runtime
