// The LWS controllers with reconcile workers, as `lws controller` runs them
// (--concurrent-lws-syncs,
// --concurrent-group-syncs), on the real clock next to the simulated cluster: four LWSs become
// Available and their rolling updates, side by side, replace every group exactly once.
//
// Every other scenario runs the reconciles on the loop, one at a time; only this test runs them
// on worker threads, reading the shared caches while the loop delivers watch events into them.
// Session 17's race (two workers writing one map) lived there and was found only by the
// operator's end-to-end script. Under a ThreadSanitizer build this test is the one that can
// catch such races; in the normal build it checks the outcome.
#include <gtest/gtest.h>

#include <chrono>
#include <map>
#include <thread>

#include "api/codec.h"
#include "api/lws_types.h"
#include "base/run_on_loop.h"
#include "client/local/local_client.h"
#include "client/local/local_testing.h"
#include "client/resource.h"
#include "cluster/local_cluster.h"
#include "controllers/admission/lws_webhooks.h"
#include "controllers/lws/manager.h"
#include "scenario/lws_world.h"

namespace lws::scenario {
namespace {

using namespace std::chrono_literals;

// Real seconds a step may take before the test gives up (the run itself takes a few).
constexpr auto kPatience = 90s;

admission::AdmissionChain LwsAdmission() {
  admission::AdmissionChain admission;
  controllers::InstallLwsWebhooks(&admission);
  return admission;
}

class ConcurrentReconciles : public ::testing::Test {
 protected:
  void SetUp() override {
    user_ = std::make_unique<client::LocalClient>(server_, store_, "kubectl");

    cluster::ClusterSpec spec = GpuCluster(8, 8);
    spec.pools[0].startup = {cluster::Distribution::Kind::kFixed, 0.2, 0};
    spec.pools[0].termination = 100ms;
    cluster_ = std::make_unique<cluster::LocalCluster>(&loop_, client::LocalApi{server_, store_},
                                                       spec, cluster::LocalClusterOptions{});
    controllers::LwsManagerOptions workers;
    workers.lws_workers = 4;
    workers.group_workers = 4;
    manager_ = std::make_unique<controllers::LwsManager>(
        &loop_,
        std::make_unique<client::LocalClient>(server_, store_,
                                              std::string(controllers::kLwsFieldManager)),
        workers);
    Status started = RunOnLoop(&loop_, [this] {
      RETURN_IF_ERROR(cluster_->Start());
      return manager_->Start();
    });
    ASSERT_TRUE(started.ok()) << started.ToString();
  }

  void TearDown() override {
    (void)RunOnLoop(&loop_, [this] {
      manager_->Stop();
      cluster_->Stop();
      return Status::Ok();
    });
    loop_.Stop();
  }

  std::optional<api::LeaderWorkerSet> Lws(const std::string& name) const {
    auto stored = user_->Get(client::kLeaderWorkerSets, "default", name);
    if (!stored.ok()) return std::nullopt;
    auto lws = api::Decode<api::LeaderWorkerSet>((*stored)->document());
    return lws.ok() ? std::optional(*lws) : std::nullopt;
  }

  // True once the status of LWS `name` describes generation `generation` rolled out: every
  // group updated and ready, Available, no update in progress.
  bool RolledOut(const std::string& name, std::int64_t generation) const {
    std::optional<api::LeaderWorkerSet> lws = Lws(name);
    if (!lws || lws->status.observed_generation != generation) return false;
    bool available = false, updating = false;
    for (const auto& c : lws->status.conditions) {
      if (c.type == "Available") available = c.status == "True";
      if (c.type == "UpdateInProgress") updating = c.status == "True";
    }
    return available && !updating && lws->status.ready_replicas == kGroups &&
           lws->status.updated_replicas == kGroups;
  }

  // Polls `done` from the test's thread (reads go straight to the store, which is thread-safe).
  bool WaitFor(const std::function<bool()>& done) const {
    const auto deadline = std::chrono::steady_clock::now() + kPatience;
    while (!done()) {
      if (std::chrono::steady_clock::now() > deadline) return false;
      std::this_thread::sleep_for(20ms);
    }
    return true;
  }

  bool AllRolledOut(std::int64_t generation) const {
    for (const char* name : kNames) {
      if (!RolledOut(name, generation)) return false;
    }
    return true;
  }

