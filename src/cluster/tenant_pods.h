// File: cluster/tenant_pods.h
//
// Other workloads of the cluster (ClusterSpec::other_tenants), so that capacity an LWS lets go
// of can really be lost, as on a shared GPU cluster where other teams' pods wait in the same
// queue:
//   - takeFreed: when a pod that held the resource leaves its node, with the given probability
//     and delay another tenant's pod asks for the same amount on that node (nodeSelector
//     kubernetes.io/hostname). Created before the StatefulSet controller replaces the pod that
//     left, it is ahead of the replacement in the scheduler's queue. A request still pending
//     `patience` later is withdrawn; a placed one is held for `for` (0: to the end). A capacity
//     hand-off placeholder (api::kHandOffOfLabel) that leaves draws nothing: its capacity drew
//     when the pod it held for left.
//   - arrivals: at a time, pods asking for the given resources, anywhere or in one pool, held for
//     `for` after they arrive (0: to the end); pending ones wait in the queue like any pod.
// Tenant pods live in namespace default, named tenant-<n>, labelled sim.lws-cpp.dev/tenant, and
// tolerate every taint (they are meant for the pools' accelerators). The model is a choice,
// documented in docs/simulate.md; the random draws come from the cluster's seed.
//
// Threading: the loop only.
#pragma once

#include <memory>

#include "base/event_loop.h"
#include "base/rng.h"
#include "client/local/local_client.h"
#include "cluster/cluster_spec.h"

namespace lws::cluster {

inline constexpr const char* kTenantLabel = "sim.lws-cpp.dev/tenant";

class TenantPods {
 public:
  // REQUIRES: loop, client and spec outlive the component.
  TenantPods(EventLoop* loop, const client::LocalClient* client, const ClusterSpec* spec, Rng rng);
  Status Start();
  void Stop();

  std::uint64_t pods_created() const { return created_; }

 private:
  void OnPod(const store::WatchEvent& event);
  // Creates a tenant pod asking for `requests`, pinned to `node` or to `pool` when given.
  std::string CreatePod(const std::map<std::string, std::string>& requests, const std::string& node,
                        const std::string& pool);
  // Deletes tenant pod `name` at `when`; with `only_pending`, only if it is not placed by then.
  void DeleteLater(Duration after, const std::string& name, bool only_pending);

  EventLoop* loop_;
  const client::LocalClient* client_;
  const ClusterSpec* spec_;
  Rng rng_;
  std::unique_ptr<client::Subscription> watch_;
  std::vector<TaskId> tasks_;
  std::uint64_t created_ = 0;
  bool running_ = false;
};

}  // namespace lws::cluster
