// The Volcano PodGroup of a group (pod_group.h).
#include "controllers/group/pod_group.h"

#include "api/codec.h"
#include "api/pod_requests.h"

namespace lws::controllers {

api::ResourceList PodGroupMinResources(const api::LeaderWorkerSet& lws) {
  const auto& tmpl = lws.spec.leader_worker_template;
  const api::PodSpec& leader_spec =
      tmpl.leader_template ? tmpl.leader_template->spec : tmpl.worker_template.spec;
  api::ResourceList total = api::PodSpecRequests(leader_spec);
  const api::ResourceList worker = api::PodSpecRequests(tmpl.worker_template.spec);
  for (std::int32_t i = 0; i + 1 < lws.Size(); ++i) {
    for (const auto& [name, amount] : worker) total[name] += amount;
  }
  return total;
}

api::Json PodGroupFor(const api::LeaderWorkerSet& lws, const api::Pod& leader) {
  api::Json labels = {{api::kSetNameLabel, lws.metadata.name},
                      {api::kGroupIndexLabel, leader.metadata.Label(api::kGroupIndexLabel)},
                      {api::kRevisionLabel, leader.metadata.Label(api::kRevisionLabel)}};
  api::Json annotations = api::Json::object();
  for (const auto& [key, value] : lws.metadata.annotations) {
    if (key.rfind("volcano.sh/", 0) == 0) annotations[key] = value;
  }
  api::Json meta = {{"name", leader.metadata.annotations.at(api::kGangGroupNameAnnotation)},
                    {"namespace", lws.metadata.namespace_},
                    {"labels", std::move(labels)}};
  if (!annotations.empty()) meta["annotations"] = std::move(annotations);
  meta["ownerReferences"] = api::Json::array({{{"apiVersion", "v1"},
                                               {"kind", "Pod"},
                                               {"name", leader.metadata.name},
                                               {"uid", leader.metadata.uid},
                                               {"controller", true},
                                               {"blockOwnerDeletion", true}}});
  const std::int32_t min_member =
      lws.spec.startup_policy == api::kLeaderReadyStartupPolicy ? 1 : lws.Size();
  api::Json spec = {{"minMember", min_member}};
  api::Json min_resources = api::Json::object();
  for (const auto& [name, amount] : PodGroupMinResources(lws))
    min_resources[name] = amount.String();
  if (!min_resources.empty()) spec["minResources"] = std::move(min_resources);
  auto queue = lws.metadata.annotations.find(kVolcanoQueueAnnotation);
  if (queue != lws.metadata.annotations.end() && !queue->second.empty())
    spec["queue"] = queue->second;
  return {{"apiVersion", kPodGroupApiVersion},
          {"kind", "PodGroup"},
          {"metadata", std::move(meta)},
          {"spec", std::move(spec)}};
}

}  // namespace lws::controllers
