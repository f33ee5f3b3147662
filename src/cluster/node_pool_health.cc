// SetNodeReady (node_pools.h): a node's kubelet stops or resumes reporting, as the node
// lifecycle controller records it: the Ready condition (status subresource) and the unreachable
// taints (spec), written in that order so the node is never tainted while it still reads Ready.
#include "cluster/node_pools.h"

namespace lws::cluster {
namespace {

using api::Json;

constexpr int kAttempts = 5;

// Sets the Ready condition; true iff it changed. A missing condition is added.
bool SetReadyCondition(Json& node, bool ready, const std::string& time) {
  Json& conditions = node["status"]["conditions"];
  if (!conditions.is_array()) conditions = Json::array();
  const char* status = ready ? "True" : "False";
  Json* found = nullptr;
  for (Json& c : conditions) {
    if (c.is_object() && c.value("type", "") == "Ready") found = &c;
  }
  if (found != nullptr && found->value("status", "") == status) return false;
  if (found == nullptr) found = &conditions.emplace_back(Json{{"type", "Ready"}});
  (*found)["status"] = status;
  (*found)["reason"] = ready ? "KubeletReady" : "NodeStatusUnknown";
  (*found)["message"] = ready ? "kubelet is posting ready status" : "Kubelet stopped posting node status.";
  (*found)["lastTransitionTime"] = time;
  if (ready) (*found)["lastHeartbeatTime"] = time;
  return true;
}

// Adds or removes the unreachable NoSchedule and NoExecute taints; true iff they changed.
bool SetUnreachableTaints(Json& node, bool ready, const std::string& time) {
  Json kept = Json::array();
  bool had = false;
  const Json* spec = node.contains("spec") ? &node["spec"] : nullptr;
  if (spec != nullptr && spec->contains("taints") && (*spec)["taints"].is_array()) {
    for (const Json& t : (*spec)["taints"]) {
      if (t.is_object() && t.value("key", "") == kUnreachableTaint) {
        had = true;
      } else {
        kept.push_back(t);
      }
    }
  }
  if (ready != had) return false;  // already as wanted
  if (!ready) {
    for (const char* effect : {"NoSchedule", "NoExecute"}) {
      kept.push_back({{"key", kUnreachableTaint}, {"effect", effect}, {"timeAdded", time}});
    }
  }
  if (kept.empty()) {
    node["spec"].erase("taints");
  } else {
    node["spec"]["taints"] = std::move(kept);
  }
  return true;
}

// One read-modify-write of `node`; `edit` returns false when nothing changes.
template <class Edit>
Status ReadModifyWrite(const client::LocalClient& client, const std::string& node, bool status,
                       Edit edit) {
  for (int attempt = 0;; ++attempt) {
    ASSIGN_OR_RETURN(store::ObjectPtr current, client.Get(client::kNodes, "", node));
    Json edited = current->json;
    if (!edit(edited)) return Status::Ok();
    Result<Json> written =
        status ? client.UpdateStatus(client::kNodes, edited) : client.Update(client::kNodes, edited);
    if (written.ok()) return Status::Ok();
    if (written.status().code() != Code::kConflict || attempt + 1 >= kAttempts) return written.status();
  }
}

}  // namespace

Status SetNodeReady(const client::LocalClient& client, const std::string& node, bool ready, Time now) {
  const std::string time = FormatRfc3339(now);
  auto condition = [&](Json& n) { return SetReadyCondition(n, ready, time); };
  auto taints = [&](Json& n) { return SetUnreachableTaints(n, ready, time); };
  if (ready) {
    RETURN_IF_ERROR(ReadModifyWrite(client, node, /*status=*/false, taints));
    return ReadModifyWrite(client, node, /*status=*/true, condition);
  }
  RETURN_IF_ERROR(ReadModifyWrite(client, node, /*status=*/true, condition));
  return ReadModifyWrite(client, node, /*status=*/false, taints);
}

}  // namespace lws::cluster
