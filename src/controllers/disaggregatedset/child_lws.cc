#include "controllers/disaggregatedset/child_lws.h"

#include "controllers/disaggregatedset/naming.h"
#include "controllers/disaggregatedset/placement.h"

namespace lws::disaggregatedset {
namespace {

// The role's labels with the DisaggregatedSet's over them (system labels win, upstream's merge).
api::StringMap Merged(const api::StringMap& user, const api::StringMap& system) {
  api::StringMap out = user;
  for (const auto& [key, value] : system) out[key] = value;
  return out;
}

void LabelTemplate(const api::StringMap& system, const api::DisaggregatedSet& ds, int slice,
                   api::PodTemplateSpec* pod) {
  pod->metadata.labels = Merged(pod->metadata.labels, system);
  SetPlacementAffinities(ds, slice, &pod->spec);
}

}  // namespace

api::OwnerReference ControllerRef(const api::DisaggregatedSet& ds) {
  api::OwnerReference ref;
  ref.api_version = std::string(api::kDsApiVersion);
  ref.kind = std::string(api::kDsKind);
  ref.name = ds.metadata.name;
  ref.uid = ds.metadata.uid;
  ref.controller = true;
  return ref;
}

bool ControlledBy(const api::ObjectMeta& meta, const api::DisaggregatedSet& ds) {
  const api::OwnerReference* controller = meta.ControllerRef();
  return controller != nullptr && controller->uid == ds.metadata.uid;
}

api::LeaderWorkerSet ChildLws(const api::DisaggregatedSet& ds,
                              const api::DisaggregatedRoleSpec& role, int slice,
                              const std::string& revision, int replicas) {
  const api::StringMap system = DsLabels(ds.metadata.name, slice, revision, role.name);
  api::LeaderWorkerSet lws;
  lws.metadata.name = LwsName(ds.metadata.name, slice, revision, role.name);
  lws.metadata.namespace_ = ds.metadata.namespace_;
  lws.metadata.labels = Merged(role.metadata.labels, system);
  lws.metadata.annotations = role.metadata.annotations;
  lws.metadata.owner_references.push_back(ControllerRef(ds));
  lws.spec = role.spec;
  lws.spec.replicas = replicas;
  auto& lwt = lws.spec.leader_worker_template;
  LabelTemplate(system, ds, slice, &lwt.worker_template);
  if (lwt.leader_template) LabelTemplate(system, ds, slice, &*lwt.leader_template);
  return lws;
}

}  // namespace lws::disaggregatedset
