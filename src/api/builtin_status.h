// File: api/builtin_status.h
//
// The status a create stores for a built-in kind, as the kube-apiserver v1.32 registry
// strategies' PrepareForCreate set it (clients cannot create status), and the pod QoS class
// those strategies compute.
#pragma once

#include <string>

#include "api/field.h"
#include "api/resources.h"

namespace lws::api {

// The status to store on create, replacing whatever the client posted. REQUIRES: `object` has
// been through ApplyBuiltinDefaults (a pod's requests copied from its limits).
//   Pod:                    {"phase":"Pending","qosClass":<PodQOSClass(object)>}
//   Namespace:              {"phase":"Active"}
//   StatefulSet:            {"replicas":0,"availableReplicas":0} (the zero status as v1 prints it)
//   Service:                {"loadBalancer":{}}
//   PersistentVolumeClaim:  {"phase":"Pending"}
//   Node:                   the posted status, with allocatable defaulted to capacity
//                           (nodes register with their status; SetDefaults_NodeStatus)
//   anything else:          null, meaning "no status" (the caller removes the member)
Json InitialStatus(const ResourceInfo& info, const Json& object);

// qos.ComputePodQOS over a pod: "BestEffort" when no container (init containers included)
// requests or limits a positive amount of cpu or memory; "Guaranteed" when every container has
// positive cpu and memory limits and the summed requests equal the summed limits; else
// "Burstable". Quantities that do not parse count as absent.
std::string PodQOSClass(const Json& pod);

}  // namespace lws::api
