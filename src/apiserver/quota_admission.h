// File: apiserver/quota_admission.h
//
// Object-count quotas, as kube-apiserver's ResourceQuota admission plugin and quota controller
// keep them (plugin/pkg/admission/resourcequota, pkg/controller/resourcequota), for the counts a
// user protects a local cluster with:
//   - `count/<resource>` for a core resource, `count/<resource>.<group>` for any other (custom
//     resources included), and the legacy names pods, services, configmaps, secrets,
//     replicationcontrollers, resourcequotas and persistentvolumeclaims;
//   - a create that would take a namespace's count past a ResourceQuota's spec.hard is
//     Forbidden with upstream's words: `configmaps "c" is forbidden: exceeded quota: q,
//     requested: count/configmaps=1, used: count/configmaps=2, limited: count/configmaps=2`;
//   - pods in phase Succeeded or Failed do not count, as upstream's pod evaluator has it;
//   - status.hard and status.used follow spec.hard and the store (RefreshQuotaStatus), so
//     `kubectl describe quota` shows them.
// Compute resources (requests.cpu, limits.memory, ...) are not enforced: quota of accelerators is
// the scheduler's job in a simulated cluster; spec.hard values must still be quantities.
// Usage is counted from the store at each create (a list of the namespace's objects of that
// kind), not charged ahead as upstream does, so it is exact without a reconciler.
#pragma once

#include <memory>

#include "admission/admission.h"
#include "api/resources.h"
#include "store/store.h"

namespace lws::apiserver {

// The validating plugin. REQUIRES: `store` outlives it.
std::shared_ptr<admission::AdmissionPlugin> NewQuotaAdmission(store::Store* store);

// Sets status.hard (= spec.hard) and status.used of every ResourceQuota whose status differs
// from what the store holds now. Keys naming no served resource count 0.
Status RefreshQuotaStatus(store::Store* store, const api::ResourceRegistry& registry);

}  // namespace lws::apiserver
