// File: controllers/disaggregatedset/ds_caches.h
//
// The informers of the DisaggregatedSet controller: the sets themselves, the LeaderWorkerSets
// and role scalers labelled with a set's name (disaggregatedset.x-k8s.io/name), indexed by
// "<namespace>/<set>", and Services labelled likewise. Its own, not the LWS controllers'
// (controllers/group/caches.h): it runs only where the DisaggregatedSet CRD is served.
//
// Threading: the loop's thread only.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "api/core.h"
#include "api/disaggregatedset_types.h"
#include "client/client.h"
#include "client/resource.h"
#include "runtime/start_gate.h"
#include "runtime/typed_informer.h"

namespace lws::disaggregatedset {

using client::kDisaggregatedSets;
using client::kRoleScalers;
inline const std::string kByDsName = "ds-name";

struct DsCaches {
  DsCaches(EventLoop* loop, const client::Client* client);
  DsCaches(const DsCaches&) = delete;
  DsCaches& operator=(const DsCaches&) = delete;

  Status Start(std::function<void()> on_synced);
  void Stop();
  bool synced() const { return gate != nullptr && gate->open(); }

  // Objects labelled with set `name` in `ns`, by name.
  std::vector<const api::LeaderWorkerSet*> Lws(const std::string& ns,
                                               const std::string& name) const;
  std::vector<const api::DisaggregatedSetRoleScaler*> Scalers(const std::string& ns,
                                                              const std::string& name) const;
  std::vector<const api::Service*> Services(const std::string& ns, const std::string& name) const;

  runtime::TypedInformer<api::DisaggregatedSet> sets;
  runtime::TypedInformer<api::LeaderWorkerSet> lws;
  runtime::TypedInformer<api::DisaggregatedSetRoleScaler> scalers;
  runtime::TypedInformer<api::Service> services;
  std::unique_ptr<runtime::StartGate> gate;
};

}  // namespace lws::disaggregatedset
