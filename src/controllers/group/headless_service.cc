#include "controllers/group/headless_service.h"

#include <utility>

#include "api/group_identity.h"

namespace lws::controllers {

api::OwnerReference ControllerRefTo(std::string api_version, std::string kind, std::string name,
                                    std::string uid) {
  api::OwnerReference ref;
  ref.api_version = std::move(api_version);
  ref.kind = std::move(kind);
  ref.name = std::move(name);
  ref.uid = std::move(uid);
  ref.controller = true;
  ref.block_owner_deletion = true;
  return ref;
}

api::Service HeadlessService(const std::string& ns, const std::string& name,
                             const std::string& lws_name, api::StringMap selector,
                             api::OwnerReference owner) {
  api::Service service;
  service.metadata.name = name;
  service.metadata.namespace_ = ns;
  service.metadata.labels = {{api::kSetNameLabel, lws_name}};
  service.metadata.owner_references = {std::move(owner)};
  service.spec.cluster_ip = "None";
  service.spec.selector = std::move(selector);
  service.spec.publish_not_ready_addresses = true;
  return service;
}

api::Service SharedHeadlessService(const api::LeaderWorkerSet& lws) {
  const auto& meta = lws.metadata;
  return HeadlessService(meta.namespace_, meta.name, meta.name, {{api::kSetNameLabel, meta.name}},
                         ControllerRefTo(std::string(api::kLwsApiVersion),
                                         std::string(api::kLwsKind), meta.name, meta.uid));
}

std::string GroupServiceName(const api::LeaderWorkerSet& lws, const api::Pod& leader) {
  if (api::IsHashIdentity(lws) && !leader.spec.subdomain.empty()) return leader.spec.subdomain;
  return leader.metadata.name;
}

api::Service GroupHeadlessService(const api::LeaderWorkerSet& lws, const api::Pod& leader) {
  const auto& meta = lws.metadata;
  api::StringMap selector = {
      {api::kSetNameLabel, meta.name},
      {api::kGroupIndexLabel, leader.metadata.Label(api::kGroupIndexLabel)},
  };
  return HeadlessService(meta.namespace_, GroupServiceName(lws, leader), meta.name,
                         std::move(selector),
                         ControllerRefTo("v1", "Pod", leader.metadata.name, leader.metadata.uid));
}

}  // namespace lws::controllers
