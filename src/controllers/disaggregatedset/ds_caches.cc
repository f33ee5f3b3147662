#include "controllers/disaggregatedset/ds_caches.h"

#include "client/resource.h"

namespace lws::disaggregatedset {
namespace {

// The index value of set `name` in `ns`.
std::string SetKey(const std::string& ns, const std::string& name) { return ns + "/" + name; }

template <class T>
std::vector<std::string> ByDsName(const T& object) {
  const std::string& name = object.metadata.Label(api::kDsNameLabel);
  if (name.empty()) return {};
  return {SetKey(object.metadata.namespace_, name)};
}

}  // namespace

DsCaches::DsCaches(EventLoop* loop, const client::Client* client)
    : sets(loop, client, kDisaggregatedSets),
      lws(loop, client, client::kLeaderWorkerSets),
      scalers(loop, client, kRoleScalers),
      services(loop, client, client::kServices) {
  lws.AddIndex(kByDsName, ByDsName<api::LeaderWorkerSet>);
  scalers.AddIndex(kByDsName, ByDsName<api::DisaggregatedSetRoleScaler>);
  services.AddIndex(kByDsName, ByDsName<api::Service>);
}

Status DsCaches::Start(std::function<void()> on_synced) {
  gate = std::make_unique<runtime::StartGate>(
      std::vector<runtime::SyncSource*>{&sets, &lws, &scalers, &services}, std::move(on_synced));
  RETURN_IF_ERROR(sets.Start());
  RETURN_IF_ERROR(lws.Start());
  RETURN_IF_ERROR(scalers.Start());
  return services.Start();
}

void DsCaches::Stop() {
  sets.Stop();
  lws.Stop();
  scalers.Stop();
  services.Stop();
  gate.reset();
}

std::vector<const api::LeaderWorkerSet*> DsCaches::Lws(const std::string& ns,
                                                       const std::string& name) const {
  return lws.ByIndex(kByDsName, SetKey(ns, name));
}

std::vector<const api::DisaggregatedSetRoleScaler*> DsCaches::Scalers(
    const std::string& ns, const std::string& name) const {
  return scalers.ByIndex(kByDsName, SetKey(ns, name));
}

std::vector<const api::Service*> DsCaches::Services(const std::string& ns,
                                                    const std::string& name) const {
  return services.ByIndex(kByDsName, SetKey(ns, name));
}

}  // namespace lws::disaggregatedset
