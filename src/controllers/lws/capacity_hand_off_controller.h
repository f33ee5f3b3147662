// File: controllers/lws/capacity_hand_off_controller.h
//
// The I/O half of the capacity hand-off (capacity_hand_off.h): keyed by pod name, it reads the
// LWS pod of that name, its placeholder and the LWS from the shared caches, plans, and creates or
// deletes the placeholder, with an event on the LWS for each:
//   Normal CapacityHeld      "Holding node N for the replacement of pod P until T"
//   Normal CapacityReleased  "Released the hold of pod P-hand-off: <why>"
// Triggers: a pod of an LWS that asks for the hand-off (its name, its last state kept when it is
// deleted, and every placeholder of that LWS, since a hold may go to any of its pods), a
// placeholder (the name it holds for), and an LWS whose hand-off annotation went away (its
// placeholders). A kept hold is looked at again at its deadline.
//
// A second create after a stale cache answers AlreadyExists and a second delete NotFound: both
// are the state wanted, so no expectations are kept.
//
// Threading: handlers on the loop; reconciles on the loop or on the queue's workers.
#pragma once

#include <cstdint>
#include <map>
#include <optional>

#include "base/mutex.h"
#include "client/client.h"
#include "client/event_recorder.h"
#include "controllers/group/caches.h"
#include "controllers/lws/capacity_hand_off.h"
#include "runtime/work_queue.h"

namespace lws::controllers {

class CapacityHandOffController {
 public:
  // REQUIRES: every argument outlives the controller. `client` should use the field manager
  // "lws"; `recorder` is the one the other LWS controllers record with.
  CapacityHandOffController(EventLoop* loop, const client::Client* client, Caches* caches,
                            client::EventRecorder* recorder, runtime::WorkQueueOptions queue = {});
  CapacityHandOffController(const CapacityHandOffController&) = delete;
  CapacityHandOffController& operator=(const CapacityHandOffController&) = delete;

  // Registers the handlers; call before caches->Start. The queue runs once the caches synced.
  void Register();
  void SetReady() { queue_.SetReady(true); }
  void Stop() { queue_.Stop(); }

  std::uint64_t reconciles() const { return queue_.runs(); }

 private:
  runtime::ReconcileResult Reconcile(const runtime::Key& key);
  Status Create(const api::LeaderWorkerSet& lws, const api::Pod& pod, Time until);
  Status Release(const api::LeaderWorkerSet* lws, const api::Pod& placeholder,
                 const std::string& reason);
  void OnLws(const api::LeaderWorkerSet* old, const api::LeaderWorkerSet* now);
  // The last state of pod `key` deleted since its last reconcile, if any; taken once.
  std::optional<api::Pod> TakeDeparted(const runtime::Key& key);

  EventLoop* loop_;
  const client::Client* client_;
  Caches* caches_;
  client::EventRecorder* recorder_;
  runtime::WorkQueue queue_;
  // Pods of LWSs that ask for the hand-off, deleted from a node: a deletion without a grace
  // period leaves no terminating state in the cache to plan from.
  Mutex mu_;
  std::map<runtime::Key, api::Pod> departed_ GUARDED_BY(mu_);
};

}  // namespace lws::controllers
