// File: cluster/statefulset_plan.h
//
// The decisions of kube-controller-manager's StatefulSet controller (upstream
// pkg/controller/statefulset, stateful_set_control.go), as one pure function: a snapshot of one
// StatefulSet, its pods, PVCs and ControllerRevisions, and the time, in; the writes of one
// reconcile pass and the status out (DESIGN.md 2.1). A reconciler applies the actions in order
// and plans again whenever a pod, revision or the set changes, or when kRequeueAfter fires.
//
// Rules, in the order of one pass (upstream updateStatefulSet):
//   1. Revisions. The *update revision* is the revision whose data equals the patch of the live
//      template ({"spec":{"template":{...,"$patch":"replace"}}}); if none exists it is created
//      (kCreateRevision). Its name is "<set>-<hash>"; a name taken by a revision with other data
//      bumps status.collisionCount and hashes again. The *current revision* is the one named by
//      status.currentRevision, or the update revision when there is none.
//   2. Pods are split by ordinal (name "<set>-<n>"): ordinals in [start, start+replicas) are the
//      replicas, other ordinals are *condemned*; other names are ignored.
//   3. Replicas, lowest ordinal first: a Failed or Succeeded pod is deleted (it is recreated on a
//      later pass, once gone); a missing pod is created, after its missing PVCs, from the current
//      revision when a RollingUpdate partition keeps its ordinal there, else from the update
//      revision; a pod whose identity (pod-name label) drifted is relabelled; a Pending
//      pod's missing PVCs are created.
//      OrderedReady ("monotonic") stops the pass at the first creation or deletion, and at the
//      first pod that is terminating or not Running+Ready+available; Parallel goes on.
//   4. Condemned pods, highest ordinal first, are deleted: OrderedReady one per pass, only once
//      every replica is available and the pod is available itself or the first unhealthy pod;
//      Parallel all at once. Terminating pods are waited for.
//   5. OnDelete stops here. RollingUpdate (the MaxUnavailableStatefulSet behaviour) deletes the
//      pods with index >= partition whose controller-revision-hash is not the update revision,
//      highest first, as long as fewer than maxUnavailable (int or percent of replicas rounded
//      down, at least 1; default 1) replicas are unavailable, counting missing, terminating and
//      not-yet-available pods and this pass's own deletions.
//   6. Status counts the snapshot's pods (upstream computeReplicaStatus); when a RollingUpdate has
//      every pod updated and ready, currentRevision becomes updateRevision (completeRollingUpdate).
//      kUpdateStatus is emitted only when the status differs from the set's.
//   7. A pod Ready but not yet available (minReadySeconds) asks for kRequeueAfter the shortest
//      remaining wait.
// A set being deleted only gets its status.
//
// Hash: ours, not upstream's controller.ComputeHash (FNV-32a over Go's deep-hash printer of the
// template). It is api::RevisionHash (FNV-1, 32 bit, safe-encoded) over the Go-style JSON bytes of
// the revision data, followed by "/<collisionCount>" when the count is non-zero: stable across
// runs and processes, and it changes whenever the template does.
//
// Left out (upstream has it): renumbering an older equal revision when the template goes back to
// it; revision history truncation (revisionHistoryLimit); PVC retention whenScaled and PVC
// deletion; storage drift repair of existing pods; status counters adjusted for this pass's own
// writes (the next pass sees them); status conditions and events.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "api/apps.h"
#include "api/pod.h"
#include "base/clock.h"
#include "base/result.h"
#include "cluster/pod_availability.h"

