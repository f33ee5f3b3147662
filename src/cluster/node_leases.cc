// The kubelets' node Leases (node_leases.h).
#include "cluster/node_leases.h"

#include "base/log.h"

namespace lws::cluster {
namespace {

bool NodeReady(const store::ObjectPtr& node) {
  if (!node) return false;
  const api::Json& conditions = node->document()["status"].value("conditions", api::Json::array());
  for (const api::Json& c : conditions) {
    if (c.value("type", "") == "Ready") return c.value("status", "") == "True";
  }
  return false;
}

}  // namespace

api::Json NodeLease(const api::Json& node, Time now) {
  const api::Json& meta = node["metadata"];
  const std::string name = meta.value("name", "");
  return {{"apiVersion", "coordination.k8s.io/v1"},
          {"kind", "Lease"},
          {"metadata",
           {{"name", name},
            {"namespace", kNodeLeaseNamespace},
            {"ownerReferences",
             {{{"apiVersion", "v1"},
               {"kind", "Node"},
               {"name", name},
               {"uid", meta.value("uid", "")}}}}}},
          {"spec",
           {{"holderIdentity", name},
            {"leaseDurationSeconds", kNodeLeaseDurationSeconds},
            {"renewTime", FormatRfc3339Micro(now)}}}};
}

NodeLeases::NodeLeases(EventLoop* loop, const client::LocalClient* client)
    : loop_(loop), client_(client), nodes_(loop, client, client::kNodes) {
  nodes_.AddHandler(
      [this](const store::ObjectPtr& old, const store::ObjectPtr& now) { OnNode(old, now); });
}

NodeLeases::~NodeLeases() { Stop(); }

Status NodeLeases::Start() {
  running_ = true;
  return nodes_.Start();
}

void NodeLeases::Stop() {
  running_ = false;
  nodes_.Stop();
  for (const auto& [node, timer] : timers_) loop_->Cancel(timer);
  timers_.clear();
}

void NodeLeases::OnNode(const store::ObjectPtr&, const store::ObjectPtr& now) {
  if (!now) return;  // its Lease goes with it (owner reference)
  const std::string& name = now->name().name;
  const bool renewing = timers_.count(name) > 0;
  if (NodeReady(now) && !renewing) ScheduleRenewal(name, Duration::zero());
  // A node that stopped being Ready keeps its last renewal: the timer finds it not Ready.
}

void NodeLeases::ScheduleRenewal(const std::string& node, Duration after) {
  timers_[node] = loop_->After(after, [this, node] {
    timers_.erase(node);
    if (running_) Renew(node);
  });
}

void NodeLeases::Renew(const std::string& node_name) {
  store::ObjectPtr node = nodes_.Get("", node_name);
  if (!NodeReady(node)) return;  // the kubelet stopped: no heartbeat
  api::Json lease = NodeLease(node->document(), loop_->Now());
  Result<store::ObjectPtr> current = client_->Get(client::kLeases, kNodeLeaseNamespace, node_name);
  Result<store::ObjectPtr> written = [&] {
    if (!current.ok()) return client_->Create(client::kLeases, std::move(lease));
    api::Json renewed = (*current)->document();
    renewed["spec"] = lease["spec"];
    return client_->Update(client::kLeases, std::move(renewed));
  }();
  if (written.ok()) {
    ++renewals_;
  } else if (written.status().code() != Code::kConflict &&
             written.status().code() != Code::kAlreadyExists) {
    Logger("kubelet")->warn("node {}: renewing its Lease: {}", node_name,
                            written.status().message());
  }
  ScheduleRenewal(node_name, kNodeLeaseRenewInterval);
}

}  // namespace lws::cluster
