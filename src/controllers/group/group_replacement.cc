// File: controllers/group/group_replacement.cc
#include "controllers/group/group_replacement.h"

#include <algorithm>
#include <map>

#include "api/group_identity.h"
#include "controllers/group/restart_policy.h"

namespace lws::controllers {

namespace {

std::string GroupOf(const api::Pod& pod) {
  const std::string& index = pod.metadata.Label(api::kGroupIndexLabel);
  if (!index.empty()) return index;
  if (IsLeaderPod(pod)) return pod.metadata.name;
  const api::OwnerReference* owner = pod.metadata.ControllerRef();
  return owner != nullptr ? owner->name : pod.metadata.name;
}

}  // namespace

int CountTearingDownGroups(const std::vector<const api::Pod*>& pods) {
  std::map<std::string, bool> live_leader;  // group -> has a leader not being deleted
  for (const api::Pod* pod : pods) {
    bool& live = live_leader[GroupOf(*pod)];
    if (IsLeaderPod(*pod) && !pod->metadata.IsDeleting()) live = true;
  }
  return static_cast<int>(std::count_if(live_leader.begin(), live_leader.end(),
                                        [](const auto& group) { return !group.second; }));
}

GateDecision DecideGroupReplacement(const api::LeaderWorkerSet& lws,
                                    const std::vector<const api::Pod*>& pods,
                                    const api::Pod& leader) {
  if (api::ReplacesImmediately(lws)) return {.admit = true};
  GateDecision decision;
  decision.tearing_down = CountTearingDownGroups(pods);
  std::vector<const api::Pod*> gated;
  for (const api::Pod* pod : pods) {
    if (IsLeaderPod(*pod) && !pod->metadata.IsDeleting() &&
        HasSchedulingGate(*pod, api::kGroupReplacementGate)) {
      gated.push_back(pod);
    }
  }
  std::sort(gated.begin(), gated.end(), [](const api::Pod* a, const api::Pod* b) {
    return api::CreatedBefore(a->metadata, b->metadata);
  });
  auto it = std::find_if(gated.begin(), gated.end(), [&](const api::Pod* pod) {
    return pod->metadata.name == leader.metadata.name;
  });
  const long rank = it == gated.end() ? -1 : it - gated.begin();
  const long free = static_cast<long>(gated.size()) - decision.tearing_down;
  decision.admit = rank >= 0 && rank < free;
  return decision;
}

api::Json GatesWithoutGroupReplacement(const api::Pod& leader) {
  api::Json out = api::Json::array();
  const api::Json& gates = api::ChildOrNull(leader.spec.rest, "schedulingGates");
  if (!gates.is_array()) return out;
  for (const api::Json& gate : gates) {
    if (api::StringMember(gate, "name") != api::kGroupReplacementGate) out.push_back(gate);
  }
  return out;
}

}  // namespace lws::controllers
