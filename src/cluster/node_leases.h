// File: cluster/node_leases.h
//
// The kubelets' node heartbeats: each Ready node holds a coordination.k8s.io/v1 Lease in
// namespace kube-node-lease, named after the node, owned by the Node (so it goes with it), with
// holderIdentity the node, leaseDurationSeconds 40 and renewTime renewed every 10 s (the
// kubelet's nodeLeaseDurationSeconds and its renew interval fraction 0.25). `kubectl describe
// node` reads it ("Lease: HolderIdentity ... RenewTime ..."); a node whose kubelet stopped
// (Ready not True, see kubelet.h SetNodeReady) stops renewing, as a dead machine does.
//
// `lws up` runs it; simulations leave it off (LocalClusterOptions::node_leases): a write per
// node every 10 s of virtual time changes nothing a rollout decides.
//
// Threading: everything runs on the loop given to the constructor.
#pragma once

#include <map>
#include <optional>
#include <string>

#include "client/informer.h"
#include "client/local/local_client.h"

namespace lws::cluster {

inline constexpr const char* kNodeLeaseNamespace = "kube-node-lease";
inline constexpr int kNodeLeaseDurationSeconds = 40;
inline constexpr Duration kNodeLeaseRenewInterval = std::chrono::seconds(10);

// The Lease `node` holds at `now` (a create body; a renewal keeps metadata and replaces spec).
api::Json NodeLease(const api::Json& node, Time now);

class NodeLeases {
 public:
  // `client` should use the field manager "kubelet". REQUIRES: loop and client outlive this.
  NodeLeases(EventLoop* loop, const client::LocalClient* client);
  ~NodeLeases();

  Status Start();
  void Stop();
  std::uint64_t renewals() const { return renewals_; }

 private:
  void OnNode(const store::ObjectPtr& old, const store::ObjectPtr& now);
  void Renew(const std::string& node);
  void ScheduleRenewal(const std::string& node, Duration after);

  EventLoop* const loop_;
  const client::LocalClient* const client_;
  client::Informer nodes_;
  std::map<std::string, TaskId> timers_;  // the next renewal of each Ready node
  bool running_ = false;
  std::uint64_t renewals_ = 0;
};

}  // namespace lws::cluster
