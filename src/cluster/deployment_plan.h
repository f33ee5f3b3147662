// File: cluster/deployment_plan.h
//
// The decisions of kube-controller-manager's Deployment controller (upstream
// pkg/controller/deployment: sync.go, rolling.go, recreate.go, progress.go and
// util/deployment_util.go) as one pure function: a Deployment, the ReplicaSets it controls,
// which of them still run pods, and the time in; the writes of one sync and the status out
// (DESIGN.md 2.1). The ReplicaSet controller (replicaset_plan.h) turns the sets' sizes into pods.
//
// One sync, as upstream's syncDeployment:
//   1. The *new* ReplicaSet is the oldest whose template equals the Deployment's ignoring the
//      pod-template-hash label; the others are *old*. A new set is created as "<name>-<hash>"
//      (labels and selector gain pod-template-hash) only when the rollout proceeds (not paused,
//      not a scaling event); its revision annotation is the old ones' highest + 1, and the
//      Deployment's annotations (but kubectl's and the deployment.kubernetes.io ones) are
//      copied to it. A set of that name with another template is a hash collision:
//      status.collisionCount goes up and the next sync hashes again.
//   2. Paused, or a *scaling event* (an active set's desired-replicas annotation differs from
//      spec.replicas): sets are resized in proportion to their sizes (upstream scale()); a
//      paused Deployment's history is cleaned up; the status is written without progress.
//   3. RollingUpdate: the new set grows up to replicas + maxSurge in total; then old sets shrink,
//      unhealthy pods first (cleanupUnhealthyReplicas), never below replicas - maxUnavailable
//      available pods (maxSurge rounds up, maxUnavailable down; both 0 means maxUnavailable 1).
//      One of the two steps per sync, as upstream returns after either scales.
//   4. Recreate: old sets go to 0; once none of their pods run, the new set is created at full
//      size.
//   5. A complete rollout deletes old sets beyond revisionHistoryLimit, lowest revision first,
//      only those with no replicas.
//   6. Status: sums over the sets; Available (MinimumReplicasAvailable/Unavailable); with
//      progressDeadlineSeconds, Progressing (NewReplicaSetCreated, FoundNewReplicaSet,
//      ReplicaSetUpdated, NewReplicaSetAvailable, ProgressDeadlineExceeded, DeploymentPaused,
//      DeploymentResumed) with upstream's messages; the new set's ReplicaFailure is copied.
//      An unchanged status asks to be planned again when the progress deadline would pass.
//
// Hash: ours, not upstream's controller.ComputeHash (FNV-32a over Go's deep printer of the
// template): api::RevisionHash over the Go-style JSON of the template and the collision count.
// Stable across runs, and it changes whenever the template does.
//
// Left out (upstream has it): adopting orphaned ReplicaSets and releasing ones that stop matching
// the selector; the deprecated rollback annotation (kubectl rollout undo patches the template
// itself, which is handled); the alpha podReplacementPolicy and terminatingReplicas.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "api/apps_workloads.h"
#include "base/clock.h"
#include "base/result.h"

namespace lws::cluster {

inline constexpr std::string_view kPodTemplateHashLabel = "pod-template-hash";
inline constexpr std::string_view kRevisionAnnotation = "deployment.kubernetes.io/revision";
inline constexpr std::string_view kRevisionHistoryAnnotation =
    "deployment.kubernetes.io/revision-history";
inline constexpr std::string_view kDesiredReplicasAnnotation =
    "deployment.kubernetes.io/desired-replicas";
inline constexpr std::string_view kMaxReplicasAnnotation = "deployment.kubernetes.io/max-replicas";

struct DeploymentSnapshot {
  api::Deployment deployment;
  std::vector<api::ReplicaSet> replica_sets;  // the sets it controls, any order
  // The uids of the sets that still have a pod neither Succeeded nor Failed (Recreate waits).
  std::set<std::string> sets_with_running_pods;
  Time now;
};

enum class DeploymentActionKind {
  kCreateReplicaSet,  // create `replica_set`
  kUpdateReplicaSet,  // update `replica_set` (size, annotations, minReadySeconds)
  kDeleteReplicaSet,  // delete set `name` with precondition `uid` (history cleanup)
  kUpdateStatus,      // write the plan's status and annotations to the Deployment
  kRequeueAfter,      // plan again after `requeue_after`
};

// An Event on the Deployment, recorded once its write succeeded.
struct DeploymentEvent {
  std::string type;  // Normal, Warning
  std::string reason;
  std::string message;
};

struct DeploymentAction {
  DeploymentActionKind kind = DeploymentActionKind::kUpdateReplicaSet;
  std::string name;
  std::string uid;
  std::optional<api::ReplicaSet> replica_set;
  std::optional<DeploymentEvent> event;
  Duration requeue_after{0};
};

struct DeploymentPlan {
  std::vector<DeploymentAction> actions;
  api::DeploymentStatus status;
  api::StringMap annotations;  // the Deployment's, with its revision
};

// The writes of one sync over `snapshot` (rules above). Fails only when maxSurge or
// maxUnavailable is not an int or a percentage.
Result<DeploymentPlan> PlanDeployment(const DeploymentSnapshot& snapshot);

// ---- Pieces of deployment_util.go, exposed for their table tests ---------------------------

struct Fenceposts {
  std::int32_t surge = 0;
  std::int32_t unavailable = 0;
};
// ResolveFenceposts: maxSurge rounded up, maxUnavailable down, of `desired`; both 0 gives
// unavailable 1. Unset values count as 0.
Result<Fenceposts> ResolveFenceposts(const std::optional<api::IntOrString>& max_surge,
                                     const std::optional<api::IntOrString>& max_unavailable,
                                     std::int32_t desired);
// MaxSurge, MaxUnavailable (at most replicas) of a Deployment; 0 unless RollingUpdate.
Result<std::int32_t> MaxSurge(const api::Deployment& deployment);
Result<std::int32_t> MaxUnavailable(const api::Deployment& deployment);
// NewRSNewReplicas: the size the new set may grow to now.
Result<std::int32_t> NewRSNewReplicas(const api::Deployment& deployment,
                                      const std::vector<const api::ReplicaSet*>& all,
                                      const api::ReplicaSet& new_set);
// getReplicaSetFraction: how much `set` grows or shrinks in a proportional scale.
std::int32_t ReplicaSetFraction(const api::ReplicaSet& set, const api::Deployment& deployment,
                                std::int32_t max_surge);
// DeploymentComplete, DeploymentProgressing and DeploymentTimedOut of progress.go.
bool DeploymentComplete(const api::Deployment& deployment, const api::DeploymentStatus& status);
bool DeploymentProgressing(const api::Deployment& deployment, const api::DeploymentStatus& status);
bool DeploymentTimedOut(const api::Deployment& deployment, const api::DeploymentStatus& status,
                        Time now);
// EqualIgnoreHash: the templates are equal but for the pod-template-hash label.
bool EqualIgnoreHash(const api::PodTemplateSpec& a, const api::PodTemplateSpec& b);
// The pod-template-hash of `tmpl` for `collision_count`.
std::string PodTemplateHash(const api::PodTemplateSpec& tmpl,
                            std::optional<std::int32_t> collision_count);

}  // namespace lws::cluster
