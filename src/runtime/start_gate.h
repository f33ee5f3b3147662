// File: runtime/start_gate.h
//
// When a controller may start reconciling: once each of its informers has delivered the objects
// that existed when it was started (client-go's WaitForCacheSync). Reconciling earlier would see
// a partial world: a LeaderWorkerSet whose StatefulSets have not arrived yet looks like one whose
// StatefulSets must be created.
//
// An informer's initial contents arrive as synthetic ADDED events over one or more loop tasks
// (the watch drains in batches). InitialList records, right after the informer's watch opened,
// how many objects exist and the store's resourceVersion; the list has been delivered once the
// cache holds that many objects, or once an event newer than that version has arrived (watches
// deliver in resourceVersion order, so every initial object came before it). It is the
// StatefulSet controller's start-up gate, made reusable, with one change: listing after the
// watch opened (not before) means an object deleted in between cannot leave the count forever
// unreached, since the watch's own snapshot still holds it.
//
// StartGate joins several SyncSources (runtime/typed_informer.h implements it) and calls its
// callback once, from the loop task in which the last of them became synced. A controller's
// usual callback is WorkQueue::SetReady(true): the keys its handlers added during the initial
// delivery were held, and now run in the order they were added.
//
// Threading: loop only (construction and the informers' Start may precede the loop's run).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "base/status.h"
#include "client/client.h"
#include "client/informer.h"

namespace lws::runtime {

// What one informer must deliver before its cache reflects the world as of its Start.
class InitialList {
 public:
  // Lists `resource` in `ns` ("" every namespace) now. Call right after the informer's Start,
  // before the loop delivers anything: the list then counts no object the watch's initial
  // snapshot lacks, except those created in between, which the watch delivers next.
  Status Capture(const client::Client& client, const client::Resource& resource,
                 const std::string& ns);
  // True once `informer` has delivered the captured list; latches (a later relist or deletions
  // cannot make it false again). False before Capture.
  bool Check(const client::Informer& informer);
  bool delivered() const { return delivered_; }
  bool captured() const { return captured_; }
  std::size_t count() const { return count_; }
  std::uint64_t resource_version() const { return rv_; }

 private:
  bool captured_ = false;
  bool delivered_ = false;
  std::size_t count_ = 0;
  std::uint64_t rv_ = 0;
};

// Something that becomes synced once: a started informer whose initial list has arrived.
class SyncSource {
 public:
  virtual ~SyncSource() = default;
  virtual bool synced() const = 0;
  // Runs `callback` once, from the loop task in which synced() turns true, or at once when it is
  // already true.
  virtual void OnSynced(std::function<void()> callback) = 0;
};

class StartGate {
 public:
  // `on_open` runs once every source is synced. Construct the gate before the sources start (a
  // gate built after they all synced opens inside the constructor).
  // REQUIRES: the sources outlive the gate or are stopped first.
  StartGate(std::vector<SyncSource*> sources, std::function<void()> on_open);
  StartGate(const StartGate&) = delete;
  StartGate& operator=(const StartGate&) = delete;

  bool open() const { return open_; }

 private:
  void Check();

  std::vector<SyncSource*> sources_;
  std::function<void()> on_open_;
  bool open_ = false;
  // Source callbacks hold a weak pointer: a gate destroyed first is not called.
  std::shared_ptr<char> alive_;
};

}  // namespace lws::runtime
