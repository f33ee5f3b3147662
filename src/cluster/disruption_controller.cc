// The disruption controller's informers and writes (disruption_controller.h).
#include "cluster/disruption_controller.h"

#include "api/disruption_budget.h"
#include "base/log.h"
#include "client/request_bodies.h"
#include "store/object_meta.h"

namespace lws::cluster {
namespace {

using api::ChildOrNull;

// Changes that arrive together (a rollout touches many pods) share one pass.
constexpr Duration kPassDelay = std::chrono::milliseconds(100);

std::int64_t Replicas(const Json& workload) {
  const Json& replicas = ChildOrNull(ChildOrNull(workload, "spec"), "replicas");
  return replicas.is_number_integer() ? replicas.get<std::int64_t>() : 1;  // defaulted to 1
}

// The object of `informer` in `ns` named by `ref`, when its uid matches.
store::ObjectPtr Referenced(const client::Informer& informer, const std::string& ns,
                            const store::OwnerRefView& ref) {
  store::ObjectPtr object = informer.Get(ns, std::string(ref.name));
  if (!object || object->uid() != ref.uid) return nullptr;
  return object;
}

}  // namespace

DisruptionController::DisruptionController(EventLoop* loop, const client::LocalClient* client)
    : loop_(loop), client_(client), recorder_(client, &loop->clock(), "controllermanager") {
  for (const client::Resource* resource :
       {&client::kPodDisruptionBudgets, &client::kPods, &client::kStatefulSets,
        &client::kReplicaSets, &client::kDeployments}) {
    informers_.push_back(std::make_unique<client::Informer>(loop, client, *resource));
    informers_.back()->AddHandler(
        [this](const store::ObjectPtr&, const store::ObjectPtr&) { RequestPass(loop_->Now()); });
  }
  budgets_ = informers_[0].get();
  pods_ = informers_[1].get();
  statefulsets_ = informers_[2].get();
  replicasets_ = informers_[3].get();
  deployments_ = informers_[4].get();
}

DisruptionController::~DisruptionController() { Stop(); }

Status DisruptionController::Start() {
  running_ = true;
  for (auto& informer : informers_) RETURN_IF_ERROR(informer->Start());
  return Status::Ok();
}

void DisruptionController::Stop() {
  running_ = false;
  for (auto& informer : informers_) informer->Stop();
  if (pass_task_) loop_->Cancel(*pass_task_);
  pass_task_.reset();
  pass_at_.reset();
}

void DisruptionController::RequestPass(Time when) {
  if (!running_ || budgets_->objects().empty()) return;  // nothing to keep: no pass
  when = std::max(when, loop_->Now() + kPassDelay);
  if (pass_at_ && *pass_at_ <= when) return;
  if (pass_task_) loop_->Cancel(*pass_task_);
  pass_at_ = when;
  pass_task_ = loop_->At(when, [this] {
    pass_task_.reset();
    pass_at_.reset();
    if (running_) RunPass();
  });
}

void DisruptionController::RunPass() {
  ++passes_;
  std::optional<Time> recheck;
  for (const auto& [key, budget] : budgets_->objects()) SyncBudget(budget, &recheck);
  if (recheck) RequestPass(*recheck);
}

void DisruptionController::SyncBudget(const store::ObjectPtr& budget,
                                      std::optional<Time>* recheck) {
  if (budget->deleting()) return;
  // The budget plan (api/disruption_budget.h) reads the budget's JSON, as the API server's
  // eviction does.
  const Json& json = budget->document();
  std::vector<CoveredPod> covered = CoveredPods(json);
  BudgetStatusPlan plan = PlanBudgetStatus(json, covered, loop_->Now());
  for (const BudgetEvent& event : plan.events) {
    // A pass runs on any pod change in the cluster: each event is told once per budget.
    const std::string said =
        budget->uid() + "/" + event.pod + "/" + event.reason + "/" + event.message;
    if (!recorded_.insert(said).second) continue;
    if (event.pod.empty()) {
      recorder_.Record(*budget, event.type, event.reason, event.message);
    } else if (store::ObjectPtr pod = pods_->Get(budget->name().namespace_, event.pod)) {
      recorder_.Record(*pod, event.type, event.reason, event.message);
    }
  }
  if (plan.recheck && (!*recheck || *plan.recheck < **recheck)) *recheck = plan.recheck;
  if (!plan.changed) return;
  // The cached resourceVersion goes along: an eviction that spent the budget meanwhile makes
  // this write conflict, and the informer's event for it queues the next pass.
  Result<store::ObjectPtr> written = client_->UpdateStatus(
      client::kPodDisruptionBudgets, client::StatusWriteBody(*budget, std::move(plan.status)));
  if (!written.ok() && written.status().code() != Code::kConflict &&
      written.status().code() != Code::kNotFound) {
    Logger(std::string(kDisruptionControllerName))
        ->warn("updating the status of PodDisruptionBudget {}/{}: {}", budget->name().namespace_,
               budget->name().name, written.status().message());
    RequestPass(loop_->Now() + std::chrono::seconds(1));
  }
}

std::vector<CoveredPod> DisruptionController::CoveredPods(const Json& budget) const {
  std::vector<CoveredPod> covered;
  for (const auto& [key, pod] : pods_->objects()) {
    if (!api::BudgetCoversPod(budget, pod->document())) continue;
    CoveredPod entry;
    entry.pod = &pod->document();
    FindController(*pod, &entry);
    covered.push_back(std::move(entry));
  }
  return covered;
}

void DisruptionController::FindController(const store::StoredObject& pod,
                                          CoveredPod* covered) const {
  std::optional<store::OwnerRefView> ref = store::ControllerReference(pod);
  if (!ref) return;  // unmanaged
  covered->controller = CoveredPod::Controller::kNotFound;
  const std::string& ns = pod.name().namespace_;
  if (ref->api_version != "apps/v1") return;
  store::ObjectPtr found;
  if (ref->kind == "StatefulSet") {
    found = Referenced(*statefulsets_, ns, *ref);
  } else if (ref->kind == "ReplicaSet") {
    found = Referenced(*replicasets_, ns, *ref);
    // A Deployment's ReplicaSet: the Deployment's scale counts (getPodDeployment).
    std::optional<store::OwnerRefView> owner =
        found ? store::ControllerReference(*found) : std::nullopt;
    if (owner && owner->kind == "Deployment") {
      found = Referenced(*deployments_, ns, *owner);
    }
  }
  if (!found) return;
  covered->controller = CoveredPod::Controller::kFound;
  covered->controller_uid = found->uid();
  covered->controller_scale = Replicas(found->document());
}

}  // namespace lws::cluster
