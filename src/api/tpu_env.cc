#include "api/tpu_env.h"

#include <fmt/format.h>

#include "api/lws_types.h"
#include "api/pod_names.h"

namespace lws::api {

namespace {

bool IsLeader(const Pod& pod) { return pod.metadata.Label(kWorkerIndexLabel) == "0"; }

bool LeaderRequestsTpus(const Pod& pod) {
  return pod.metadata.Annotation(kLeaderRequestsTpusAnnotation) == "true";
}

// Upstream assumes that the other variables were injected together with these two.
bool AlreadyInjected(const Container& container) {
  return container.FindEnv(kTpuWorkerHostnamesEnv) != nullptr ||
         container.FindEnv(kTpuWorkerIdEnv) != nullptr;
}

Status UnparsableParent(const Pod& pod) {
  return WebhookDenied(fmt::format("parsing parent name from pod {}", pod.metadata.name));
}

// The comma-joined TPU_WORKER_HOSTNAMES and TPU_PROCESS_ADDRESSES values, built together and kept
// under kMaxTpuEnvBytes once copied into `copies` containers.
class HostList {
 public:
  HostList(std::string_view pod_name, std::size_t copies) : pod_name_(pod_name), copies_(copies) {}

  Status Add(std::string_view host, std::string_view port) {
    Append(&hostnames_, host);
    Append(&addresses_, fmt::format("{}:{}", host, port));
    if ((hostnames_.size() + addresses_.size()) * copies_ > kMaxTpuEnvBytes) {
      return WebhookDenied(fmt::format("TPU variables for pod {} would exceed {} bytes", pod_name_,
                                       kMaxTpuEnvBytes));
    }
    return Status::Ok();
  }
  const std::string& hostnames() const { return hostnames_; }
  const std::string& addresses() const { return addresses_; }

