// The pod statuses the simulated kubelets write (kubelet_status.h).
#include "cluster/kubelet_status.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cstdint>
#include <string_view>
#include <vector>

#include "api/field.h"
#include "base/rng.h"
#include "store/object.h"

namespace lws::cluster {

namespace {

// The conditions the kubelet owns, in the order it writes them (after everyone else's).
constexpr std::string_view kKubeletConditions[] = {"PodReadyToStartContainers", "Initialized",
                                                   "Ready", "ContainersReady", "PodScheduled"};

bool OwnedByKubelet(const std::string& type) {
  return std::find(std::begin(kKubeletConditions), std::end(kKubeletConditions), type) !=
         std::end(kKubeletConditions);
}

// 64 hex digits determined by `text`: FNV-1a, then splitmix64 to spread it over 256 bits.
std::string Digest(std::string_view text) {
  std::uint64_t state = 1469598103934665603ull;
  for (char c : text) {
    state ^= static_cast<unsigned char>(c);
    state *= 1099511628211ull;
  }
  std::string out;
  for (int i = 0; i < 4; ++i) out += fmt::format("{:016x}", SplitMix64(&state));
  return out;
}

// "docker.io/library/nginx@sha256:<digest>" style: the repository without its tag. Every status
// of every pod of a group asks for the same few images, so each thread keeps the last answer.
std::string ImageId(const std::string& image) {
  if (image.find('@') != std::string::npos) return image;
  thread_local std::string last_image, last_id;
  if (!last_id.empty() && image == last_image) return last_id;
  std::string repository = image;
  const auto colon = image.rfind(':');
  const auto slash = image.rfind('/');
  if (colon != std::string::npos && (slash == std::string::npos || colon > slash)) {
    repository = image.substr(0, colon);
  }
  last_image = image;
  last_id = repository + "@sha256:" + Digest(image);
  return last_id;
}

Json Condition(std::string_view type, bool status, std::string reason = "",
               std::string message = "") {
  // Built key by key: nlohmann's brace lists build a two-element array per key first.
  Json c = Json::object();
  c["type"] = std::string(type);
  c["status"] = status ? "True" : "False";
  c["lastProbeTime"] = nullptr;
  if (!reason.empty()) c["reason"] = std::move(reason);
  if (!message.empty()) c["message"] = std::move(message);
  return c;
}

struct ContainerSpec {
  std::string name;
  std::string image;
};

std::vector<ContainerSpec> Containers(const Json& pod) {
  std::vector<ContainerSpec> out;
  auto spec = pod.find("spec");
  if (spec == pod.end() || !spec->is_object()) return out;
  auto list = spec->find("containers");
  if (list == spec->end() || !list->is_array()) return out;
  for (const Json& c : *list) {
    if (c.is_object()) out.push_back({api::StringMember(c, "name"), api::StringMember(c, "image")});
  }
  return out;
}

Json Terminated(const std::string& id, int exit_code, Time started, Time finished) {
  return {{"terminated",
           {{"containerID", id},
            {"exitCode", exit_code},
            {"reason", exit_code == 0 ? "Completed" : "Error"},
            {"startedAt", FormatRfc3339(started)},
            {"finishedAt", FormatRfc3339(finished)}}}};
}

// One containerStatuses entry; `first` is the container crashes happen to.
Json ContainerStatus(const Json& pod, const ContainerSpec& c, bool first, const PodRun& run) {
  Json s = Json::object();
  s["name"] = c.name;
  s["image"] = c.image;
  s["imageID"] = "";
  s["lastState"] = Json::object();
  s["ready"] = false;
  s["restartCount"] = 0;
  s["started"] = false;
  if (run.stage == PodStage::kCreating) {
    s["state"] = {{"waiting", {{"reason", "ContainerCreating"}}}};
    return s;
  }
  const std::string uid = store::MetaString(pod, "uid");
  const int restarts = first ? run.restart_count : 0;
  const std::string id = ContainerId(uid, c.name, restarts);
  s["imageID"] = ImageId(c.image);
  s["containerID"] = id;
  s["restartCount"] = restarts;
  if (first) s["lastState"] = run.last_state;
  const Time started = first ? run.started_at : run.others_started_at;
  if (run.stage == PodStage::kFailed || run.stage == PodStage::kSucceeded) {
    // After a crash the pod failed as a whole: the other containers were stopped (SIGKILL's 137).
    const int code = run.exit_code ? *run.exit_code : first ? 1 : 137;
    s["state"] = Terminated(id, code, started, run.finished_at);
    return s;
  }
  s["state"] = {{"running", {{"startedAt", FormatRfc3339(started)}}}};
  s["started"] = true;
  s["ready"] = run.stage == PodStage::kRunning || !first;
  return s;
}

const Json* FindCondition(const Json& conditions, const std::string& type) {
  if (!conditions.is_array()) return nullptr;
  for (const Json& c : conditions) {
    if (c.is_object() && api::StringMember(c, "type") == type) return &c;
  }
  return nullptr;
}

// Why the pod's readiness gates hold it back, in the kubelet's words (GeneratePodReadyCondition),
// joined; "" when every gate's condition is True.
std::string UnmetReadinessGates(const Json& pod) {
  const Json& gates = api::ChildOrNull(api::ChildOrNull(pod, "spec"), "readinessGates");
  if (!gates.is_array()) return "";
  const Json& conditions = api::ChildOrNull(api::ChildOrNull(pod, "status"), "conditions");
  std::vector<std::string> unmet;
  for (const Json& gate : gates) {
    const std::string type = api::StringMember(gate, "conditionType");
    const Json* c = FindCondition(conditions, type);
    if (c == nullptr) {
      unmet.push_back(fmt::format(
          "corresponding condition of pod readiness gate \"{}\" does not exist.", type));
    } else if (api::StringMember(*c, "status") != "True") {
      unmet.push_back(fmt::format("the status of pod readiness gate \"{}\" is not \"True\", but {}",
                                  type, api::StringMember(*c, "status")));
    }
  }
  return fmt::format("{}", fmt::join(unmet, ", "));
}

// The kubelet's conditions for `run`, in its order; `unready` lists unready containers and
// `unmet_gates` says why readiness gates hold the pod back ("" when none do).
std::vector<Json> KubeletConditions(const PodRun& run, const std::vector<std::string>& unready,
                                    const std::string& unmet_gates) {
  const bool sandbox = run.stage == PodStage::kRunning || run.stage == PodStage::kRestarting;
  std::vector<Json> out = {Condition("PodReadyToStartContainers", sandbox),
                           Condition("Initialized", true)};
  if (run.stage == PodStage::kFailed || run.stage == PodStage::kSucceeded) {
    const char* reason = run.stage == PodStage::kFailed ? "PodFailed" : "PodCompleted";
    out.push_back(Condition("Ready", false, reason));
    out.push_back(Condition("ContainersReady", false, reason));
  } else if (!unready.empty()) {
    const std::string message =
        fmt::format("containers with unready status: [{}]", fmt::join(unready, " "));
    out.push_back(Condition("Ready", false, "ContainersNotReady", message));
    out.push_back(Condition("ContainersReady", false, "ContainersNotReady", message));
  } else if (!unmet_gates.empty()) {
    out.push_back(Condition("Ready", false, "ReadinessGatesNotReady", unmet_gates));
    out.push_back(Condition("ContainersReady", true));
  } else {
    out.push_back(Condition("Ready", true));
    out.push_back(Condition("ContainersReady", true));
  }
  out.push_back(Condition("PodScheduled", true));
  return out;
}

// `condition` with the lastTransitionTime of `old` when the status is unchanged, else `now`.
Json WithTransitionTime(Json condition, const Json* old, Time now) {
  if (old != nullptr && api::StringMember(*old, "status") == condition["status"] &&
      old->contains("lastTransitionTime")) {
    condition["lastTransitionTime"] = (*old)["lastTransitionTime"];
  } else {
    condition["lastTransitionTime"] = FormatRfc3339(now);
  }
  return condition;
}

Json CurrentStatus(const Json& pod) {
  auto it = pod.find("status");
  return it != pod.end() && it->is_object() ? *it : Json::object();
}

// The pod's status without the two lists PodStatusFor writes whole, which are not copied only
// to be replaced.
Json StatusWithoutLists(const Json& pod) {
  Json out = Json::object();
  const Json& status = api::ChildOrNull(pod, "status");
  if (!status.is_object()) return out;
  auto& members = out.get_ref<Json::object_t&>();
  for (const auto& [key, value] : status.items()) {
    if (key != "conditions" && key != "containerStatuses") {
      members.emplace_hint(members.end(), key, value);
    }
  }
  return out;
}

}  // namespace

std::string ContainerId(const std::string& uid, const std::string& name, int restart) {
  return "containerd://" + Digest(fmt::format("{}/{}/{}", uid, name, restart));
}

void SetPodCondition(Json* conditions, Json condition, Time now) {
  if (!conditions->is_array()) *conditions = Json::array();
  const std::string type = api::StringMember(condition, "type");
  for (Json& c : *conditions) {
    if (c.is_object() && api::StringMember(c, "type") == type) {
      c = WithTransitionTime(std::move(condition), &c, now);
      return;
    }
  }
  conditions->push_back(WithTransitionTime(std::move(condition), nullptr, now));
}

Json PodStatusFor(const Json& pod, const PodRun& run, Time now) {
  Json status = StatusWithoutLists(pod);
  const std::vector<ContainerSpec> containers = Containers(pod);
  Json statuses = Json::array();
  std::vector<std::string> unready;
  for (std::size_t i = 0; i < containers.size(); ++i) {
    Json s = ContainerStatus(pod, containers[i], i == 0, run);
    if (!s["ready"].get<bool>()) unready.push_back(containers[i].name);
    statuses.push_back(std::move(s));
  }
  std::sort(statuses.begin(), statuses.end(), [](const Json& a, const Json& b) {
    return a["name"].get<std::string>() < b["name"].get<std::string>();
  });

  const Json& old_conditions = api::ChildOrNull(api::ChildOrNull(pod, "status"), "conditions");
  Json conditions = Json::array();
  if (old_conditions.is_array()) {
    for (const Json& c : old_conditions) {
      if (c.is_object() && !OwnedByKubelet(api::StringMember(c, "type"))) conditions.push_back(c);
    }
  }
  for (Json& c : KubeletConditions(run, unready, UnmetReadinessGates(pod))) {
    const Json* old = FindCondition(old_conditions, c["type"].get<std::string>());
    conditions.push_back(WithTransitionTime(std::move(c), old, now));
  }

  status["phase"] = run.stage == PodStage::kCreating    ? "Pending"
                    : run.stage == PodStage::kFailed    ? "Failed"
                    : run.stage == PodStage::kSucceeded ? "Succeeded"
                                                        : "Running";
  status["conditions"] = std::move(conditions);
  status["containerStatuses"] = std::move(statuses);
  status["startTime"] = FormatRfc3339(run.start_time);
  if (!run.host_ip.empty()) {
    status["hostIP"] = run.host_ip;
    status["hostIPs"] = Json::array({{{"ip", run.host_ip}}});
  }
  if (!run.pod_ip.empty()) {
    status["podIP"] = run.pod_ip;
    status["podIPs"] = Json::array({{{"ip", run.pod_ip}}});
  }
  return status;
}

Json LostPodStatus(const Json& pod, const std::string& node, Time now) {
  Json status = CurrentStatus(pod);
  status["phase"] = "Failed";
  status["reason"] = "NodeLost";
  status["message"] = fmt::format("Node {} which was running pod {} is unresponsive", node,
                                  store::MetaString(pod, "name"));
  Json& conditions = status["conditions"];
  SetPodCondition(&conditions, Condition("Ready", false), now);
  SetPodCondition(&conditions, Condition("ContainersReady", false), now);
  return status;
}

}  // namespace lws::cluster
