// The DaemonSet controller's snapshot and writes (daemonset_controller.h).
#include "cluster/daemonset_controller.h"

#include "api/field.h"
#include "base/log.h"
#include "store/decoded_view.h"

namespace lws::cluster {

namespace {

using Kind = DaemonSetActionKind;

OwnerController::Options QueueOptions() {
  OwnerController::Options options;
  options.name = std::string(kDaemonSetControllerName);
  options.owner = client::kDaemonSets;
  options.controlled.push_back({client::kPods, "DaemonSet", nullptr});
  return options;
}

// What decides where daemon pods run: the node's labels and spec (taints, unschedulable).
bool PlacementChanged(const store::ObjectPtr& old, const store::ObjectPtr& now) {
  if (!old || !now) return true;
  const api::Json& a = old->document();
  const api::Json& b = now->document();
  return api::ChildOrNull(a, "spec") != api::ChildOrNull(b, "spec") ||
         api::ChildOrNull(api::ChildOrNull(a, "metadata"), "labels") !=
             api::ChildOrNull(api::ChildOrNull(b, "metadata"), "labels");
}

}  // namespace

DaemonSetController::DaemonSetController(EventLoop* loop, const client::LocalClient* client)
    : loop_(loop),
      client_(client),
      recorder_(client, &loop->clock(), std::string(kDaemonSetControllerName)),
      queue_(loop, client, QueueOptions(),
             [this](const store::ObjectPtr& set) { return Sync(set); }),
      writes_(client, &recorder_, &queue_, kPods, client::kDaemonSets) {}

Status DaemonSetController::Start() {
  nodes_ = std::make_unique<client::Informer>(loop_, client_, client::kNodes);
  nodes_->AddHandler(
      [this](const store::ObjectPtr& old, const store::ObjectPtr& now) { OnNode(old, now); });
  RETURN_IF_ERROR(nodes_->Start());
  return queue_.Start();
}

void DaemonSetController::Stop() {
  queue_.Stop();
  if (nodes_) nodes_->Stop();
}

void DaemonSetController::OnNode(const store::ObjectPtr& old, const store::ObjectPtr& now) {
  if (!PlacementChanged(old, now)) return;
  for (const auto& [key, set] : queue_.owners().objects()) queue_.Enqueue(key);
}

std::optional<Duration> DaemonSetController::Sync(const store::ObjectPtr& set_object) {
  Result<std::shared_ptr<const api::DaemonSet>> set =
      store::DecodedView<api::DaemonSet>(*set_object);
  if (!set.ok()) {
    Logger(std::string(kDaemonSetControllerName))
        ->warn("{}: cannot decode: {}", set_object->name().name, set.status().message());
    return std::nullopt;
  }
  DaemonSetSnapshot snap;
  snap.set = **set;
  snap.now = loop_->Now();
  const store::ObjectName key{snap.set.metadata.namespace_, snap.set.metadata.name};
  const std::string reader(kDaemonSetControllerName);
  snap.pods =
      store::DecodedViews<api::Pod>(queue_.Owned(kPods, key, snap.set.metadata.uid), reader);
  std::vector<store::ObjectPtr> nodes;
  for (const auto& [name, node] : nodes_->objects()) nodes.push_back(node);
  snap.nodes = store::DecodedViews<api::Node>(nodes, reader);
  return Apply(set_object, PlanDaemonSet(snap));
}

std::optional<Duration> DaemonSetController::Apply(const store::ObjectPtr& set_object,
                                                   const DaemonSetPlan& plan) {
  const store::StoredObject& set = *set_object;
  const store::ObjectName& key = set.name();
  std::optional<Duration> requeue;
  for (const DaemonSetAction& action : plan.actions) {
    Status status = Status::Ok();
    switch (action.kind) {
      case Kind::kCreatePod:
        status = writes_.Create(set, *action.pod);
        break;
      case Kind::kDeletePod:
        status = writes_.Delete(set, action.name, action.uid);
        break;
      case Kind::kUpdateStatus:
        status = writes_.WriteStatus(set, api::Encode(plan.status));
        break;
      case Kind::kRequeueAfter:
        requeue = action.requeue_after;
        break;
    }
    if (!status.ok()) return queue_.Failed(key, status);
  }
  queue_.Succeeded(key);
  return requeue;
}

}  // namespace lws::cluster
