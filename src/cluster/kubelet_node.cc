// Node readiness as the kubelet reports it and the node lifecycle controller reacts to it
// (kubelet.h: SetNodeReady, NodeReadyCondition).
#include <string_view>

#include "api/field.h"
#include "cluster/kubelet.h"

namespace lws::cluster {

namespace {

constexpr const char* kUnreachableTaint = "node.kubernetes.io/unreachable";
constexpr const char* kUnknownReason = "NodeStatusUnknown";
constexpr const char* kUnknownMessage = "Kubelet stopped posting node status.";
constexpr int kConflictRetries = 5;

// The pressure conditions a healthy kubelet reports False, with its reasons and messages.
struct Pressure {
  std::string_view type, reason, message;
};
constexpr Pressure kPressures[] = {
    {"MemoryPressure", "KubeletHasSufficientMemory", "kubelet has sufficient memory available"},
    {"DiskPressure", "KubeletHasNoDiskPressure", "kubelet has no disk pressure"},
    {"PIDPressure", "KubeletHasSufficientPID", "kubelet has sufficient PID available"},
};

// Sets a node condition's status, reason and message; true iff something changed. A status
// change moves lastTransitionTime; a live kubelet's report moves lastHeartbeatTime, a lost
// one's keeps the last heartbeat (the node lifecycle controller does not touch it).
bool SetCondition(Json& condition, std::string_view status, std::string_view reason,
                  std::string_view message, bool heartbeat, const std::string& now) {
  const Json before = condition;
  if (api::StringMember(condition, "status") != status) condition["lastTransitionTime"] = now;
  condition["status"] = std::string(status);
  condition["reason"] = std::string(reason);
  condition["message"] = std::string(message);
  if (heartbeat || !condition.contains("lastHeartbeatTime")) condition["lastHeartbeatTime"] = now;
  return condition != before;
}

// Edits status.conditions of `node`; true iff it changed.
bool EditConditions(Json& node, bool ready, const std::string& now) {
  Json& conditions = node["status"]["conditions"];
  if (!conditions.is_array()) conditions = Json::array();
  bool changed = false;
  bool has_ready = false;
  for (Json& c : conditions) {
    if (!c.is_object()) continue;
    const std::string type = api::StringMember(c, "type");
    if (type == "Ready") {
      has_ready = true;
      changed |= ready ? SetCondition(c, "True", "KubeletReady", "kubelet is posting ready status",
                                      true, now)
                       : SetCondition(c, "Unknown", kUnknownReason, kUnknownMessage, false, now);
    }
    for (const Pressure& p : kPressures) {
      if (type != p.type) continue;
      changed |= ready ? SetCondition(c, "False", p.reason, p.message, true, now)
                       : SetCondition(c, "Unknown", kUnknownReason, kUnknownMessage, false, now);
    }
  }
  if (!has_ready) {
    Json c = {{"type", "Ready"}};
    if (ready) {
      SetCondition(c, "True", "KubeletReady", "kubelet is posting ready status", true, now);
    } else {
      SetCondition(c, "Unknown", kUnknownReason, kUnknownMessage, false, now);
    }
    conditions.push_back(std::move(c));
    changed = true;
  }
  return changed;
}

// Edits spec.taints of `node`: the unreachable NoSchedule and NoExecute taints present iff
// !ready; true iff it changed. The controller stamps timeAdded on both (SwapNodeControllerTaint).
bool EditTaints(Json& node, bool ready, const std::string& now) {
  Json& spec = node["spec"];
  if (!spec.is_object()) spec = Json::object();
  Json taints = spec.value("taints", Json::array());
  if (!taints.is_array()) taints = Json::array();
  Json kept = Json::array();
  bool has_no_schedule = false;
  bool has_no_execute = false;
  for (const Json& t : taints) {
    const bool unreachable = t.is_object() && api::StringMember(t, "key") == kUnreachableTaint;
    if (unreachable && ready) continue;
    if (unreachable) {
      has_no_schedule |= api::StringMember(t, "effect") == "NoSchedule";
      has_no_execute |= api::StringMember(t, "effect") == "NoExecute";
    }
    kept.push_back(t);
  }
  if (!ready && !has_no_schedule) {
    kept.push_back({{"key", kUnreachableTaint}, {"effect", "NoSchedule"}, {"timeAdded", now}});
  }
  if (!ready && !has_no_execute) {
    kept.push_back({{"key", kUnreachableTaint}, {"effect", "NoExecute"}, {"timeAdded", now}});
  }
  if (kept == taints) return false;
  if (kept.empty()) {
    spec.erase("taints");
  } else {
    spec["taints"] = std::move(kept);
  }
  return true;
}

// One attempt: status first (what the kubelets react to), then the taints (what the scheduler
// reacts to), each through its own endpoint.
Status TrySetNodeReady(const client::LocalClient& client, const std::string& name, bool ready,
                       const std::string& now) {
  ASSIGN_OR_RETURN(store::ObjectPtr current, client.Get(client::kNodes, "", name));
  Json node = current->document();
  if (EditConditions(node, ready, now)) {
    ASSIGN_OR_RETURN(store::ObjectPtr written, client.UpdateStatus(client::kNodes, node));
    node = written->document();
  }
  if (EditTaints(node, ready, now)) RETURN_IF_ERROR(client.Update(client::kNodes, node).status());
  return Status::Ok();
}

}  // namespace

std::optional<bool> NodeReadyCondition(const Json& node) {
  auto status = node.find("status");
  if (status == node.end() || !status->is_object()) return std::nullopt;
  auto conditions = status->find("conditions");
  if (conditions == status->end() || !conditions->is_array()) return std::nullopt;
  for (const Json& c : *conditions) {
    if (c.is_object() && api::StringMember(c, "type") == "Ready") {
      return api::StringMember(c, "status") == "True";
    }
  }
  return std::nullopt;
}

Status SetNodeReady(const client::LocalClient& client, const std::string& node, bool ready,
                    Time now) {
  const std::string stamp = FormatRfc3339(now);
  Status status;
  for (int attempt = 0; attempt < kConflictRetries; ++attempt) {
    status = TrySetNodeReady(client, node, ready, stamp);
    if (status.code() != Code::kConflict) return status;
  }
  return status;
}

}  // namespace lws::cluster