 private:
  static void Append(std::string* list, std::string_view item) {
    if (!list->empty()) *list += ',';
    *list += item;
  }
  std::string_view pod_name_;
  std::size_t copies_;
  std::string hostnames_;
  std::string addresses_;
};

// Appends the four variables, plus TPU_PROCESS_PORT when the container did not set it.
void AppendTpuEnv(Container* container, const HostList& hosts, std::int64_t worker_id,
                  const std::string& tpu_name, const std::string& port) {
  const bool had_port = container->FindEnv(kTpuProcessPortEnv) != nullptr;
  container->env.push_back({kTpuWorkerHostnamesEnv, hosts.hostnames(), {}});
  container->env.push_back({kTpuWorkerIdEnv, std::to_string(worker_id), {}});
  container->env.push_back({kTpuNameEnv, tpu_name, {}});
  container->env.push_back({kTpuProcessAddressesEnv, hosts.addresses(), {}});
  if (!had_port) container->env.push_back({kTpuProcessPortEnv, port, {}});
}

std::string PortOf(const Container& container, int default_port) {
  const EnvVar* port = container.FindEnv(kTpuProcessPortEnv);
  return port ? port->value : std::to_string(default_port);
}

}  // namespace

std::int64_t NumTpusRequested(const Container& container) {
  for (const ResourceList* list : {&container.resources.limits, &container.resources.requests}) {
    auto it = list->find(kTpuResourceName);
    if (it != list->end() && !it->second.IsZero()) return it->second.Value();
  }
  return 0;
}

bool PodRequestsTpus(const PodSpec& spec) {
  for (const auto* list : {&spec.containers, &spec.init_containers}) {
    for (const Container& c : *list) {
      if (NumTpusRequested(c) != 0) return true;
    }
  }
  return false;
}

std::vector<Container*> ContainersRequestingTpus(PodSpec* spec) {
  std::vector<Container*> out;
  for (auto* list : {&spec->containers, &spec->init_containers}) {
    for (Container& c : *list) {
      if (NumTpusRequested(c) != 0) out.push_back(&c);
    }
  }
  return out;
}

Status AddTpuVariables(Pod* pod, std::int64_t size) {
  if (pod->metadata.annotations.contains(kSubGroupSizeAnnotation)) {
    return AddTpuVariablesSubGroup(pod);
  }
  const std::vector<Container*> containers = ContainersRequestingTpus(&pod->spec);
  if (containers.empty() || AlreadyInjected(*containers[0])) return Status::Ok();

  // The leader is TPU worker 0. A worker's index is its ordinal, shifted down by one when the
  // leader holds no TPUs and so is not part of the slice.
  std::string leader_name = pod->metadata.name;
  std::int64_t pod_index = 0;
  if (!IsLeader(*pod)) {
    auto [parent, ordinal] = GetParentNameAndOrdinal(pod->metadata.name);
    if (parent.empty()) return UnparsableParent(*pod);
    leader_name = std::move(parent);
    pod_index = LeaderRequestsTpus(*pod) ? ordinal : ordinal - 1;
  }

  const std::size_t count = containers.size();
  std::vector<std::string> ports;
  for (std::size_t i = 0; i < count; ++i) {
    ports.push_back(PortOf(*containers[i], kTpuProcessDefaultPort + static_cast<int>(i)));
  }
  // Every pod of the group is assumed to have as many TPU containers as this one.
  const std::string& subdomain = pod->spec.subdomain;
  HostList hosts(pod->metadata.name, count);
  if (IsLeader(*pod) || LeaderRequestsTpus(*pod)) {
    const std::string host = fmt::format("{}.{}", leader_name, subdomain);
    for (const std::string& port : ports) RETURN_IF_ERROR(hosts.Add(host, port));
  }
  const std::int64_t last_worker = GoSub(size, 1);
  for (std::int64_t k = 1; k <= last_worker; ++k) {
    const std::string host = fmt::format("{}-{}.{}", leader_name, k, subdomain);
    for (const std::string& port : ports) RETURN_IF_ERROR(hosts.Add(host, port));
  }

  for (std::size_t i = 0; i < count; ++i) {
    const std::int64_t worker_id =
        GoAdd(GoMul(pod_index, static_cast<std::int64_t>(count)), static_cast<std::int64_t>(i));
    AppendTpuEnv(containers[i], hosts, worker_id, leader_name, ports[i]);
  }
  return Status::Ok();
}

Status AddTpuVariablesSubGroup(Pod* pod) {
  const std::vector<Container*> containers = ContainersRequestingTpus(&pod->spec);
  if (containers.empty() || AlreadyInjected(*containers[0])) return Status::Ok();
  Container* container = containers[0];
  const ObjectMeta& meta = pod->metadata;

  ASSIGN_OR_RETURN(const std::int64_t sub_group_size,
                   ParseGoInt(meta.Annotation(kSubGroupSizeAnnotation)));
  ASSIGN_OR_RETURN(std::int64_t sub_group_index, ParseGoInt(meta.Label(kSubGroupIndexLabel)));
  ASSIGN_OR_RETURN(const std::int64_t worker_index, ParseGoInt(meta.Label(kWorkerIndexLabel)));
  if (sub_group_size == 0) return DivideByZeroPanic();

  // Without a TPU leader the workers alone form the subgroups {1..sgs}, {sgs+1..2sgs}, ...
  const bool leader_requests = LeaderRequestsTpus(*pod);
  std::int64_t worker_id = GoRem(worker_index, sub_group_size);
  if (worker_index != 0 && !leader_requests) {
    worker_id = GoRem(GoSub(worker_index, 1), sub_group_size);
    sub_group_index = GoQuo(GoSub(worker_index, 1), sub_group_size);
  }
  const std::string port = PortOf(*container, kTpuProcessDefaultPort);
  std::int64_t start = GoAdd(GoMul(sub_group_size, sub_group_index), 1);
  std::int64_t end = GoMul(sub_group_size, GoAdd(sub_group_index, 1));

  const std::string& subdomain = pod->spec.subdomain;
  std::string leader_name = meta.name;
  HostList hosts(meta.name, 1);
  if (IsLeader(*pod)) {
    // The leader holds TPUs (it is being injected) and opens subgroup 0.
    RETURN_IF_ERROR(hosts.Add(fmt::format("{}.{}", leader_name, subdomain), port));
    end = GoSub(end, 1);
  } else {
    leader_name = GetParentNameAndOrdinal(meta.name).first;
    if (leader_name.empty()) return UnparsableParent(*pod);
    if (leader_requests && sub_group_index == 0) {
      // The TPU leader takes the first slot of subgroup 0 ...
      RETURN_IF_ERROR(hosts.Add(fmt::format("{}.{}", leader_name, subdomain), port));
      end = GoSub(end, 1);
    } else if (leader_requests) {
      // ... so every later subgroup starts one worker earlier.
      start = GoSub(start, 1);
      end = GoSub(end, 1);
    }
  }
  for (std::int64_t k = start; k <= end; ++k) {
    RETURN_IF_ERROR(hosts.Add(fmt::format("{}-{}.{}", leader_name, k, subdomain), port));
    if (k == end) break;  // end may be INT64_MAX; never increment past it.
  }
  AppendTpuEnv(container, hosts, worker_id, leader_name, port);
  return Status::Ok();
}

}  // namespace lws::api
