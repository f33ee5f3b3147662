// File: controllers/group/worker_statefulset.h
//
// The worker StatefulSet of one group (spec sections 10.2 and 17) and the readiness predicates
// the controllers share. A group g of LWS L is a leader pod L-g (made by the leader StatefulSet)
// plus a StatefulSet also named L-g that makes the workers L-g-1 .. L-g-(size-1) (ordinals start
// at 1). The worker StatefulSet is owned by the leader pod, so deleting the leader removes the
// whole group.
//
// Two LWS objects feed the builder, because a group keeps the template it was born with:
//   - `revision_lws`: the LWS with the leader pod's revision applied (api::ApplyRevision). Every
//     spec-derived value comes from it: worker template, size, subgroup policy, network config,
//     claim templates. A leader of an old revision thus gets workers of the old template and size
//     (quirk Q1: worker StatefulSets are create-only).
//   - `live`: the LWS as stored now. Its name, labels and annotations (exclusive-topology,
//     subgroup-exclusive-topology) are current, never versioned.
// The leader pod contributes the group's identity labels (group-index, group-key, revision) and,
// through its actual spec, whether the workers must count it as a TPU host.
#pragma once

#include <string>
#include <vector>

#include "api/lws_types.h"
#include "api/pod.h"
#include "base/status.h"

namespace lws::controllers {

// The claim templates both the leader and the worker StatefulSets get: for each LWS claim only
// its name, the LWS namespace, accessModes, storageClassName, volumeMode and resources (labels,
// selector, dataSource, ... are dropped, as upstream's apply configuration does).
std::vector<api::PersistentVolumeClaim> ReducedClaimTemplates(const api::LeaderWorkerSet& lws);

// The worker StatefulSet's name: the leader's hostname "<lws>-<key[:8]>" for a Hash group (so
// that worker pods are "<hostname>-<n>"), the leader pod's name otherwise.
std::string WorkerStatefulSetName(const api::LeaderWorkerSet& live, const api::Pod& leader);

// Hash mode: the group-ready condition the pod controller writes on a leader (True with reason
// WorkerStatefulSetReady once the worker StatefulSet is ready, else False with
// WorkerStatefulSetNotReady), and whether the leader's current one differs in status (upstream
// writes it only then).
api::PodCondition GroupReadyCondition(bool workers_ready, const std::string& now);
bool GroupReadyConditionChanged(const api::Pod& leader, bool workers_ready);

// The worker StatefulSet for `leader`, controlled by it (v1 Pod, blockOwnerDeletion). No node
// selector yet: see AddExclusiveNodeSelector.
api::StatefulSet BuildWorkerStatefulSet(const api::LeaderWorkerSet& live,
                                        const api::LeaderWorkerSet& revision_lws,
                                        const api::Pod& leader);

// Pins the workers to the leader's topology domain: nodeSelector[topology_key] = the value of that
// label on `node`, merged into the template's own node selector. Fails, leaving `sts` unchanged,
// when the node lacks the label; the message ends with the (empty) value, as upstream prints it:
// "node does not have topology label: ".
Status AddExclusiveNodeSelector(api::StatefulSet* sts, const std::string& topology_key,
                                const api::Node& node);

// Upstream StatefulsetReady: spec.replicas (nil counts as 1) == status.availableReplicas and the
// StatefulSet is not mid-rollout (currentRevision == updateRevision).
bool StatefulSetReady(const api::StatefulSet& sts);

// Phase Running and condition Ready=True (upstream podutils.PodRunningAndReady).
bool PodRunningAndReady(const api::Pod& pod);

// Condition Ready=True, whatever the phase (upstream podutils.IsPodReady).
bool PodReady(const api::Pod& pod);

// Notes of the events about creating a worker StatefulSet (spec section 20).
std::string CreatedWorkerStatefulSetNote(const std::string& leader_name);
std::string FailedCreateWorkerStatefulSetNote(const std::string& leader_name, const Status& error);

}  // namespace lws::controllers
