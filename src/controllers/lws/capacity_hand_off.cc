// The capacity hand-off's decisions (capacity_hand_off.h).
#include "controllers/lws/capacity_hand_off.h"

#include <fmt/format.h>

#include "api/codec.h"
#include "api/field.h"
#include "api/intstr.h"
#include "api/pod_requests.h"
#include "api/rollout_annotations.h"

namespace lws::controllers {
namespace {

using api::Json;
using api::kHandOffForAnnotation;
using api::kHandOffOfLabel;
using api::kHandOffUntilAnnotation;

// Whether `pod` keeps its place in `lws` (a group index below replicas and a worker index below
// size): only such a pod is replaced after it leaves. A pod of a surge group or of a group scaled
// away is not, and holding its node would only keep it from others.
bool WillBeReplaced(const api::LeaderWorkerSet& lws, const api::Pod& pod) {
  Result<std::int64_t> group = api::GoAtoi(pod.metadata.Label(api::kGroupIndexLabel));
  Result<std::int64_t> worker = api::GoAtoi(pod.metadata.Label(api::kWorkerIndexLabel));
  return group.ok() && worker.ok() && *group >= 0 && *worker >= 0 && *group < lws.Replicas() &&
         *worker < lws.Size();
}

std::optional<Time> HeldUntil(const api::Pod& placeholder) {
  Result<Time> until = ParseRfc3339(placeholder.metadata.Annotation(kHandOffUntilAnnotation));
  return until.ok() ? std::optional<Time>(*until) : std::nullopt;
}

HandOffDecision Delete(std::string reason) {
  return {HandOffStep::kDelete, std::move(reason), std::nullopt};
}

// Not terminating and not bound: a pod that waits for a node.
bool Pending(const api::Pod& pod) {
  return !pod.metadata.IsDeleting() && pod.spec.node_name.empty();
}

// Whether `pod` asks for no more of any resource than `held`: the node it frees fits it.
bool FitsIn(const api::Pod& pod, const api::ResourceList& held) {
  for (const auto& [name, amount] : api::PodSpecRequests(pod.spec)) {
    if (amount.IsZero()) continue;
    auto it = held.find(name);
    if (it == held.end() || amount > it->second) return false;
  }
  return true;
}

// A pod of the LWS the node held can go to: pending, tried by the scheduler, fitting, and not
// one another hold waits for (one node for one pod): P's replacement first.
const api::Pod* WaitingPod(const HandOffInput& in) {
  const std::string held = HeldPodName(*in.placeholder);
  const api::ResourceList room = api::PodSpecRequests(in.placeholder->spec);
  // PodScheduled set: the scheduler has tried the pod, so it is in the scheduler's queue and the
  // node freed next goes to it ahead of pods of lower priority.
  auto waiting = [&](const api::Pod& pod) {
    return Pending(pod) && pod.status.FindCondition("PodScheduled") != nullptr && FitsIn(pod, room);
  };
  if (in.pod != nullptr && waiting(*in.pod)) return in.pod;
  for (const api::Pod* pod : in.lws_pods) {
    if (pod->metadata.name == held || in.held_for.count(pod->metadata.name) > 0) continue;
    if (waiting(*pod)) return pod;
  }
  return nullptr;
}

bool AnyPending(const HandOffInput& in) {
  for (const api::Pod* pod : in.lws_pods) {
    if (Pending(*pod)) return true;
  }
  return false;
}

HandOffDecision PlanWithPlaceholder(const HandOffInput& in, Duration hand_off) {
  const api::Pod& holder = *in.placeholder;
  std::optional<Time> until = HeldUntil(holder);
  if (!until || in.now >= *until || *until - in.now > hand_off) {
    const std::string node = holder.spec.node_name.empty() ? "its node" : holder.spec.node_name;
    return Delete(fmt::format("the hand-off of {} for pod {} reached its deadline", node,
                              HeldPodName(holder)));
  }
  const HandOffDecision keep{HandOffStep::kNone, "", until};
  // Handing over before the placeholder holds the node would free it for whichever pod the
  // scheduler sees first.
  if (holder.spec.node_name.empty()) return keep;
  if (const api::Pod* waiting = WaitingPod(in)) {
    return Delete(
        fmt::format("{} handed to pod {}", holder.spec.node_name, waiting->metadata.name));
  }
  const api::Pod* replacement = in.pod;
  if (replacement != nullptr && !replacement->metadata.IsDeleting() &&
      !replacement->spec.node_name.empty() && !AnyPending(in)) {
    return Delete(fmt::format("the replacement of pod {} is scheduled on {}",
                              replacement->metadata.name, replacement->spec.node_name));
  }
  return keep;
}

}  // namespace

constexpr std::string_view kPlaceholderSuffix = "-hand-off";

std::string PlaceholderName(const std::string& pod_name) {
  return pod_name + std::string(kPlaceholderSuffix);
}

bool IsPlaceholderName(const std::string& lws, const std::string& name) {
  return name.size() > lws.size() + kPlaceholderSuffix.size() && name.starts_with(lws + "-") &&
         name.ends_with(kPlaceholderSuffix);
}

std::string HeldPodName(const api::Pod& pod) {
  if (pod.metadata.Label(kHandOffOfLabel).empty()) return "";
  return pod.metadata.Annotation(kHandOffForAnnotation);
}

HandOffDecision PlanHandOff(const HandOffInput& in) {
  std::optional<Duration> hand_off;
  if (in.lws != nullptr) hand_off = api::ReadRolloutBehaviours(in.lws->metadata).capacity_hand_off;
  if (in.placeholder != nullptr) {
    if (in.placeholder->metadata.IsDeleting()) return {};
    if (!hand_off) {
      return Delete(in.lws == nullptr ? "the LeaderWorkerSet is gone"
                                      : "the LeaderWorkerSet no longer asks for a hand-off");
    }
    return PlanWithPlaceholder(in, *hand_off);
  }
  if (!hand_off || in.lws->metadata.IsDeleting()) return {};
  const api::Pod* leaving = in.pod != nullptr && in.pod->metadata.IsDeleting() ? in.pod : nullptr;
  if (in.pod == nullptr) leaving = in.departed;
  if (leaving == nullptr || leaving->spec.node_name.empty()) return {};
  const api::Pod& pod = *leaving;
  if (pod.metadata.Label(api::kSetNameLabel) != in.lws->metadata.name) return {};
  if (!WillBeReplaced(*in.lws, pod)) return {};
  return {HandOffStep::kCreate, "", in.now + *hand_off};
}

Json PlaceholderPod(const api::LeaderWorkerSet& lws, const api::Pod& pod, Time until) {
  Json resources = Json::object();
  for (const auto& [name, amount] : api::PodSpecRequests(pod.spec)) {
    if (!amount.IsZero()) resources[name] = amount.String();
  }
  // Requests equal to limits: extended resources (GPUs) allow nothing else.
  Json container = {{"name", "hold"},
                    {"image", kPlaceholderImage},
                    {"resources", {{"requests", resources}, {"limits", resources}}}};
  Json term = {{"matchFields", Json::array({{{"key", "metadata.name"},
                                             {"operator", "In"},
                                             {"values", Json::array({pod.spec.node_name})}}})}};
  Json spec = {{"containers", Json::array({std::move(container)})},
               {"affinity",
                {{"nodeAffinity",
                  {{"requiredDuringSchedulingIgnoredDuringExecution",
                    {{"nodeSelectorTerms", Json::array({std::move(term)})}}}}}}},
               {"terminationGracePeriodSeconds", 0},
               {"tolerations", api::codec::EncodeValue(pod.spec.tolerations)}};
  if (!pod.spec.scheduler_name.empty()) spec["schedulerName"] = pod.spec.scheduler_name;
  // The class, not spec.priority: the Priority admission sets the value from it, and refuses a
  // value that was given with it.
  std::string class_name = api::ReadRolloutBehaviours(lws.metadata).hand_off_priority_class;
  if (class_name.empty()) class_name = api::StringMember(pod.spec.rest, "priorityClassName");
  if (!class_name.empty()) spec["priorityClassName"] = class_name;
  Json owner = {{"apiVersion", lws.api_version},
                {"kind", "LeaderWorkerSet"},
                {"name", lws.metadata.name},
                {"uid", lws.metadata.uid}};
  Json metadata = {{"name", PlaceholderName(pod.metadata.name)},
                   {"namespace", pod.metadata.namespace_},
                   {"labels", {{kHandOffOfLabel, lws.metadata.name}}},
                   {"annotations",
                    {{kHandOffForAnnotation, pod.metadata.name},
                     {kHandOffUntilAnnotation, FormatRfc3339(until)}}},
                   {"ownerReferences", Json::array({std::move(owner)})}};
  return {{"apiVersion", "v1"},
          {"kind", "Pod"},
          {"metadata", std::move(metadata)},
          {"spec", std::move(spec)}};
}

}  // namespace lws::controllers
