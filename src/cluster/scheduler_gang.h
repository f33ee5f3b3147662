// File: cluster/scheduler_gang.h
//
// Gang scheduling as Volcano's scheduler does it for a PodGroup (scheduling.volcano.sh/v1beta1):
// all or nothing. A pure function of the group's waiting pods and the nodes, beside
// SchedulePod (scheduler_plan.h), whose filters and score place each pod:
//   1. not ready: fewer members exist (bound and waiting) than minMember: none is placed
//      (Volcano's gang plugin: the job is not ready);
//   2. enqueue: a group with no member bound yet waits until the free resources of the
//      schedulable nodes cover its minResources (Volcano's enqueue action, with one queue that
//      holds the whole cluster);
//   3. allocate: the waiting pods, by name, are placed one after another on a copy of the nodes
//      that counts the earlier ones; the placements are kept only when the bound members plus
//      the placed ones reach minMember, so a group that fits only in part holds no node at all.
// Messages follow Volcano's gang plugin: "3/4 tasks in gang unschedulable: pod group is not
// ready, 3 Pending, 4 minAvailable; Pending: 3 Unschedulable".
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "api/pod.h"
#include "cluster/scheduler_plan.h"

namespace lws::cluster {

struct GangSpec {
  int min_member = 1;
  api::ResourceList min_resources;
};

struct GangPlacement {
  bool admitted = false;
  // When admitted: (index into `waiting`, node) for each placed pod, in placement order; pods
  // placed beyond minMember that did not fit are not listed.
  std::vector<std::pair<std::size_t, std::string>> placed;
  // When not admitted: the PodScheduled=False message for every waiting pod, and the reason the
  // PodGroup condition carries ("NotEnoughPods", "NotEnoughResources", "Unschedulable").
  std::string message;
  std::string reason;
};

// `waiting` are the group's pods this scheduler may place (spec.nodeName empty), sorted by name;
// `bound` the members already on nodes.
GangPlacement PlaceGang(const std::vector<const api::Pod*>& waiting, int bound,
                        const GangSpec& gang, const std::vector<NodeInfo>& nodes);

}  // namespace lws::cluster
