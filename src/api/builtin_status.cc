#include "api/builtin_status.h"

#include <map>
#include <string>
#include <vector>

#include "api/builtin_json.h"
#include "api/quantity.h"

namespace lws::api {

using builtin::Array;
using builtin::Is;
using builtin::Member;
using builtin::Object;

namespace {

using ResourceSums = std::map<std::string, Quantity>;

// Adds the positive cpu and memory amounts of `list` to `sums`; returns the names added.
std::vector<std::string> AddQOSResources(const Json* list, ResourceSums* sums) {
  std::vector<std::string> found;
  if (list == nullptr) return found;
  for (const char* name : {"cpu", "memory"}) {
    const Json* value = Member(*list, name);
    if (value == nullptr) continue;
    auto q = Quantity::Parse(value->is_string() ? value->get<std::string>() : value->dump());
    if (!q.ok() || q->Sign() <= 0) continue;
    (*sums)[name] += *q;
    found.push_back(name);
  }
  return found;
}

Json NodeStatus(const Json& node) {
  const Json* status = Member(node, "status");
  if (status == nullptr || !status->is_object()) return status != nullptr ? *status : Json();
  Json out = *status;
  const Json* capacity = Object(*status, "capacity");
  if (capacity != nullptr && builtin::IsUnset(Member(out, "allocatable"))) {
    out["allocatable"] = *capacity;
  }
  return out;
}

}  // namespace

std::string PodQOSClass(const Json& pod) {
  ResourceSums requests;
  ResourceSums limits;
  bool guaranteed = true;
  const Json* spec = Object(pod, "spec");
  for (const char* list : {"containers", "initContainers"}) {
    builtin::ForEachObject(spec != nullptr ? Array(*spec, list) : nullptr, [&](const Json& c) {
      const Json* resources = Object(c, "resources");
      AddQOSResources(resources != nullptr ? Object(*resources, "requests") : nullptr, &requests);
      const auto limited =
          AddQOSResources(resources != nullptr ? Object(*resources, "limits") : nullptr, &limits);
      if (limited.size() != 2) guaranteed = false;  // needs both cpu and memory limits
    });
  }
  if (requests.empty() && limits.empty()) return "BestEffort";
  if (guaranteed) {
    for (const auto& [name, amount] : requests) {
      auto it = limits.find(name);
      if (it == limits.end() || it->second != amount) {
        guaranteed = false;
        break;
      }
    }
  }
  return guaranteed && requests.size() == limits.size() ? "Guaranteed" : "Burstable";
}

Json InitialStatus(const ResourceInfo& info, const Json& object) {
  if (Is(info, "", "Pod")) {
    Json status = {{"phase", "Pending"}, {"qosClass", PodQOSClass(object)}};
    // The pod strategy's applySchedulingGatedCondition.
    const Json& gates = ChildOrNull(ChildOrNull(object, "spec"), "schedulingGates");
    if (gates.is_array() && !gates.empty()) {
      status["conditions"] =
          Json::array({{{"type", "PodScheduled"},
                        {"status", "False"},
                        {"lastProbeTime", nullptr},
                        {"reason", "SchedulingGated"},
                        {"message", "Scheduling is blocked due to non-empty scheduling gates"}}});
    }
    return status;
  }
  if (Is(info, "", "Namespace")) return {{"phase", "Active"}};
  if (Is(info, "apps", "StatefulSet")) return {{"replicas", 0}, {"availableReplicas", 0}};
  // The members the API prints even when zero; a new Job's status is empty.
  if (Is(info, "apps", "DaemonSet")) {
    return {{"currentNumberScheduled", 0},
            {"numberMisscheduled", 0},
            {"desiredNumberScheduled", 0},
            {"numberReady", 0}};
  }
  if (Is(info, "batch", "Job")) return Json::object();
  if (Is(info, "", "Service")) return {{"loadBalancer", Json::object()}};
  if (Is(info, "", "PersistentVolumeClaim")) return {{"phase", "Pending"}};
  if (Is(info, "", "Node")) return NodeStatus(object);
  // podDisruptionBudgetStrategy.PrepareForCreate clears the status; v1 writes its counts.
  if (Is(info, "policy", "PodDisruptionBudget")) {
    return {{"disruptionsAllowed", 0},
            {"currentHealthy", 0},
            {"desiredHealthy", 0},
            {"expectedPods", 0}};
  }
  return Json();
}

}  // namespace lws::api
