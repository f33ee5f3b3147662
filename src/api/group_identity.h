// File: api/group_identity.h
//
// Names and small pure rules of upstream's KEP 898 (spec.groupIdentity: Hash), newer than the
// specification: in Hash mode a Deployment runs the leaders, each leader gets a random group key
// at admission instead of an ordinal, its worker StatefulSet is named after its hostname, a
// readiness gate makes a leader Ready only with its whole group, and a scheduling gate holds a
// replacement leader until the group it replaces is gone (spec.groupReplacementPolicy).
#pragma once

#include <string>
#include <string_view>

#include "api/field.h"
#include "api/lws_types.h"
#include "api/pod.h"

namespace lws::api {

// "Hash" on the leader Deployment's pod template and the worker StatefulSets' pod templates:
// admission tells Hash leaders and workers apart by it without reading the LWS.
inline const std::string kGroupIdentityAnnotation = "leaderworkerset.sigs.k8s.io/group-identity";
// "<hostname>.<subdomain>.<namespace>" of the group's leader, on the worker pod template.
inline const std::string kLeaderAddressAnnotation = "leaderworkerset.sigs.k8s.io/leader-address";
// The leader's readiness gate and the pod condition the pod controller writes for it.
inline const std::string kGroupReadyCondition = "leaderworkerset.sigs.k8s.io/group-ready";
inline const std::string kWorkerStatefulSetReady = "WorkerStatefulSetReady";
inline const std::string kWorkerStatefulSetNotReady = "WorkerStatefulSetNotReady";
// The scheduling gate every Hash leader is created with.
inline const std::string kGroupReplacementGate = "leaderworkerset.sigs.k8s.io/group-replacement";
// Events of the gate (pod controller).
inline const std::string kGroupReplacementDeferred = "GroupReplacementDeferred";
inline const std::string kGroupReplacementAdmitted = "GroupReplacementAdmitted";

// The DNS prefix of a group key in a leader's hostname.
inline constexpr std::size_t kHashDnsPrefixLength = 8;

inline bool IsHashIdentity(const LeaderWorkerSet& lws) {
  return lws.spec.group_identity == kGroupIdentityHash;
}

// A pod of a Hash group, leader or worker: its template carries the group-identity annotation.
inline bool IsHashGroupPod(const ObjectMeta& meta) {
  return meta.Annotation(kGroupIdentityAnnotation) == kGroupIdentityHash;
}

// Whether `pod` carries the scheduling gate `name` (upstream HasSchedulingGate).
inline bool HasSchedulingGate(const Pod& pod, std::string_view name) {
  const Json& gates = ChildOrNull(pod.spec.rest, "schedulingGates");
  if (!gates.is_array()) return false;
  for (const Json& gate : gates) {
    if (StringMember(gate, "name") == name) return true;
  }
  return false;
}

// Immediate, or PostTermination for anything else (upstream treats "" as PostTermination).
inline bool ReplacesImmediately(const LeaderWorkerSet& lws) {
  return lws.spec.group_replacement_policy == kGroupReplacementImmediate;
}

// "<lws>-<first 8 characters of the key>": a Hash leader's hostname and its worker
// StatefulSet's name (upstream hashLeaderHostname).
inline std::string HashLeaderHostname(std::string_view lws_name, std::string_view group_key) {
  return std::string(lws_name) + "-" + std::string(group_key.substr(0, kHashDnsPrefixLength));
}

}  // namespace lws::api
