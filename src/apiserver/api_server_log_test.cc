// GET pods/{name}/log through ApiServer::Handle with a PodLogSource: the checks kube-apiserver
// and the kubelet make, in their order and words, the text/plain answer, and a followed log.
#include <gtest/gtest.h>

#include <map>

#include "apiserver/api_server_testing.h"
#include "podlog/container_log.h"

namespace lws::apiserver {
namespace {

using api::Json;
using podlog::ContainerLog;
using podlog::ContainerLogPtr;
using podlog::PodLogSource;
using testing::ApiServerTest;
using testing::kPods;
using testing::PodJson;
using testing::Reply;

// Instances by (uid, container, containerID), as a kubelet would hold them.
class FakeLogs final : public PodLogSource {
 public:
  ContainerLogPtr Add(const std::string& uid, const std::string& container, const std::string& id) {
    auto log = std::make_shared<ContainerLog>(100);
    logs_[uid + "/" + container + "/" + id] = log;
    return log;
  }
  ContainerLogPtr Find(const std::string& uid, const std::string& container,
                       const std::string& id) const override {
    auto it = logs_.find(uid + "/" + container + "/" + id);
    return it == logs_.end() ? nullptr : it->second;
  }

 private:
  std::map<std::string, ContainerLogPtr> logs_;
};

class PodLogTest : public ApiServerTest {
 protected:
  void SetUp() override {
    ApiServerTest::SetUp();
    server_->set_pod_log_source(&logs_);
  }

  // Creates pod `name` bound to node n1 with `status`; returns its uid.
  std::string CreatePod(const std::string& name, Json status, Json spec_extra = Json::object()) {
    Json pod = PodJson(name);
    pod["spec"]["nodeName"] = "n1";
    for (const auto& [key, value] : spec_extra.items()) pod["spec"][key] = value;
    Reply created = Post(kPods, pod);
    EXPECT_EQ(created.code, 201) << created.body.dump();
    Json with_status = created.body;
    with_status["status"] = std::move(status);
    EXPECT_EQ(Put(std::string(kPods) + "/" + name + "/status", with_status).code, 200);
    return created.body["metadata"]["uid"];
  }

  static Json Running(const std::string& id, Json last = Json::object()) {
    return {{"containerStatuses",
             {{{"name", "c"},
               {"containerID", id},
               {"state", {{"running", Json::object()}}},
               {"lastState", std::move(last)},
               {"ready", true},
               {"restartCount", 1},
               {"image", "busybox:1"},
               {"imageID", ""}}}}};
  }

