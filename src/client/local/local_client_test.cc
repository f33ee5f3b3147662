#include "client/local/local_client.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <map>

#include "client/event_recorder.h"
#include "client/informer.h"
#include "client/local/local_testing.h"
#include "client/request_bodies.h"

namespace lws::client {
namespace {

Json Pod(const std::string& name) {
  return {{"apiVersion", "v1"},
          {"kind", "Pod"},
          {"metadata", {{"name", name}, {"namespace", "default"}, {"labels", {{"app", "x"}}}}},
          {"spec", {{"containers", {{{"name", "c"}, {"image", "busybox"}}}}}}};
}

TEST(LocalClient, CreateGoesThroughDefaultsAndValidation) {
  testing::ControlPlane cp;
  LocalClient client = cp.Client("test-controller");
  Result<store::ObjectPtr> created = client.Create(kPods, Pod("a"));
  ASSERT_TRUE(created.ok()) << created.status().ToString();
  // Built-in defaults were applied by the server's pipeline.
  EXPECT_EQ((*created)->document()["spec"]["restartPolicy"], "Always");
  EXPECT_EQ((*created)->document()["status"]["phase"], "Pending");
  EXPECT_EQ((*created)->FullJson()["metadata"]["managedFields"][0]["manager"], "test-controller");

  Json bad = Pod("b");
  bad["spec"]["containers"][0].erase("image");
  Result<store::ObjectPtr> rejected = client.Create(kPods, bad);
  ASSERT_FALSE(rejected.ok());
  EXPECT_EQ(rejected.status().code(), Code::kInvalid);
  ASSERT_FALSE(rejected.status().causes().empty());
  EXPECT_EQ(rejected.status().causes()[0].field, "spec.containers[0].image");

  Result<store::ObjectPtr> again = client.Create(kPods, Pod("a"));
  EXPECT_EQ(again.status().code(), Code::kAlreadyExists);
}

// A ControlPlane given an admission chain runs it on every write of its clients.
class DenyPodsNamed final : public admission::AdmissionPlugin {
 public:
  std::string_view Name() const override { return "deny"; }
  bool Handles(const api::ResourceInfo& resource, std::string_view subresource) const override {
    return resource.resource == "pods" && subresource.empty();
  }
  Status Validate(const admission::AdmissionRequest& request) override {
    if (request.name != "denied") return Status::Ok();
    return Status(Code::kForbidden, "admission webhook \"deny\" denied the request: no");
  }
};

TEST(LocalClient, ControlPlaneRunsItsAdmissionChain) {
  admission::AdmissionChain chain;
  chain.Add(std::make_shared<DenyPodsNamed>());
  testing::ControlPlane cp(7, false, std::move(chain));
  LocalClient client = cp.Client("test-controller");
  EXPECT_TRUE(client.Create(kPods, Pod("allowed")).ok());
  Result<store::ObjectPtr> denied = client.Create(kPods, Pod("denied"));
  EXPECT_EQ(denied.status().code(), Code::kForbidden);
}

TEST(LocalClient, BindPatchDelete) {
  testing::ControlPlane cp;
  LocalClient client = cp.Client("default-scheduler");
  Json pod = client.Create(kPods, Pod("a")).value()->document();
  ASSERT_TRUE(client.Bind("default", "a", pod["metadata"]["uid"], "node-1").ok());
  EXPECT_EQ((*client.Get(kPods, "default", "a"))->document()["spec"]["nodeName"], "node-1");
  EXPECT_EQ(client.Bind("default", "a", "", "node-2").code(), Code::kConflict);

  Json patch = {{"status", {{"phase", "Running"}}}};
  ASSERT_TRUE(client.Patch(kPods, "default", "a", client::PatchType::kMerge, patch, "status").ok());
  EXPECT_EQ((*client.Get(kPods, "default", "a"))->document()["status"]["phase"], "Running");

  DeleteOptions now;
  now.grace_period_seconds = 0;
  ASSERT_TRUE(client.Delete(kPods, "default", "a", now).ok());
  EXPECT_EQ(client.Get(kPods, "default", "a").status().code(), Code::kNotFound);
}

// A status body of identity and status alone: the server keeps the stored spec and labels,
// records the status, and the resourceVersion it carries still guards the write.
TEST(LocalClient, StatusWriteBodyChangesTheStatusAlone) {
  testing::ControlPlane cp;
  LocalClient client = cp.Client("kubelet");
  Json pod = client.Create(kPods, Pod("a")).value()->document();
  Json body = StatusWriteBody(pod, {{"phase", "Running"}});
  EXPECT_FALSE(body.contains("spec"));
  // The metadata goes along: a pod's status write takes it (api::StatusWriteOf).
  EXPECT_EQ(body["metadata"]["labels"], pod["metadata"]["labels"]);
  EXPECT_FALSE(body["metadata"].contains("managedFields"));

  Result<store::ObjectPtr> written = client.UpdateStatus(kPods, body);
  ASSERT_TRUE(written.ok()) << written.status().ToString();
  const Json stored = (*written)->FullJson();  // managedFields included
  EXPECT_EQ(stored["status"]["phase"], "Running");
  EXPECT_EQ(stored["spec"], pod["spec"]);
  EXPECT_EQ(stored["metadata"]["labels"], pod["metadata"]["labels"]);
  const Json& entry = stored["metadata"]["managedFields"][1];
  EXPECT_EQ(entry["manager"], "kubelet");
  EXPECT_EQ(entry["subresource"], "status");
  EXPECT_EQ(entry["fieldsV1"], Json::parse(R"({"f:status":{"f:phase":{}}})"));

  // The same body again carries the old resourceVersion: a conflict, as for a whole pod.
  EXPECT_EQ(client.UpdateStatus(kPods, body).status().code(), Code::kConflict);
}

TEST(Informer, SeesInitialObjectsThenChangesOnTheLoop) {
  testing::ControlPlane cp;
  LocalClient client = cp.Client("test");
  ASSERT_TRUE(client.Create(kPods, Pod("a")).ok());
  Informer informer(&cp.loop, &client, kPods);
  std::vector<std::string> seen;
  informer.AddHandler([&](const store::ObjectPtr& old, const store::ObjectPtr& now) {
    std::string kind = !old ? "add" : !now ? "delete" : "update";
    seen.push_back(kind + ":" + (now ? now : old)->name().name);
  });
  ASSERT_TRUE(informer.Start().ok());
  EXPECT_TRUE(seen.empty());  // nothing is delivered outside the loop
  cp.loop.RunUntilIdle();
  ASSERT_TRUE(client.Create(kPods, Pod("b")).ok());
  ASSERT_TRUE(client
                  .Patch(kPods, "default", "a", client::PatchType::kMerge,
                         {{"metadata", {{"labels", {{"v", "2"}}}}}})
                  .ok());
  DeleteOptions now;
  now.grace_period_seconds = 0;
  ASSERT_TRUE(client.Delete(kPods, "default", "b", now).ok());
  cp.loop.RunUntilIdle();
  EXPECT_EQ(seen, (std::vector<std::string>{"add:a", "add:b", "update:a", "delete:b"}));
  EXPECT_EQ(informer.Select("default", {{"v", "2"}}).size(), 1u);
  EXPECT_NE(informer.Get("default", "a"), nullptr);
  EXPECT_EQ(informer.Get("default", "b"), nullptr);
}

}  // namespace
}  // namespace lws::client
