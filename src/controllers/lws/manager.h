// File: controllers/lws/manager.h
//
// What upstream's controller manager runs, for one process: the LeaderWorkerSet controller and the
// pod (group) controller, and ours for the opt-in capacity hand-off (capacity_hand_off.h), over
// one shared set of caches and one client with the field manager "lws". `lws up` and the
// simulations give it an in-process client (client/local_client.h) that it owns; `lws controller`
// the REST client of a real (or our local) API server. Which API server is not its business.
//
// A manager that is stopped and replaced by a new one models a controller restart: the new one
// has empty caches and re-reads everything from the API (DESIGN.md 2.3, "controller restarts").
//
// Threading: Start and Stop run on the loop (from a task, or before a virtual loop runs).
#pragma once

#include <memory>

#include "client/client.h"
#include "controllers/group/caches.h"
#include "controllers/group/group_controller.h"
#include "controllers/lws/capacity_hand_off_controller.h"
#include "controllers/lws/lws_controller.h"

namespace lws::controllers {

inline constexpr std::string_view kLwsFieldManager = "lws";

// What the operator adds to a manager: observers of the two work queues (its metrics), and
// reconcile workers. Workers need a thread-safe client (the REST client) and a RealEventLoop;
// 0 runs the controller's reconciles on the loop, one at a time (simulations, `lws up`).
struct LwsManagerOptions {
  runtime::WorkQueueObserver* lws_queue_observer = nullptr;    // not owned
  runtime::WorkQueueObserver* group_queue_observer = nullptr;  // not owned
  std::size_t lws_workers = 0;    // LeaderWorkerSets reconciled at once
  std::size_t group_workers = 0;  // groups (leader pods) reconciled at once
  // In-process, the caches share the stored versions' decoded views with the simulated
  // cluster's controllers (store/decoded_view.h). This makes them decode everything for
  // themselves, as over the REST client: the benchmark sets it to measure what the caches
  // would hold on a real cluster.
  bool decode_privately = false;
  // The events' reportingInstance (upstream: "leaderworkerset-<hostname>"); "" in-process, where
  // `lws up` and the simulator use "leaderworkerset-lws-up" so that a run replays.
  std::string event_instance;
  // gangSchedulingManagement.schedulerProvider: PodGroups for every group (pod_group.h).
  GangProvider gang = GangProvider::kNone;
};

// The events' reportingController: upstream's recorder name (spec 20).
inline constexpr std::string_view kLwsEventController = "leaderworkerset";

class LwsManager {
 public:
  // Owning its client (in-process: a LocalClient with the field manager kLwsFieldManager).
  // REQUIRES: loop outlives the manager.
  LwsManager(EventLoop* loop, std::unique_ptr<const client::Client> client,
             LwsManagerOptions options = {});
  // Over any client (the REST client of `lws controller`); its field manager should be "lws".
  // REQUIRES: loop and client outlive the manager.
  LwsManager(EventLoop* loop, const client::Client* client, LwsManagerOptions options = {});
  ~LwsManager();
  LwsManager(const LwsManager&) = delete;
  LwsManager& operator=(const LwsManager&) = delete;

  Status Start();
  void Stop();

  const Caches& caches() const { return *caches_; }
  std::uint64_t lws_reconciles() const { return lws_->reconciles(); }
  std::uint64_t group_reconciles() const { return group_->reconciles(); }

 private:
  std::unique_ptr<const client::Client> owned_client_;  // set by the owning constructor
  const client::Client* client_;
  client::EventRecorder recorder_;
  std::unique_ptr<Caches> caches_;
  std::unique_ptr<GroupController> group_;
  std::unique_ptr<LwsController> lws_;
  std::unique_ptr<CapacityHandOffController> hand_off_;
  bool started_ = false;
};

}  // namespace lws::controllers
