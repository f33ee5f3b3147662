// File: controllers/disaggregatedset/ds_manager.h
//
// The DisaggregatedSet controller for one process: its caches (ds_caches.h), its reconciler
// (ds_controller.h) and an events.k8s.io recorder. `lws up` and the simulations run it over an
// in-process client, `lws controller` over the REST client, next to the LWS manager
// (controllers/lws/manager.h). It needs the DisaggregatedSet CRDs served: without them its
// caches never sync (the caller checks first).
//
// Threading: Start and Stop run on the loop.
#pragma once

#include <memory>

#include "client/client.h"
#include "client/event_recorder.h"
#include "controllers/disaggregatedset/ds_caches.h"
#include "controllers/disaggregatedset/ds_controller.h"

namespace lws::disaggregatedset {

// The events' reportingController (upstream's controller name).
inline constexpr std::string_view kDsEventController = "disaggregatedset";

class DsManager {
 public:
  // Owning its client. REQUIRES: loop outlives the manager.
  DsManager(EventLoop* loop, std::unique_ptr<const client::Client> client,
            std::string event_instance = "");
  // REQUIRES: loop and client outlive the manager.
  DsManager(EventLoop* loop, const client::Client* client, std::string event_instance = "");
  ~DsManager();
  DsManager(const DsManager&) = delete;
  DsManager& operator=(const DsManager&) = delete;

  Status Start();
  void Stop();

  const DsCaches& caches() const { return *caches_; }
  std::uint64_t reconciles() const { return controller_->reconciles(); }

 private:
  std::unique_ptr<const client::Client> owned_client_;
  const client::Client* client_;
  client::EventRecorder recorder_;
  std::unique_ptr<DsCaches> caches_;
  std::unique_ptr<DsController> controller_;
  bool started_ = false;
};

}  // namespace lws::disaggregatedset
