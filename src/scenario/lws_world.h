// File: scenario/lws_world.h
//
// Everything `lws up` runs, on a virtual clock: the embedded API server with the LWS webhooks in
// its admission chain, the simulated cluster (node pools, scheduler, kubelets, StatefulSet
// controller, garbage collector) and the LWS controllers (and, when asked, the DisaggregatedSet
// controller), on one VirtualLoop. A run is a function
// of the cluster spec, the workload and the seed (DESIGN.md 2.3). Tests drive it as users drive
// `lws up`: through the API, with a "kubectl" client, and read what kubectl would read.
//
// With KubeletMode::kManual pods are bound but never started; MarkGroupReady plays the part of
// the upstream integration tests' SetPodGroupToReady, through the pod status subresource.
//
// Threading: single-threaded; everything runs on the loop, which the caller advances.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "api/apps.h"
#include "api/lws_types.h"
#include "api/pod.h"
#include "client/faulty_client.h"
#include "client/local/local_client.h"
#include "client/local/local_testing.h"
#include "cluster/cluster_spec.h"
#include "cluster/kubelet.h"
#include "cluster/local_cluster.h"
#include "controllers/disaggregatedset/ds_manager.h"
#include "controllers/lws/manager.h"

namespace lws::scenario {

using api::Json;

struct WorldOptions {
  cluster::ClusterSpec cluster;
  std::uint64_t seed = 1;
  cluster::KubeletMode kubelet = cluster::KubeletMode::kAuto;
  bool start_controller = true;
  // The LWS controllers talk to the API through a client::FaultyClient (controller_client()),
  // with faults off until a test turns them on; it outlives controller restarts, as the network
  // between a controller and its API server does.
  bool faulty_controller_client = false;
  // The same for the cluster's StatefulSet controller (statefulset_client()).
  bool faulty_statefulset_client = false;
  // The DisaggregatedSet CRDs are installed and its controller runs next to the LWS controllers
  // (through the same client, so that it meets the same faults and restarts with them).
  bool disaggregatedset = false;
};

class LwsWorld {
 public:
  explicit LwsWorld(WorldOptions options);
  ~LwsWorld();

  // Starts the cluster and the controllers (as tasks on the loop) and runs the loop until idle
  // enough for the nodes to exist.
  Status Start();

  VirtualLoop& loop() { return control_plane_.loop; }
  const client::LocalClient& user() const { return user_; }
  store::Store* store() { return control_plane_.store.get(); }
  apiserver::ApiServer* server() { return control_plane_.server.get(); }
  cluster::LocalCluster& cluster() { return *cluster_; }
  controllers::LwsManager* manager() { return manager_.get(); }
  disaggregatedset::DsManager* ds_manager() { return ds_manager_.get(); }
  // null unless WorldOptions::faulty_controller_client.
  client::FaultyClient* controller_client() { return controller_client_.get(); }
  // null unless WorldOptions::faulty_statefulset_client.
  client::FaultyClient* statefulset_client() { return statefulset_client_.get(); }

  // The controller loses its caches and starts again from the API (a controller restart).
  Status RestartController();
  void StopController();
  Status StartController(controllers::LwsManagerOptions options = {});

  // Runs the loop in steps of `step` until `done()` holds or `limit` of virtual time passed.
  bool RunUntil(const std::function<bool()>& done, Duration limit,
                Duration step = std::chrono::milliseconds(100));
  void RunFor(Duration d) { loop().RunFor(d); }

  // ---- Reads, as kubectl get would return them (nullopt when absent) ----
  std::optional<api::LeaderWorkerSet> Lws(const std::string& name) const;
  std::optional<api::StatefulSet> StatefulSet(const std::string& name) const;
  std::optional<api::Pod> Pod(const std::string& name) const;
  // Objects of namespace default whose labels include `labels`, sorted by name.
  std::vector<api::Pod> Pods(const api::StringMap& labels) const;
  std::vector<api::StatefulSet> StatefulSets(const api::StringMap& labels) const;
  std::vector<Json> List(const client::Resource& resource, const api::StringMap& labels = {}) const;
  // The ControllerRevisions LWS `name` controls (not its StatefulSets' revisions).
  std::vector<Json> LwsRevisions(const std::string& name) const;
  // The condition `type` of LWS `name`; an empty Condition (status "") when either is absent.
  api::Condition LwsCondition(const std::string& name, const std::string& type) const;
  // Events of namespace default whose reason is `reason` (all when ""), oldest first.
  std::vector<api::Event> Events(const std::string& reason = "") const;

  // ---- Writes, as the user ----
  Result<store::ObjectPtr> Create(const client::Resource& resource, const Json& object) const;
  Result<store::ObjectPtr> MergePatch(const client::Resource& resource, const std::string& name,
                                      const Json& patch, const std::string& subresource = "") const;
  Result<store::ObjectPtr> Delete(const client::Resource& resource, const std::string& name) const;

  // kManual: marks every pod of group `group` of LWS `lws` Running and Ready (status subresource).
  Status MarkGroupReady(const std::string& lws, int group) const;
  Status MarkPodReady(const std::string& pod, bool ready = true) const;

 private:
  Status InstallDisaggregatedSetCrds();
  // A client of the embedded API server with the LWS controllers' field manager.
  std::unique_ptr<const client::Client> ControllerLocalClient();

  WorldOptions options_;
  client::testing::ControlPlane control_plane_;
  client::LocalClient user_;
  // The StatefulSet controller's faulty client and its inner client: before the cluster.
  std::unique_ptr<client::LocalClient> statefulset_local_;
  std::unique_ptr<client::FaultyClient> statefulset_client_;
  std::unique_ptr<cluster::LocalCluster> cluster_;
  // The faulty client's inner client and the faulty client: before the manager, which uses them.
  std::unique_ptr<client::LocalClient> controller_local_;
  std::unique_ptr<client::FaultyClient> controller_client_;
  std::unique_ptr<controllers::LwsManager> manager_;
  std::unique_ptr<disaggregatedset::DsManager> ds_manager_;
};

// ---- Builders --------------------------------------------------------------------------------

// One pool of `nodes` nodes with `gpus` GPUs each, pods Ready `startup_seconds` after binding.
cluster::ClusterSpec GpuCluster(int nodes, int gpus, int startup_seconds = 5);

struct LwsShape {
  std::string name = "test-sample";
  int replicas = 2;
  int size = 2;
  Json max_unavailable = 1;  // int or "25%"
  Json max_surge = 0;
  int partition = 0;
  int gpus = 1;  // nvidia.com/gpu per pod (0: none)
  std::string image = "vllm/vllm-openai:v0.6.0";
  std::string restart_policy = "RecreateGroupOnPodRestart";
  std::string startup_policy = "LeaderCreated";
  std::string subdomain_policy = "Shared";
  int sub_group_size = 0;  // 0: no subGroupPolicy
};

// A merge patch that sets the worker template's container "worker" to `image`: a template change,
// hence a new revision and a rolling update.
Json WorkerImagePatch(const std::string& image = "vllm/vllm-openai:v0.6.1");

// The upstream integration tests' default LWS (lws-scenarios.md section 0), shaped by `shape`.
Json LwsObject(const LwsShape& shape);

}  // namespace lws::scenario
