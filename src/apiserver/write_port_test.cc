// The write port (write_port.h): a typed in-process write takes the HTTP request's pipeline and
// answers what the HTTP answer says, as the stored object or as the same Status.
#include "apiserver/write_port.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>

#include "admission/user_info.h"
#include "apiserver/api_server_testing.h"
#include "store/document_object.h"

namespace lws::apiserver::testing {
namespace {

using api::Json;
using api::PatchType;

WriteCall PodCall(WriteVerb verb, std::string name = "", std::string subresource = "") {
  WriteCall call;
  call.verb = verb;
  call.version = "v1";
  call.resource = "pods";
  call.namespace_ = "default";
  call.name = std::move(name);
  call.subresource = std::move(subresource);
  call.field_manager = "port-test";
  return call;
}

class WritePortTest : public ApiServerTest {
 protected:
  Result<store::ObjectPtr> Write(WriteCall call) { return server_->Write(std::move(call)); }

  Result<store::ObjectPtr> CreatePod(const std::string& name) {
    WriteCall call = PodCall(WriteVerb::kCreate);
    call.body = PodJson(name);
    return Write(std::move(call));
  }
};

TEST_F(WritePortTest, EveryVerbStoresWhatTheHttpRequestWould) {
  store::ObjectPtr created = CreatePod("p").value();
  EXPECT_EQ(created->document()["metadata"]["name"], "p");
  EXPECT_FALSE(created->document()["metadata"]["uid"].get<std::string>().empty());
  // The defaults of the pipeline: a created pod is Pending with the scheduler's name.
  EXPECT_EQ(created->document()["spec"]["schedulerName"], "default-scheduler");
  EXPECT_EQ(created->document()["status"]["phase"], "Pending");

  WriteCall update = PodCall(WriteVerb::kUpdate, "p");
  update.body = created->document();
  update.body["metadata"]["labels"]["role"] = "leader";
  store::ObjectPtr updated = Write(std::move(update)).value();
  EXPECT_EQ(updated->document()["metadata"]["labels"]["role"], "leader");
  EXPECT_GT(updated->resource_version(), created->resource_version());

  WriteCall merge = PodCall(WriteVerb::kPatch, "p");
  merge.patch_type = PatchType::kMerge;
  merge.body = {{"metadata", {{"annotations", {{"a", "1"}}}}}};
  EXPECT_EQ(Write(std::move(merge)).value()->document()["metadata"]["annotations"]["a"], "1");

  WriteCall json_patch = PodCall(WriteVerb::kPatch, "p");
  json_patch.patch_type = PatchType::kJson;
  json_patch.body = Json::array({{{"op", "add"}, {"path", "/metadata/labels/b"}, {"value", "2"}}});
  EXPECT_EQ(Write(std::move(json_patch)).value()->document()["metadata"]["labels"]["b"], "2");

  WriteCall status = PodCall(WriteVerb::kPatch, "p", "status");
  status.patch_type = PatchType::kStrategic;
  status.body = {{"status", {{"phase", "Running"}}}};
  EXPECT_EQ(Write(std::move(status)).value()->document()["status"]["phase"], "Running");

  // Server-side apply as the caller, forced: the caller owns what it applied.
  WriteCall apply = PodCall(WriteVerb::kPatch, "p");
  apply.patch_type = PatchType::kApply;
  apply.body = {{"apiVersion", "v1"},
                {"kind", "Pod"},
                {"metadata", {{"name", "p"}, {"labels", {{"b", "3"}}}}}};
  ASSERT_TRUE(Write(std::move(apply)).ok());
  Reply read = Get(std::string(kPods) + "/p");
  EXPECT_EQ(read.body["metadata"]["labels"]["b"], "3");
  bool applied = false;
  for (const Json& entry : read.body["metadata"]["managedFields"]) {
    applied |= entry["manager"] == "port-test" && entry["operation"] == "Apply";
  }
  EXPECT_TRUE(applied) << read.body["metadata"]["managedFields"];

  WriteCall remove = PodCall(WriteVerb::kDelete, "p");
  remove.body = {{"gracePeriodSeconds", 0}};
  ASSERT_TRUE(Write(std::move(remove)).ok());
  EXPECT_EQ(Get(std::string(kPods) + "/p").code, 404);
}

TEST_F(WritePortTest, ASubresourceThatTakesItsOwnKindAnswersItsStatusDocument) {
  ASSERT_TRUE(CreatePod("p").ok());
  WriteCall bind = PodCall(WriteVerb::kCreate, "p", "binding");
  bind.body = {{"apiVersion", "v1"},
               {"kind", "Binding"},
               {"metadata", {{"name", "p"}}},
               {"target", {{"kind", "Node"}, {"name", "n1"}}}};
  store::ObjectPtr answer = Write(std::move(bind)).value();
  EXPECT_EQ(answer->document()["kind"], "Status");
  EXPECT_EQ(answer->document()["status"], "Success");
  EXPECT_EQ(Get(std::string(kPods) + "/p").body["spec"]["nodeName"], "n1");
}

// A refusal a handler answers itself (not an error of its own) is a failure too: an eviction
// a PodDisruptionBudget forbids is 429, as over HTTP.
TEST_F(WritePortTest, AnEvictionTheBudgetForbidsIsTooManyRequests) {
  ASSERT_TRUE(CreatePod("p").ok());
  Reply budget =
      Post("/apis/policy/v1/namespaces/default/poddisruptionbudgets",
           {{"apiVersion", "policy/v1"},
            {"kind", "PodDisruptionBudget"},
            {"metadata", {{"name", "b"}}},
            {"spec", {{"maxUnavailable", 0}, {"selector", {{"matchLabels", {{"app", "demo"}}}}}}}});
  ASSERT_EQ(budget.code, 201) << budget.raw.body;
  // What the kubelet and the disruption controller would write: the pod runs (a pending pod may
  // always go), the budget is seen and allows no disruption.
  Reply running = Patch(std::string(kPods) + "/p/status", "application/merge-patch+json",
                        {{"status", {{"phase", "Running"}}}});
  ASSERT_EQ(running.code, 200) << running.raw.body;
  Reply seen = Patch("/apis/policy/v1/namespaces/default/poddisruptionbudgets/b/status",
                     "application/merge-patch+json",
                     {{"status", {{"observedGeneration", 1}, {"disruptionsAllowed", 0}}}});
  ASSERT_EQ(seen.code, 200) << seen.raw.body;
  WriteCall evict = PodCall(WriteVerb::kCreate, "p", "eviction");
  evict.body = {{"apiVersion", "policy/v1"}, {"kind", "Eviction"}, {"metadata", {{"name", "p"}}}};
  Result<store::ObjectPtr> refused = Write(std::move(evict));
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().http_code(), 429);
  EXPECT_NE(refused.status().message().find("disruption budget"), std::string::npos)
      << refused.status().message();
}

// An error is the Status the HTTP client reads off the HTTP answer: code, reason, message and
// field causes alike.
TEST_F(WritePortTest, AFailureIsTheStatusOfTheHttpAnswer) {
  ASSERT_TRUE(CreatePod("p").ok());
  Reply http = Post(kPods, PodJson("p"));
  Result<store::ObjectPtr> port = CreatePod("p");
  ASSERT_FALSE(port.ok());
  Status expected = store::StatusFromDocument(http.code, http.body);
  EXPECT_EQ(port.status().code(), Code::kAlreadyExists);
  EXPECT_EQ(port.status().code(), expected.code());
  EXPECT_EQ(port.status().message(), expected.message());

  Json invalid = PodJson("bad");
  invalid["spec"]["containers"][0].erase("image");
  http = Post(kPods, invalid);
  WriteCall call = PodCall(WriteVerb::kCreate);
  call.body = invalid;
  port = Write(std::move(call));
  ASSERT_FALSE(port.ok());
  expected = store::StatusFromDocument(http.code, http.body);
  EXPECT_EQ(port.status().code(), Code::kInvalid);
  EXPECT_EQ(port.status().message(), expected.message());
  ASSERT_EQ(port.status().causes().size(), expected.causes().size());
  EXPECT_EQ(port.status().causes()[0].field, "spec.containers[0].image");

  WriteCall missing = PodCall(WriteVerb::kPatch, "nobody");
  missing.body = Json::object();
  EXPECT_EQ(Write(std::move(missing)).status().message(), "pods \"nobody\" not found");

  WriteCall unknown = PodCall(WriteVerb::kCreate);
  unknown.resource = "podz";
  unknown.body = PodJson("p");
  EXPECT_EQ(Write(std::move(unknown)).status().code(), Code::kNotFound);
}

TEST_F(WritePortTest, ADryRunStoresNothing) {
  const std::uint64_t before = store_->CurrentResourceVersion();
  WriteCall call = PodCall(WriteVerb::kCreate);
  call.body = PodJson("p");
  call.dry_run = true;
  store::ObjectPtr answer = Write(std::move(call)).value();
  EXPECT_EQ(answer->document()["metadata"]["name"], "p");
  EXPECT_EQ(store_->CurrentResourceVersion(), before);
  EXPECT_EQ(Get(std::string(kPods) + "/p").code, 404);
}

// A caller that names a user is authorized as that user; without one it is the administrator.
TEST_F(WritePortTest, ANamedUserIsAuthorized) {
  Open({.token = "admin-token"});
  admission::UserInfo nobody{.name = "system:serviceaccount:default:nobody",
                             .groups = {"system:serviceaccounts", "system:authenticated"}};
  WriteCall call = PodCall(WriteVerb::kCreate);
  call.body = PodJson("p");
  call.user = &nobody;
  Result<store::ObjectPtr> refused = Write(call);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().code(), Code::kForbidden);
  EXPECT_EQ(refused.status().message(),
            "pods is forbidden: User \"system:serviceaccount:default:nobody\" cannot create "
            "resource \"pods\" in API group \"\" in the namespace \"default\"");
  call.user = nullptr;
  EXPECT_TRUE(Write(std::move(call)).ok());
}

