#include "api/lws_types.h"

namespace lws::api {

const PodTemplateSpec& LeaderWorkerSet::LeaderTemplate() const {
  const auto& t = spec.leader_worker_template;
  return t.leader_template ? *t.leader_template : t.worker_template;
}

bool LeaderWorkerSet::UniquePerReplica() const {
  return spec.network_config && spec.network_config->subdomain_policy &&
         *spec.network_config->subdomain_policy == kSubdomainUniquePerReplica;
}

}  // namespace lws::api
