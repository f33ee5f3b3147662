// File: cluster/volcano_crd.h
//
// The CustomResourceDefinition of Volcano's PodGroup (scheduling.volcano.sh/v1beta1, namespaced,
// short names pg and podgroup-v1beta1, no subresources), with the fields Volcano's API
// defines: spec.minMember, minResources, minTaskMember, queue (default "default"),
// priorityClassName, preemptable, networkTopology; status.phase, conditions, running,
// succeeded, failed; printer columns STATUS, minMember, RUNNINGS, AGE and QUEUE (wide). `lws up`
// installs it when the cluster file asks for gang scheduling; tests install it as users install
// Volcano's.
#pragma once

#include "api/field.h"

namespace lws::cluster {

api::Json VolcanoPodGroupCrd();

}  // namespace lws::cluster