// events.k8s.io/v1 writes go through the core/v1 view as over HTTP (handlers_events_v1.cc).
TEST_F(WritePortTest, AnEventsV1EventIsAnsweredInItsOwnVersion) {
  WriteCall call;
  call.verb = WriteVerb::kCreate;
  call.group = "events.k8s.io";
  call.version = "v1";
  call.resource = "events";
  call.namespace_ = "default";
  call.field_manager = "port-test";
  call.body = {{"apiVersion", "events.k8s.io/v1"},
               {"kind", "Event"},
               {"metadata", {{"name", "e1"}, {"namespace", "default"}}},
               {"eventTime", "2025-01-01T00:00:00.000000Z"},
               {"reportingController", "port-test"},
               {"reportingInstance", "port-test-1"},
               {"action", "Test"},
               {"reason", "Tested"},
               {"regarding", {{"kind", "Pod"}, {"namespace", "default"}, {"name", "p"}}},
               {"note", "a note"},
               {"type", "Normal"}};
  WriteCall again = call;
  store::ObjectPtr answer = Write(std::move(call)).value();
  EXPECT_EQ(answer->document()["apiVersion"], "events.k8s.io/v1");
  EXPECT_EQ(answer->document()["note"], "a note");
  EXPECT_GT(answer->resource_version(), 0u);
  EXPECT_EQ(Get("/api/v1/namespaces/default/events/e1").body["message"], "a note");
  // A refusal stays a Status, not an object made of the Status document.
  Result<store::ObjectPtr> refused = Write(std::move(again));
  EXPECT_EQ(refused.status().code(), Code::kAlreadyExists);
}

}  // namespace
}  // namespace lws::apiserver::testing
