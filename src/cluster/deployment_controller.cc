// The Deployment controller's snapshot and writes (deployment_controller.h).
#include "cluster/deployment_controller.h"

#include "base/log.h"
#include "client/request_bodies.h"
#include "cluster/scheduler_json.h"
#include "store/decoded_view.h"

namespace lws::cluster {

namespace {

using Kind = DeploymentActionKind;

auto Log() { return Logger(std::string(kDeploymentControllerName)); }

}  // namespace

DeploymentController::DeploymentController(EventLoop* loop, const client::LocalClient* client)
    : loop_(loop),
      client_(client),
      recorder_(client, &loop->clock(), std::string(kDeploymentControllerName)),
      queue_(loop, client, QueueOptions(),
             [this](const store::ObjectPtr& deployment) { return Sync(deployment); }) {}

OwnerController::Options DeploymentController::QueueOptions() {
  OwnerController::Options options;
  options.name = std::string(kDeploymentControllerName);
  options.owner = client::kDeployments;
  options.controlled.push_back({client::kReplicaSets, "Deployment", nullptr});
  options.controlled.push_back({client::kPods, "ReplicaSet", [this](const store::ObjectName& set) {
                                  return RecreateOwnerOf(set);
                                }});
  return options;
}

std::optional<store::ObjectName> DeploymentController::RecreateOwnerOf(
    const store::ObjectName& set_key) const {
  store::ObjectPtr set = queue_.controlled(kSets).Get(set_key.namespace_, set_key.name);
  if (!set) return std::nullopt;
  std::optional<ControllerOf> owner = ControllingOwner(*set, "Deployment");
  if (!owner) return std::nullopt;
  store::ObjectPtr deployment = queue_.owners().Get(owner->owner.namespace_, owner->owner.name);
  if (!deployment) return std::nullopt;
  // Asked on every event of a ReplicaSet's pod: read in place, as a decoded view of the
  // Deployment is often gone by then and would be decoded again.
  const api::Json& strategy =
      api::ChildOrNull(api::ChildOrNull(deployment->document(), "spec"), "strategy");
  const api::Json& type = api::ChildOrNull(strategy, "type");
  if (!type.is_string() || type.get_ref<const std::string&>() != api::kRecreateDeployment) {
    return std::nullopt;
  }
  return owner->owner;
}

std::optional<Duration> DeploymentController::Sync(const store::ObjectPtr& object) {
  Result<std::shared_ptr<const api::Deployment>> deployment =
      store::DecodedView<api::Deployment>(*object);
  if (!deployment.ok()) {
    Log()->warn("{}: cannot decode: {}", object->name().name, deployment.status().message());
    return std::nullopt;
  }
  DeploymentSnapshot snap;
  snap.deployment = **deployment;
  snap.now = loop_->Now();
  const store::ObjectName key{snap.deployment.metadata.namespace_, snap.deployment.metadata.name};
  for (const store::ObjectPtr& set : queue_.Owned(kSets, key, snap.deployment.metadata.uid)) {
    Result<std::shared_ptr<const api::ReplicaSet>> view = store::DecodedView<api::ReplicaSet>(*set);
    if (!view.ok()) continue;
    snap.replica_sets.push_back(**view);
    // Only Recreate waits for old pods to stop; a rolling update reads the sets alone.
    if (snap.deployment.spec.strategy.type != api::kRecreateDeployment) continue;
    const api::ReplicaSet& decoded = snap.replica_sets.back();
    const store::ObjectName set_key{key.namespace_, decoded.metadata.name};
    for (const store::ObjectPtr& pod : queue_.Owned(kPods, set_key, decoded.metadata.uid)) {
      if (!scheduler_json::IsTerminal(pod->document())) {
        snap.sets_with_running_pods.insert(decoded.metadata.uid);
        break;
      }
    }
  }
  Result<DeploymentPlan> plan = PlanDeployment(snap);
  if (!plan.ok()) {
    Log()->warn("{}/{}: cannot plan: {}", key.namespace_, key.name, plan.status().message());
    return std::nullopt;
  }
  return Apply(object, *plan);
}

std::optional<Duration> DeploymentController::Apply(const store::ObjectPtr& object,
                                                    const DeploymentPlan& plan) {
  const store::ObjectName& key = object->name();
  std::optional<Duration> requeue;
  for (const DeploymentAction& action : plan.actions) {
    Result<store::ObjectPtr> answer{store::ObjectPtr()};
    std::size_t informer = kSets;
    switch (action.kind) {
      case Kind::kCreateReplicaSet:
        answer = client_->Create(client::kReplicaSets, api::Encode(*action.replica_set));
        break;
      case Kind::kUpdateReplicaSet:
        answer = client_->Update(client::kReplicaSets, api::Encode(*action.replica_set));
        break;
      case Kind::kDeleteReplicaSet: {
        client::DeleteOptions options;
        options.precondition_uid = action.uid;
        answer = client_->Delete(client::kReplicaSets, key.namespace_, action.name, options);
        if (!answer.ok() && answer.status().code() == Code::kNotFound) continue;
        break;
      }
      case Kind::kUpdateStatus: {
        // The revision annotation rides along: status writes of apps kinds keep the body's.
        api::Json body = object->document();
        body["metadata"]["annotations"] = plan.annotations;
        if (plan.annotations.empty()) body["metadata"].erase("annotations");
        answer = client_->UpdateStatus(client::kDeployments,
                                       client::StatusWriteBody(body, api::Encode(plan.status)));
        informer = OwnerController::kOwnerInformer;
        break;
      }
      case Kind::kRequeueAfter:
        requeue = action.requeue_after;
        continue;
    }
    if (action.kind == Kind::kCreateReplicaSet && answer.status().code() == Code::kAlreadyExists) {
      CountCollision(object, plan, action.name);
    }
    if (!answer.ok()) {
      // A Conflict is the ReplicaSet controller's write racing ours, retried at once: routine,
      // as upstream's V(2) "Error syncing deployment" is.
      const auto level =
          answer.status().code() == Code::kConflict ? spdlog::level::debug : spdlog::level::info;
      Log()->log(level, "{}/{}: {} {}: {}", key.namespace_, key.name,
                 action.kind == Kind::kUpdateStatus ? "status of" : "replica set", action.name,
                 answer.status().message());
      return queue_.Failed(key, answer.status());
    }
    if (action.event) {
      recorder_.Record(*object, action.event->type, action.event->reason, action.event->message);
    }
    queue_.Expect(key, informer, **answer);
  }
  queue_.Succeeded(key);
  return requeue;
}

// A set of the new set's name that this Deployment does not control: the hash collides, and
// the next sync hashes with collisionCount + 1 (upstream getNewReplicaSet). Ours but not yet
// in the cache is only a race.
void DeploymentController::CountCollision(const store::ObjectPtr& object,
                                          const DeploymentPlan& plan, const std::string& set_name) {
  const store::ObjectName key = object->name();
  Result<store::ObjectPtr> existing = client_->Get(client::kReplicaSets, key.namespace_, set_name);
  if (!existing.ok()) return;
  std::optional<ControllerOf> owner = ControllingOwner(**existing, "Deployment");
  if (owner && owner->uid == object->uid()) return;
  api::DeploymentStatus status = plan.status;
  status.collision_count = status.collision_count.value_or(0) + 1;
  Log()->info("{}/{}: replica set {} exists and is not ours; collisionCount {}", key.namespace_,
              key.name, set_name, *status.collision_count);
  (void)client_->UpdateStatus(client::kDeployments,
                              client::StatusWriteBody(*object, api::Encode(status)));
}

}  // namespace lws::cluster