namespace lws::cluster {

inline constexpr std::string_view kStatefulSetPodNameLabel = "statefulset.kubernetes.io/pod-name";
inline constexpr std::string_view kPodIndexLabel = "apps.kubernetes.io/pod-index";
inline constexpr std::string_view kControllerRevisionHashLabel = "controller-revision-hash";

// NewStatefulSetRevision of a set's live template (any revision number), made by an earlier
// pass: the reconciler keeps it while the set's uid and generation hold, so a pass does not
// encode and hash the template again (rule 1 runs on every pass).
struct ProposedRevision {
  std::int32_t collision_count = 0;
  api::ControllerRevision revision;
};

struct StatefulSetSnapshot {
  api::StatefulSet set;
  // The pods the set controls, any order: the informer's shared decoded views.
  std::vector<std::shared_ptr<const api::Pod>> pods;
  std::vector<api::PersistentVolumeClaim> pvcs;  // PVCs of the set's namespace (by name)
  // The revisions the set controls: shared decoded views, as `pods`.
  std::vector<std::shared_ptr<const api::ControllerRevision>> revisions;
  // Optional. Used only when made for the collision count of `set`'s status; otherwise rule 1
  // makes its own.
  std::shared_ptr<const ProposedRevision> proposed;
  Time now;
};

enum class StatefulSetActionKind {
  kCreateRevision,  // create `revision`
  kCreatePvc,       // create `pvc`
  kCreatePod,       // create `pod`
  kDeletePod,       // delete pod `name` with precondition `uid`
  kUpdatePod,       // update `pod` (identity repaired; carries the observed resourceVersion)
  kUpdateStatus,    // write the plan's status to the set's status subresource
  kRequeueAfter,    // plan again after `requeue_after`
};

struct StatefulSetAction {
  StatefulSetActionKind kind = StatefulSetActionKind::kCreatePod;
  std::string name;  // of the object written; the set's name for kUpdateStatus/kRequeueAfter
  std::string uid;   // kDeletePod precondition
  std::optional<api::Pod> pod;
  std::optional<api::PersistentVolumeClaim> pvc;
  std::optional<api::ControllerRevision> revision;
  Duration requeue_after{0};
  std::string reason;  // for logs: "scale down", "update", "recreate failed", ...
};

// "CreatePod web-0 (create)", "DeletePod web-3 (scale down)", "RequeueAfter web 5s": for logs
// and test failures.
std::string ToString(const StatefulSetAction& action);

struct StatefulSetPlan {
  std::vector<StatefulSetAction> actions;
  api::StatefulSetStatus status;
};

// The actions and status of one reconcile pass over `snapshot` (rules above). Fails only when a
// revision's data is not a template patch or maxUnavailable is not an int or percentage.
Result<StatefulSetPlan> PlanStatefulSet(const StatefulSetSnapshot& snapshot);

// ---- Building blocks, exposed for the reconciler and tests ------------------------------------

// "<set>-<ordinal>" (upstream getPodName).
std::string StatefulSetPodName(const api::StatefulSet& set, int ordinal);
// The ordinal of a pod named "<set>-<n>" (n decimal, no sign, no leading zero unless "0"), or -1.
int StatefulSetPodOrdinal(const api::StatefulSet& set, const std::string& pod_name);
// "<claim template>-<set>-<ordinal>" (upstream getPersistentVolumeClaimName).
std::string StatefulSetPvcName(const api::StatefulSet& set, const api::PersistentVolumeClaim& claim,
                               int ordinal);
// A revision of the live template of `set` numbered `revision_number`, hashed with
// `collision_count` (see "Hash" above), owned by the set.
api::ControllerRevision NewStatefulSetRevision(const api::StatefulSet& set,
                                               std::int64_t revision_number,
                                               std::int32_t collision_count);
// NewStatefulSetRevision numbered 0, with the collision count it was hashed with.
ProposedRevision ProposeStatefulSetRevision(const api::StatefulSet& set,
                                            std::int32_t collision_count);
// The pod template stored in `revision` (spec.template of its data). Fails when the data holds no
// decodable template. Separate from NewStatefulSetPod so that a plan decodes each revision's
// template once for all the pods it creates.
Result<api::PodTemplateSpec> RevisionTemplate(const api::ControllerRevision& revision);
// The pod of `ordinal` made from `tmpl`, the template of revision `revision_name`: template
// labels and annotations, the identity labels, controller-revision-hash = revision name,
// hostname = pod name, subdomain = serviceName, a controller ownerReference to the set, and one
// volume per claim template pointing at its PVC.
api::Pod NewStatefulSetPod(const api::StatefulSet& set, api::PodTemplateSpec tmpl,
                           const std::string& revision_name, int ordinal);
// The PVCs `pod`'s ordinal needs (one per claim template), labelled with the set's selector
// labels; owned by the set when the retention policy's whenDeleted is Delete.
std::vector<api::PersistentVolumeClaim> NewStatefulSetPvcs(const api::StatefulSet& set,
                                                           int ordinal);
// True iff `pod` carries the identity of its ordinal: a name of the set, its namespace and the
// pod-name label (upstream identityMatches). Hostname and subdomain are not part of it: they are
// immutable, and a pod webhook may set them (LWS's UniquePerReplica subdomain).
bool StatefulSetIdentityMatches(const api::StatefulSet& set, const api::Pod& pod);
// Gives `pod` its ordinal's namespace, pod-name and pod-index labels (upstream updateIdentity):
// all an update of an existing pod may change.
void UpdateStatefulSetPodIdentity(const api::StatefulSet& set, int ordinal, api::Pod& pod);
}  // namespace lws::cluster
