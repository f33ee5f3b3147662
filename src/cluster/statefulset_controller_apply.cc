// The writes of one StatefulSet plan (statefulset_controller.h), with the Events upstream's
// StatefulPodControl records on the set (stateful_pod_control.go: recordPodEvent and
// recordClaimEvent wording).
#include <fmt/format.h>

#include <algorithm>

#include "client/request_bodies.h"
#include "cluster/statefulset_controller.h"
#include "store/object.h"

namespace lws::cluster {

namespace {

using api::Json;
using Kind = StatefulSetActionKind;

std::optional<Duration> Earliest(std::optional<Duration> a, std::optional<Duration> b) {
  if (!a) return b;
  if (!b) return a;
  return std::min(*a, *b);
}

// "create Pod web-0 in StatefulSet web successful" / "... failed error: <message>".
std::string PodEventMessage(const std::string& verb, const std::string& pod, const std::string& set,
                            const Status& status) {
  if (status.ok()) return fmt::format("{} Pod {} in StatefulSet {} successful", verb, pod, set);
  return fmt::format("{} Pod {} in StatefulSet {} failed error: {}", verb, pod, set,
                     status.message());
}

// "SuccessfulCreate" / "FailedDelete", ...: upstream's "Successful"/"Failed" + Title(verb).
std::string EventReason(const std::string& verb, const Status& status) {
  std::string title = verb;
  if (!title.empty()) title[0] = static_cast<char>(title[0] - 'a' + 'A');
  return (status.ok() ? "Successful" : "Failed") + title;
}

// The pod a PVC action is made for: the next pod creation in the plan.
std::string PodOfClaim(const StatefulSetPlan& plan, std::size_t index) {
  for (std::size_t i = index + 1; i < plan.actions.size(); ++i) {
    if (plan.actions[i].kind == Kind::kCreatePod) return plan.actions[i].name;
  }
  return "";
}

}  // namespace

std::optional<Duration> StatefulSetController::Apply(const store::ObjectPtr& set_object,
                                                     const api::StatefulSet& set,
                                                     const StatefulSetPlan& plan) {
  std::optional<Duration> retry;
  for (std::size_t i = 0; i < plan.actions.size(); ++i) {
    const StatefulSetAction& action = plan.actions[i];
    if (action.kind == Kind::kRequeueAfter) {
      retry = Earliest(retry, action.requeue_after);
      continue;
    }
    Outcome outcome = ApplyOne(set_object, set, plan, i);
    if (outcome.stop) return Earliest(retry, outcome.retry);
  }
  queue_.Succeeded(set_object->name());
  return retry;
}

StatefulSetController::Outcome StatefulSetController::ApplyOne(const store::ObjectPtr& set_object,
                                                               const api::StatefulSet& set,
                                                               const StatefulSetPlan& plan,
                                                               std::size_t index) {
  const StatefulSetAction& action = plan.actions[index];
  const std::string& set_name = set.metadata.name;
  const store::ObjectName key = set_object->name();
  // Records the pod event upstream records for `verb` and turns the answer into an outcome.
  auto pod_write = [&](const std::string& verb, const Result<store::ObjectPtr>& answer) -> Outcome {
    Status status = answer.ok() ? Status::Ok() : answer.status();
    // Upstream sinks AlreadyExists on create without an event: the pod is someone's already.
    if (!(verb == "create" && status.code() == Code::kAlreadyExists)) {
      recorder_.Record(*set_object, status.ok() ? "Normal" : "Warning", EventReason(verb, status),
                       PodEventMessage(verb, action.name, set_name, status));
    }
    if (!answer.ok()) return Failed(key, status);
    queue_.Expect(key, kPods, **answer);
    return {};
  };

  switch (action.kind) {
    case Kind::kCreateRevision: {
      Result<store::ObjectPtr> answer =
          client_->Create(client::kControllerRevisions, api::Encode(*action.revision));
      if (!answer.ok()) return Failed(key, answer.status());
      queue_.Expect(key, kRevisions, **answer);
      return {};
    }
    case Kind::kCreatePvc:
      return CreatePvc(*set_object, action, PodOfClaim(plan, index));
    case Kind::kCreatePod:
      return pod_write("create", client_->Create(client::kPods, api::Encode(*action.pod)));
    case Kind::kDeletePod: {
      client::DeleteOptions options;
      options.precondition_uid = action.uid;
      return pod_write(
          "delete", client_->Delete(client::kPods, set.metadata.namespace_, action.name, options));
    }
    case Kind::kUpdatePod:
      return pod_write("update", client_->Update(client::kPods, api::Encode(*action.pod)));
    case Kind::kUpdateStatus: {
      // The cached resourceVersion goes along, so a stale set conflicts.
      Result<store::ObjectPtr> answer = client_->UpdateStatus(
          client::kStatefulSets, client::StatusWriteBody(*set_object, api::Encode(plan.status)));
      if (!answer.ok()) return Failed(key, answer.status());
      queue_.Expect(key, OwnerController::kOwnerInformer, **answer);
      return {};
    }
    case Kind::kRequeueAfter:
      break;  // handled by Apply
  }
  return {};
}

// Upstream createPersistentVolumeClaims: an existing claim is fine (no event); any other failure
// fails the pod's creation too.
StatefulSetController::Outcome StatefulSetController::CreatePvc(const store::StoredObject& set,
                                                                const StatefulSetAction& action,
                                                                const std::string& pod_name) {
  const std::string& set_name = set.name().name;
  Result<store::ObjectPtr> answer =
      client_->Create(client::kPersistentVolumeClaims, api::Encode(*action.pvc));
  if (answer.ok()) {
    recorder_.Record(set, "Normal", "SuccessfulCreate",
                     fmt::format("create Claim {} Pod {} in StatefulSet {} success", action.name,
                                 pod_name, set_name));
    return {};
  }
  if (answer.status().code() == Code::kAlreadyExists) return {};
  const std::string& message = answer.status().message();
  recorder_.Record(set, "Warning", "FailedCreate",
                   fmt::format("create Claim {} for Pod {} in StatefulSet {} failed error: {}",
                               action.name, pod_name, set_name, message));
  Status pod_error(answer.status().code(),
                   fmt::format("failed to create PVC {}: {}", action.name, message));
  recorder_.Record(set, "Warning", "FailedCreate",
                   PodEventMessage("create", pod_name, set_name, pod_error));
  return Failed(set.name(), answer.status());
}

StatefulSetController::Outcome StatefulSetController::Failed(const SetKey& key,
                                                             const Status& status) {
  return {.stop = true, .retry = queue_.Failed(key, status)};
}

}  // namespace lws::cluster