  FakeLogs logs_;
};

TEST_F(PodLogTest, ReadsTheRunningInstanceAsPlainText) {
  const std::string uid =
      CreatePod("p", Running("c://2", {{"terminated", {{"containerID", "c://1"}}}}));
  logs_.Add(uid, "c", "c://1")->Append(clock_.Now(), "the one before");
  ContainerLogPtr now = logs_.Add(uid, "c", "c://2");
  now->Append(clock_.Now() - std::chrono::seconds(30), "started");
  now->Append(clock_.Now(), "ready");
  Reply reply = Get(std::string(kPods) + "/p/log");
  EXPECT_EQ(reply.code, 200);
  EXPECT_EQ(reply.raw.headers.Get("Content-Type"), "text/plain");
  EXPECT_EQ(reply.raw.body, "started\nready\n");
  EXPECT_EQ(Get(std::string(kPods) + "/p/log?previous=true").raw.body, "the one before\n");
  EXPECT_EQ(Get(std::string(kPods) + "/p/log?container=c&tailLines=1&timestamps=true").raw.body,
            "2025-01-01T00:00:00Z ready\n");
  EXPECT_EQ(Get(std::string(kPods) + "/p/log?sinceSeconds=10").raw.body, "ready\n");
  EXPECT_EQ(Get(std::string(kPods) + "/p/log?limitBytes=3").raw.body, "sta");
}

TEST_F(PodLogTest, ErrorsInKubeApiserverAndKubeletWords) {
  CreatePod("waiting", {{"containerStatuses",
                         {{{"name", "c"},
                           {"state", {{"waiting", {{"reason", "ContainerCreating"}}}}},
                           {"ready", false},
                           {"restartCount", 0},
                           {"image", "busybox:1"},
                           {"imageID", ""}}}}});
  Reply waiting = Get(std::string(kPods) + "/waiting/log");
  EXPECT_EQ(waiting.code, 400);
  EXPECT_EQ(waiting.body["reason"], "BadRequest");
  EXPECT_EQ(waiting.body["message"],
            "container \"c\" in pod \"waiting\" is waiting to start: ContainerCreating");
  EXPECT_EQ(Get(std::string(kPods) + "/waiting/log?container=nope").body["message"],
            "container nope is not valid for pod waiting");
  Reply invalid = Get(std::string(kPods) + "/waiting/log?tailLines=-1");
  EXPECT_EQ(invalid.code, 422);
  EXPECT_EQ(invalid.body["details"]["kind"], "PodLogOptions");
  // The options are checked before the pod is looked up (LogREST.Get).
  EXPECT_EQ(Get(std::string(kPods) + "/missing/log?limitBytes=0").code, 422);
  EXPECT_EQ(Get(std::string(kPods) + "/missing/log").code, 404);
  const std::string uid = CreatePod("fresh", Running("c://9"));
  EXPECT_EQ(Get(std::string(kPods) + "/fresh/log?previous=true").body["message"],
            "previous terminated container \"c\" in pod \"fresh\" not found");
  // Running, but the source never saw the instance (the status raced ahead of it).
  EXPECT_EQ(Get(std::string(kPods) + "/fresh/log").code, 400);
  logs_.Add(uid, "c", "c://9");
  EXPECT_EQ(Get(std::string(kPods) + "/fresh/log").code, 200);
}

TEST_F(PodLogTest, TwoContainersNeedAName) {
  Json pod = PodJson("duo");
  pod["spec"]["containers"].push_back({{"name", "d"}, {"image", "busybox:1"}});
  pod["spec"]["initContainers"] = {{{"name", "init"}, {"image", "busybox:1"}}};
  ASSERT_EQ(Post(kPods, pod).code, 201);
  EXPECT_EQ(Get(std::string(kPods) + "/duo/log").body["message"],
            "a container name must be specified for pod duo, choose one of: [init c d]");
}

TEST_F(PodLogTest, APodOnNoNodeHasAnEmptyLog) {
  ASSERT_EQ(Post(kPods, PodJson("pending")).code, 201);
  Reply reply = Get(std::string(kPods) + "/pending/log");
  EXPECT_EQ(reply.code, 200);
  EXPECT_EQ(reply.raw.body, "");
}

TEST_F(PodLogTest, FollowStreamsNewLinesUntilTheInstanceEnds) {
  const std::string uid = CreatePod("p", Running("c://1"));
  ContainerLogPtr log = logs_.Add(uid, "c", "c://1");
  log->Append(clock_.Now(), "one");
  Reply reply = Get(std::string(kPods) + "/p/log?follow=true&tailLines=5");
  ASSERT_EQ(reply.code, 200);
  ASSERT_NE(reply.raw.stream, nullptr);
  int wakes = 0;
  reply.raw.stream->Start([&wakes] { ++wakes; });
  std::string out;
  EXPECT_TRUE(reply.raw.stream->Next(&out));
  EXPECT_EQ(out, "one\n");
  log->Append(clock_.Now(), "two");
  EXPECT_EQ(wakes, 1);
  EXPECT_TRUE(reply.raw.stream->Next(&out));
  EXPECT_EQ(out, "one\ntwo\n");
  log->Append(clock_.Now(), "three");
  log->End();
  EXPECT_FALSE(reply.raw.stream->Next(&out));  // the container stopped: the stream ends
  EXPECT_EQ(out, "one\ntwo\nthree\n");
  reply.raw.stream->Cancel();
  // An instance that has ended already is answered whole, without a stream.
  Reply ended = Get(std::string(kPods) + "/p/log?follow=true");
  EXPECT_EQ(ended.raw.stream, nullptr);
  EXPECT_EQ(ended.raw.body, "one\ntwo\nthree\n");
}

TEST_F(PodLogTest, WithoutASourceNoKubeletServesLogs) {
  server_->set_pod_log_source(nullptr);
  CreatePod("p", Running("c://1"));
  Reply reply = Get(std::string(kPods) + "/p/log");
  EXPECT_EQ(reply.code, 400);
  EXPECT_NE(reply.body["message"].get<std::string>().find("runs on a simulated kubelet"),
            std::string::npos);
}

}  // namespace
}  // namespace lws::apiserver