  // What a failure message shows: the LWSs' status and every pod's phase and node.
  std::string Describe() const {
    std::string out;
    for (const char* name : kNames) {
      auto lws = user_->Get(client::kLeaderWorkerSets, "default", name);
      if (lws.ok()) out += api::ChildOrNull((*lws)->document(), "status").dump() + "\n";
    }
    store::ListOptions in_default;
    in_default.namespace_ = "default";
    auto pods = user_->List(client::kPods, in_default);
    if (!pods.ok()) return out;
    for (const store::ObjectPtr& pod : pods->items) {
      const Json& json = pod->document();
      out += store::MetaString(json, "name") + " " +
             api::StringMember(api::ChildOrNull(json, "status"), "phase") + " on " +
             api::StringMember(api::ChildOrNull(json, "spec"), "nodeName") + "\n";
    }
    return out;
  }

  // How many times the StatefulSet controller created each pod, from its SuccessfulCreate events
  // ("create Pod <pod> in StatefulSet <set> successful").
  std::map<std::string, int> PodCreations() const {
    std::map<std::string, int> creations;
    store::ListOptions in_default;
    in_default.namespace_ = "default";
    auto events = user_->List(client::kEvents, in_default);
    if (!events.ok()) return creations;
    for (const store::ObjectPtr& item : events->items) {
      auto event = api::Decode<api::Event>(item->document());
      if (!event.ok() || event->reason != "SuccessfulCreate") continue;
      const std::string& note = event->message;
      const std::string prefix = "create Pod ";
      if (note.rfind(prefix, 0) != 0) continue;
      std::string pod = note.substr(prefix.size(), note.find(' ', prefix.size()) - prefix.size());
      creations[pod] += event->count > 0 ? static_cast<int>(event->count) : 1;
    }
    return creations;
  }

  // Several LWSs: reconciles of one key never overlap, so only different LWSs (and groups) share
  // the controllers' state across workers.
  static constexpr const char* kNames[] = {"alpha", "beta", "gamma", "delta"};
  static constexpr int kGroups = 4;
  static constexpr int kSize = 3;

  RealEventLoop loop_;
  client::testing::InMemoryControlPlane planes_{&loop_.clock(), /*seed=*/7,
                                                /*install_lws_crd=*/true, LwsAdmission()};
  store::Store* const store_ = planes_.store.get();
  apiserver::ApiServer* const server_ = planes_.server.get();
  std::unique_ptr<client::LocalClient> user_;
  std::unique_ptr<cluster::LocalCluster> cluster_;
  std::unique_ptr<controllers::LwsManager> manager_;
};

TEST_F(ConcurrentReconciles, RollingUpdatesReplaceEveryGroupOnce) {
  for (const char* name : kNames) {
    LwsShape shape;
    shape.name = name;
    shape.replicas = kGroups;
    shape.size = kSize;
    shape.max_unavailable = 1;
    shape.max_surge = 1;
    auto created = user_->Create(client::kLeaderWorkerSets, LwsObject(shape));
    ASSERT_TRUE(created.ok()) << created.status().ToString();
  }
  ASSERT_TRUE(WaitFor([&] { return AllRolledOut(1); })) << "never Available:\n" << Describe();

  for (const char* name : kNames) {
    auto patched = user_->Patch(client::kLeaderWorkerSets, "default", name,
                                client::PatchType::kMerge, WorkerImagePatch());
    ASSERT_TRUE(patched.ok()) << patched.status().ToString();
  }
  ASSERT_TRUE(WaitFor([&] { return AllRolledOut(2); })) << "the rolling updates never completed:\n"
                                                        << Describe();

  // Each group's pods were created twice, once for each revision: no group was recreated by a
  // reconcile that read a stale or half-updated cache. (A surge group, index kGroups, comes and
  // goes during the update; its pods were made once.)
  std::map<std::string, int> creations = PodCreations();
  for (const char* name : kNames) {
    for (int group = 0; group < kGroups; ++group) {
      const std::string leader = std::string(name) + "-" + std::to_string(group);
      EXPECT_EQ(creations[leader], 2) << leader;
      for (int worker = 1; worker < kSize; ++worker) {
        const std::string pod = leader + "-" + std::to_string(worker);
        EXPECT_EQ(creations[pod], 2) << pod;
      }
    }
  }
  std::uint64_t group_reconciles = 0;  // the queue counts on the loop's thread: read it there
  (void)RunOnLoop(&loop_, [&] {
    group_reconciles = manager_->group_reconciles();
    return Status::Ok();
  });
  EXPECT_GT(group_reconciles, 0u);
}

}  // namespace
}  // namespace lws::scenario
