// The container logs of the simulated kubelets (kubelet_log.h), on the virtual clock: what each
// instance's log says as the kubelets start, crash, restart and stop its container, which
// instances are kept, and the bounds.
#include "cluster/kubelet_log.h"

#include <gtest/gtest.h>

#include "cluster/kubelet_testing.h"

namespace lws::cluster {
namespace {

using kubelet_testing::FixedPool;
using kubelet_testing::KubeletFixture;
using std::chrono::seconds;

class KubeletLogTest : public KubeletFixture {
 protected:
  void Start(KubeletLogOptions options = {}) {
    spec_.pools = {FixedPool("gpu", 5)};
    logs_ = std::make_unique<KubeletLogs>(&cp_.loop, &kubelet_client_, options);
    ASSERT_TRUE(logs_->Start().ok());
    StartKubelets();
    AddNode("gpu-0", "gpu");
  }
  std::string Uid(const std::string& pod) { return Pod(pod)["metadata"]["uid"]; }
  std::string ContainerId(const std::string& pod) { return FirstContainer(pod)["containerID"]; }
  std::string LastId(const std::string& pod) {
    return FirstContainer(pod)["lastState"]["terminated"]["containerID"];
  }
  static std::vector<std::string> Messages(const podlog::ContainerLogPtr& log) {
    std::vector<std::string> out;
    if (!log) return out;
    std::vector<podlog::LogLine> lines;
    std::uint64_t next = 0;
    log->Read(&next, &lines);
    for (const auto& line : lines) out.push_back(line.message);
    return out;
  }

  std::unique_ptr<KubeletLogs> logs_;
};

TEST_F(KubeletLogTest, TheLogOfAStartRecordsItsLifecycleAtTheLoopsTime) {
  Start();
  AddPod("p", "gpu-0");
  RunFor(seconds(1));
  // Waiting (ContainerCreating): no instance yet, as no container exists.
  EXPECT_EQ(logs_->containers_logged(), 0u);
  const Time ready_at = cp_.loop.Now() + seconds(4);
  RunFor(seconds(5));
  podlog::ContainerLogPtr log = logs_->Find(Uid("p"), "main", ContainerId("p"));
  ASSERT_NE(log, nullptr);
  EXPECT_EQ(Messages(log),
            (std::vector<std::string>{
                kSimulatedContainerLine, "created container main from image busybox:1.36",
                "started container main", "container is ready (no readiness probe)"}));
  std::vector<podlog::LogLine> lines;
  std::uint64_t next = 0;
  log->Read(&next, &lines);
  for (const auto& line : lines) EXPECT_EQ(line.time, ready_at) << line.message;
  EXPECT_FALSE(log->ended());
}

TEST_F(KubeletLogTest, ACrashEndsTheInstanceAndTheRestartOpensTheNext) {
  Start();
  AddPod("p", "gpu-0");
  RunFor(seconds(6));
  const std::string first = ContainerId("p");
  ASSERT_TRUE(kubelets_->CrashContainer("default", "p").ok());
  RunFor(seconds(1));
  EXPECT_EQ(LastId("p"), first);
  podlog::ContainerLogPtr previous = logs_->Find(Uid("p"), "main", first);
  ASSERT_NE(previous, nullptr);
  EXPECT_TRUE(previous->ended());
  EXPECT_EQ(Messages(previous).back(), "container exited with code 1 (Error)");
  podlog::ContainerLogPtr current = logs_->Find(Uid("p"), "main", ContainerId("p"));
  ASSERT_NE(current, nullptr);
  EXPECT_NE(current, previous);
  EXPECT_EQ(Messages(current),
            (std::vector<std::string>{kSimulatedContainerLine,
                                      "restarting container after it exited (restart 1, "
                                      "restartPolicy Always)",
                                      "created container main from image busybox:1.36",
                                      "started container main"}));
  RunFor(seconds(5));
  EXPECT_EQ(Messages(current).back(), "container is ready (no readiness probe)");
}

TEST_F(KubeletLogTest, KeepsTwoInstancesPerContainer) {
  Start();
  AddPod("p", "gpu-0");
  RunFor(seconds(6));
  const std::string first = ContainerId("p");
  for (int i = 0; i < 2; ++i) {
    ASSERT_TRUE(kubelets_->CrashContainer("default", "p").ok());
    RunFor(seconds(6));
  }
  EXPECT_EQ(logs_->Find(Uid("p"), "main", first), nullptr);  // dropped: two newer ones
  EXPECT_NE(logs_->Find(Uid("p"), "main", LastId("p")), nullptr);
  EXPECT_NE(logs_->Find(Uid("p"), "main", ContainerId("p")), nullptr);
  EXPECT_EQ(logs_->containers_logged(), 1u);
}

TEST_F(KubeletLogTest, EachInstanceKeepsItsNewestLines) {
  KubeletLogOptions options;
  options.lines_max = 2;
  Start(options);
  AddPod("p", "gpu-0");
  RunFor(seconds(6));
  EXPECT_EQ(Messages(logs_->Find(Uid("p"), "main", ContainerId("p"))),
            (std::vector<std::string>{"started container main",
                                      "container is ready (no readiness probe)"}));
}

TEST_F(KubeletLogTest, UnderRestartPolicyNeverTheCrashedInstanceIsTheCurrentLog) {
  Start();
  AddPod("p", "gpu-0", {}, "Never");
  RunFor(seconds(6));
  ASSERT_TRUE(kubelets_->CrashContainer("default", "p").ok());
  RunFor(seconds(1));
  EXPECT_EQ(Phase("p"), "Failed");
  const std::string id = FirstContainer("p")["state"]["terminated"]["containerID"];
  podlog::ContainerLogPtr log = logs_->Find(Uid("p"), "main", id);
  ASSERT_NE(log, nullptr);
  EXPECT_TRUE(log->ended());
  EXPECT_EQ(Messages(log).back(), "container exited with code 1 (Error)");
}

TEST_F(KubeletLogTest, ADeletionIsLoggedAndTheDeletedPodsLogsAreDropped) {
  Start();
  AddPod("p", "gpu-0");
  RunFor(seconds(6));
  const std::string uid = Uid("p");
  const std::string id = ContainerId("p");
  podlog::ContainerLogPtr log = logs_->Find(uid, "main", id);
  ASSERT_NE(log, nullptr);
  ASSERT_TRUE(DeletePod("p").ok());
  RunFor(seconds(1));
  EXPECT_EQ(Messages(log).back(),
            "stopping container: the pod is being deleted (SIGTERM, grace period 30s)");
  EXPECT_FALSE(log->ended());
  RunFor(seconds(40));
  EXPECT_TRUE(Pod("p").is_null());
  EXPECT_TRUE(log->ended());
  EXPECT_EQ(Messages(log).back(), "container stopped: the pod was deleted");
  EXPECT_EQ(logs_->containers_logged(), 0u);
  EXPECT_EQ(logs_->Find(uid, "main", id), nullptr);
}

TEST_F(KubeletLogTest, StopEndsEveryLog) {
  Start();
  AddPod("p", "gpu-0", {}, "", 2);
  RunFor(seconds(6));
  podlog::ContainerLogPtr side =
      logs_->Find(Uid("p"), "side1", Pod("p")["status"]["containerStatuses"][1]["containerID"]);
  ASSERT_NE(side, nullptr);
  EXPECT_EQ(logs_->containers_logged(), 2u);
  logs_->Stop();
  EXPECT_TRUE(side->ended());
  EXPECT_EQ(logs_->containers_logged(), 0u);
}

}  // namespace
}  // namespace lws::cluster
