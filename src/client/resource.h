// File: client/resource.h
//
// The resources the cluster's controllers read and write, named as the API addresses them
// (group, version, plural), and the URL paths the API server routes them by.
#pragma once

#include <string>
#include <string_view>

namespace lws::api {
struct ResourceInfo;
}  // namespace lws::api

namespace lws::client {

struct Resource {
  std::string group;  // "" for the core group
  std::string version;
  std::string resource;  // plural
  bool namespaced = true;

  std::string ApiVersion() const { return group.empty() ? version : group + "/" + version; }
  // "/api/v1/namespaces/<ns>/pods[/<name>[/<subresource>]]"; `ns` is ignored for cluster-scoped
  // resources, and an empty `ns` addresses every namespace.
  std::string Path(std::string_view ns, std::string_view name = {},
                   std::string_view subresource = {}) const;
};

// The resource a registry entry serves, in the version the registry lists (what the garbage
// collector and the namespace deleter write in: they act on every resource served).
Resource ResourceOf(const api::ResourceInfo& info);

inline const Resource kPods{"", "v1", "pods"};
inline const Resource kNodes{"", "v1", "nodes", false};
inline const Resource kNamespaces{"", "v1", "namespaces", false};
inline const Resource kEvents{"", "v1", "events"};
inline const Resource kServices{"", "v1", "services"};
inline const Resource kPersistentVolumeClaims{"", "v1", "persistentvolumeclaims"};
inline const Resource kStatefulSets{"apps", "v1", "statefulsets"};
inline const Resource kControllerRevisions{"apps", "v1", "controllerrevisions"};
inline const Resource kReplicaSets{"apps", "v1", "replicasets"};
inline const Resource kDeployments{"apps", "v1", "deployments"};
inline const Resource kLeases{"coordination.k8s.io", "v1", "leases"};
inline const Resource kPodDisruptionBudgets{"policy", "v1", "poddisruptionbudgets"};
inline const Resource kDaemonSets{"apps", "v1", "daemonsets"};
inline const Resource kJobs{"batch", "v1", "jobs"};
inline const Resource kLeaderWorkerSets{"leaderworkerset.x-k8s.io", "v1", "leaderworkersets"};
inline const Resource kDisaggregatedSets{"disaggregatedset.x-k8s.io", "v1", "disaggregatedsets"};
inline const Resource kRoleScalers{"disaggregatedset.x-k8s.io", "v1",
                                   "disaggregatedsetrolescalers"};
// Volcano's PodGroups (a CRD: served only where Volcano, or a test, installed it).
inline const Resource kPodGroups{"scheduling.volcano.sh", "v1beta1", "podgroups"};

}  // namespace lws::client
