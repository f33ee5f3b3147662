#include "api/pod_mutation.h"

#include <fmt/format.h>

#include <memory>
#include <set>

#include "api/exclusive_placement.h"
#include "api/group_identity.h"
#include "api/lws_types.h"
#include "api/pod_names.h"
#include "api/tpu_env.h"
#include "base/mutex.h"

namespace lws::api {

namespace {

bool IsLeader(const Pod& pod) { return pod.metadata.Label(kWorkerIndexLabel) == "0"; }

const std::string* Find(const StringMap& map, const std::string& key) {
  auto it = map.find(key);
  return it == map.end() ? nullptr : &it->second;
}

Status UnparsableOrdinal(const Pod& pod) {
  return WebhookDenied(fmt::format("parsing pod ordinal for pod {}", pod.metadata.name));
}

// The leader is the first member of subgroup 0 unless the policy excludes it from subgroups.
void LabelLeaderSubGroup(Pod* pod) {
  ObjectMeta& meta = pod->metadata;
  if (!meta.annotations.contains(kSubGroupSizeAnnotation)) return;
  if (!meta.Label(kSubGroupIndexLabel).empty()) return;
  if (meta.Annotation(kSubGroupPolicyTypeAnnotation) == kSubGroupLeaderExcluded) return;
  meta.labels[kSubGroupIndexLabel] = "0";
  const std::string key = SubGroupUniqueKey(meta.name, "0");
  meta.labels[kSubGroupUniqueHashLabel] = key;
  if (const std::string* topology = Find(meta.annotations, kSubGroupExclusiveKeyAnnotation)) {
    SetExclusiveAffinities(pod, key, *topology, kSubGroupUniqueHashLabel);
  }
}

// Every Hash leader is created gated; the pod controller lifts the gate (group_replacement.h).
void AddGroupReplacementGate(Pod* pod) {
  if (HasSchedulingGate(*pod, kGroupReplacementGate)) return;
  Json& gates = pod->spec.rest["schedulingGates"];
  if (!gates.is_array()) gates = Json::array();
  gates.push_back({{"name", kGroupReplacementGate}});
}

// KEP 898: a Hash leader's identity is a random key, not an ordinal.
Status LabelHashLeader(Pod* pod, const PodMutationOptions& options) {
  ObjectMeta& meta = pod->metadata;
  // Kept when set: a webhook may be called again for the same pod (reinvocation).
  std::string key = meta.Label(kGroupUniqueHashLabel);
  if (key.empty()) {
    if (!options.random_key_suffix) {
      return Status::Internal("no random source for the group key of Hash leader " + meta.name);
    }
    key = GroupUniqueKey(meta.namespace_, options.random_key_suffix());
  }
  meta.labels[kGroupUniqueHashLabel] = key;
  meta.labels[kGroupIndexLabel] = key;
  if (pod->spec.hostname.empty()) {
    pod->spec.hostname = HashLeaderHostname(meta.Label(kSetNameLabel), key);
  }
  if (meta.Annotation(kSubdomainPolicyAnnotation) == kSubdomainUniquePerReplica) {
    pod->spec.subdomain = pod->spec.hostname;
  }
  if (const std::string* topology = Find(meta.annotations, kExclusiveKeyAnnotation)) {
    SetExclusiveAffinities(pod, key, *topology, kGroupUniqueHashLabel);
  }
  if (meta.annotations.contains(kSubGroupSizeAnnotation) &&
      meta.Label(kSubGroupIndexLabel).empty() &&
      meta.Annotation(kSubGroupPolicyTypeAnnotation) != kSubGroupLeaderExcluded) {
    const std::string sub_key = SubGroupUniqueKey(key, "0");
    meta.labels[kSubGroupIndexLabel] = "0";
    meta.labels[kSubGroupUniqueHashLabel] = sub_key;
    if (const std::string* topology = Find(meta.annotations, kSubGroupExclusiveKeyAnnotation)) {
      SetExclusiveAffinities(pod, sub_key, *topology, kSubGroupUniqueHashLabel);
    }
  }
  AddGroupReplacementGate(pod);
  return Status::Ok();
}

Status LabelLeader(Pod* pod, const PodMutationOptions& options) {
  if (IsHashGroupPod(pod->metadata)) return LabelHashLeader(pod, options);
  ObjectMeta& meta = pod->metadata;
  if (!meta.labels.contains(kGroupIndexLabel)) {
    const int group_index = GetParentNameAndOrdinal(meta.name).second;
    if (group_index == -1) return UnparsableOrdinal(*pod);
    meta.labels[kGroupIndexLabel] = std::to_string(group_index);
  }
  // UniquePerReplica: the leader's per-group Service is named after the leader pod.
  if (meta.Annotation(kSubdomainPolicyAnnotation) == kSubdomainUniquePerReplica) {
    pod->spec.subdomain = meta.name;
  }
  // The group key outlives the admission: the worker StatefulSet copies it from the leader.
  std::string group_key = meta.Label(kGroupUniqueHashLabel);
  if (!meta.labels.contains(kGroupUniqueHashLabel)) {
    group_key = GroupUniqueKey(meta.namespace_, meta.name);
    meta.labels[kGroupUniqueHashLabel] = group_key;
  }
  if (const std::string* topology = Find(meta.annotations, kExclusiveKeyAnnotation)) {
    SetExclusiveAffinities(pod, group_key, *topology, kGroupUniqueHashLabel);
  }
  LabelLeaderSubGroup(pod);
  return Status::Ok();
}

Status LabelWorker(Pod* pod, std::int64_t size) {
  ObjectMeta& meta = pod->metadata;
  const int worker_index = GetParentNameAndOrdinal(meta.name).second;
  if (worker_index == -1) return UnparsableOrdinal(*pod);
  meta.labels[kWorkerIndexLabel] = std::to_string(worker_index);

  const std::string* sub_group_size = Find(meta.annotations, kSubGroupSizeAnnotation);
  if (sub_group_size == nullptr || !meta.Label(kSubGroupIndexLabel).empty()) return Status::Ok();
  ASSIGN_OR_RETURN(const std::int64_t sgs, ParseGoInt(*sub_group_size));
  ASSIGN_OR_RETURN(const std::string index, SubGroupIndex(size, sgs, worker_index));
  // Keyed by the leader's name (Hash: the group key) so that the leader's subgroup 0 and its
  // workers share one key.
  const std::string key =
      SubGroupUniqueKey(IsHashGroupPod(pod->metadata) ? meta.Label(kGroupUniqueHashLabel)
                                                      : meta.Annotation(kLeaderPodNameAnnotation),
                        index);
  meta.labels[kSubGroupIndexLabel] = index;
  meta.labels[kSubGroupUniqueHashLabel] = key;
  if (const std::string* topology = Find(meta.annotations, kSubGroupExclusiveKeyAnnotation)) {
    SetExclusiveAffinities(pod, key, *topology, kSubGroupUniqueHashLabel);
  }
  return Status::Ok();
}

Status Mutate(Pod* pod, const PodMutationOptions& options) {
  ObjectMeta& meta = pod->metadata;
  const std::string* size_text = Find(meta.annotations, kSizeAnnotation);
  if (size_text == nullptr) {
    return WebhookDenied(
        fmt::format("size annotation is unexpectedly missing for pod {}", meta.name));
  }
  ASSIGN_OR_RETURN(const std::int64_t size, ParseGoInt(*size_text));
  RETURN_IF_ERROR(IsLeader(*pod) ? LabelLeader(pod, options) : LabelWorker(pod, size));
  if (options.gang_scheduling) {
    meta.annotations[kGangGroupNameAnnotation] = PodGroupName(
        meta.Label(kSetNameLabel), meta.Label(kGroupIndexLabel), meta.Label(kRevisionLabel));
  }
  if (PodRequestsTpus(pod->spec)) RETURN_IF_ERROR(AddTpuVariables(pod, size));
  return AddLwsVariables(pod);
}

// klog.KObj: "<namespace>/<name>", or just the name without a namespace.
std::string ObjectKey(const ObjectMeta& meta) {
  return meta.namespace_.empty() ? meta.name : meta.namespace_ + "/" + meta.name;
}

Status MissingForEnv(const Pod& pod, std::string_view what) {
  return WebhookDenied(
      fmt::format("Failure constructing environment variables, no {} found for pod {}", what,
                  ObjectKey(pod.metadata)));
}

// The new env: `first` in order, then the old entries whose name was not seen yet.
void PrependEnv(Container* container, const std::vector<EnvVar>& first) {
  std::vector<EnvVar> env = first;
  std::set<std::string> seen;
  for (const EnvVar& var : first) seen.insert(var.name);
  for (EnvVar& var : container->env) {
    if (seen.insert(var.name).second) env.push_back(std::move(var));
  }
  container->env = std::move(env);
}

// upstream k8s.io/apimachinery/pkg/util/rand: no vowels, no confusable digits.
constexpr std::string_view kRandAlphabet = "bcdfghjklmnpqrstvwxz2456789";
constexpr int kGroupKeyRandomLength = 16;

}  // namespace

std::function<std::string()> SeededKeySuffix(Rng rng) {
  struct Source {
    explicit Source(Rng r) : rng(r) {}
    Mutex mu;
    Rng rng GUARDED_BY(mu);
  };
  auto source = std::make_shared<Source>(rng);
  return [source] {
    MutexLock lock(&source->mu);
    std::string out;
    const auto last = static_cast<std::int64_t>(kRandAlphabet.size()) - 1;
    for (int i = 0; i < kGroupKeyRandomLength; ++i) {
      out += kRandAlphabet[static_cast<std::size_t>(source->rng.UniformInt(0, last))];
    }
    return out;
  };
}

Status MutateLwsPod(Pod* pod, const PodMutationOptions& options) {
  if (!pod->metadata.labels.contains(kSetNameLabel)) return Status::Ok();
  Pod mutated = *pod;
  RETURN_IF_ERROR(Mutate(&mutated, options));
  *pod = std::move(mutated);
  return Status::Ok();
}

Status AddLwsVariables(Pod* pod) {
  const ObjectMeta& meta = pod->metadata;
  const std::string* lws_name = Find(meta.labels, kSetNameLabel);
  if (lws_name == nullptr) return MissingForEnv(*pod, "name label");
  const std::string* group_index = Find(meta.labels, kGroupIndexLabel);
  if (group_index == nullptr) return MissingForEnv(*pod, "group index label");
  const std::string* size = Find(meta.annotations, kSizeAnnotation);
  if (size == nullptr) return MissingForEnv(*pod, "size annotation");
  const std::string* worker_index = Find(meta.labels, kWorkerIndexLabel);
  if (worker_index == nullptr) return MissingForEnv(*pod, "worker index label");

  // The leader-address annotation (workers of a Hash group) wins; a leader uses its hostname.
  std::string address = meta.Annotation(kLeaderAddressAnnotation);
  if (address.empty()) {
    const std::string host = IsLeader(*pod) && !pod->spec.hostname.empty()
                                 ? pod->spec.hostname
                                 : fmt::format("{}-{}", *lws_name, *group_index);
    address = fmt::format("{}.{}.{}", host, pod->spec.subdomain, meta.namespace_);
  }
  // The order matters to users who reference these variables from later ones (upstream #152).
  const std::vector<EnvVar> lws_env = {
      {kLwsLeaderAddressEnv, address, {}},
      {kLwsGroupSizeEnv, *size, {}},
      {kLwsWorkerIndexEnv, *worker_index, {}},
  };
  for (Container& c : pod->spec.containers) PrependEnv(&c, lws_env);
  for (Container& c : pod->spec.init_containers) PrependEnv(&c, lws_env);
  return Status::Ok();
}

std::string PodGroupName(std::string_view lws_name, std::string_view group_index,
                         std::string_view revision) {
  return fmt::format("{}-{}-{}", lws_name, group_index, revision);
}

Json JsonPatchBetween(const Json& before, const Json& after) { return Json::diff(before, after); }

Result<Json> MutationPatch(const Json& pod_json, const PodMutationOptions& options) {
  ASSIGN_OR_RETURN(Pod pod, Decode<Pod>(pod_json));
  const Json before = Encode(pod);
  RETURN_IF_ERROR(MutateLwsPod(&pod, options));
  return JsonPatchBetween(before, Encode(pod));
}

}  // namespace lws::api
