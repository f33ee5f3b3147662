#include "controllers/disaggregatedset/services.h"

#include <map>
#include <set>

#include "controllers/disaggregatedset/child_lws.h"
#include "controllers/disaggregatedset/naming.h"

namespace lws::disaggregatedset {
namespace {

using RolesOfRevision = std::map<std::string, const OwnedLws*>;

// upstream revisionReadyOnAllRoles: every role of the spec has an LWS of the revision with at
// least one ready group.
bool ReadyOnAllRoles(const api::DisaggregatedSet& ds, const RolesOfRevision& roles) {
  for (const auto& role : ds.spec.roles) {
    auto it = roles.find(role.name);
    if (it == roles.end() || it->second->ready_replicas < 1) return false;
  }
  return true;
}

api::Service HeadlessService(const api::DisaggregatedSet& ds, const OwnedLws& lws) {
  api::Service service;
  service.metadata.name = ServiceName(lws.name);
  service.metadata.namespace_ = ds.metadata.namespace_;
  api::StringMap selector;
  selector.emplace(api::kDsNameLabel, ds.metadata.name);
  selector.emplace(api::kDsRoleLabel, lws.role);
  selector.emplace(api::kDsRevisionLabel, lws.revision);
  // An LWS from before slices has no slice label: its pods neither, so the selector leaves the
  // slice out.
  if (lws.slice_labelled) selector.emplace(api::kDsSliceLabel, std::to_string(lws.slice));
  service.metadata.labels = selector;
  service.metadata.owner_references.push_back(ControllerRef(ds));
  service.spec.selector = std::move(selector);
  service.spec.cluster_ip = "None";
  return service;
}

}  // namespace

ServicePlan PlanServices(const api::DisaggregatedSet& ds, int slice, const std::string& revision,
                         const std::vector<OwnedLws>& slice_lws,
                         const std::vector<OwnedService>& services) {
  std::map<std::string, RolesOfRevision> by_revision;
  for (const OwnedLws& l : slice_lws) by_revision[l.revision].emplace(l.role, &l);
  ServicePlan plan;
  auto target = by_revision.find(revision);
  if (target == by_revision.end() || !ReadyOnAllRoles(ds, target->second)) return plan;

  std::set<std::string> existing;
  for (const OwnedService& s : services) existing.insert(s.name);
  for (const auto& role : ds.spec.roles) {
    auto it = target->second.find(role.name);
    if (it == target->second.end() || existing.count(ServiceName(it->second->name))) continue;
    plan.create.push_back(HeadlessService(ds, *it->second));
  }
  std::set<std::string> ready = {revision};
  for (const auto& [rev, roles] : by_revision) {
    if (ReadyOnAllRoles(ds, roles)) ready.insert(rev);
  }
  for (const OwnedService& s : services) {
    if (s.slice == slice && !ready.count(s.revision)) plan.delete_names.push_back(s.name);
  }
  return plan;
}

}  // namespace lws::disaggregatedset
