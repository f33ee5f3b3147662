// File: apiserver/api_server_write_test.cc
//
// Writes through ApiServer::Handle beyond plain CRUD: the patch types, server-side apply,
// /scale, /status, pods/binding, dryRun and ClusterIP allocation.
#include "apiserver/api_server_testing.h"
#include "apiserver/request_handler.h"
#include "store/store_testing.h"

namespace lws::apiserver::testing {
namespace {

using api::Json;

TEST_F(ApiServerTest, PatchTypes) {
  ASSERT_EQ(Post(kSts, StatefulSetJson("s1")).code, 201);
  std::string s1 = std::string(kSts) + "/s1";
  Reply merge =
      Patch(s1, "application/merge-patch+json", {{"metadata", {{"labels", {{"a", "b"}}}}}});
  ASSERT_EQ(merge.code, 200) << merge.body;
  EXPECT_EQ(merge.body["metadata"]["labels"]["a"], "b");
  Reply json = Patch(s1, "application/json-patch+json",
                     Json::array({{{"op", "replace"}, {"path", "/spec/replicas"}, {"value", 4}}}));
  ASSERT_EQ(json.code, 200) << json.body;
  EXPECT_EQ(json.body["spec"]["replicas"], 4);
  EXPECT_EQ(json.body["metadata"]["generation"], 2);
  Json smp = {{"spec",
               {{"template",
                 {{"spec",
                   {{"$setElementOrder/containers", {{{"name", "c"}}}},
                    {"containers", {{{"name", "c"}, {"image", "busybox:2"}}}}}}}}}}};
  Reply strategic = Patch(s1, "application/strategic-merge-patch+json", smp);
  ASSERT_EQ(strategic.code, 200) << strategic.body;
  EXPECT_EQ(strategic.body["spec"]["template"]["spec"]["containers"][0]["image"], "busybox:2");

  ASSERT_EQ(Post(kLws, LwsJson("l1")).code, 201);
  Reply lws_smp = Patch(std::string(kLws) + "/l1", "application/strategic-merge-patch+json",
                        {{"spec", {{"replicas", 3}}}});
  EXPECT_EQ(lws_smp.code, 415);
  EXPECT_EQ(Patch(s1 + "x", "application/merge-patch+json", Json::object()).code, 404);
}

TEST_F(ApiServerTest, PatchWithStaleResourceVersionConflicts) {
  ASSERT_EQ(Post(kSts, StatefulSetJson("s1")).code, 201);
  Reply stale = Patch(std::string(kSts) + "/s1", "application/merge-patch+json",
                      {{"metadata", {{"resourceVersion", "1"}}}, {"spec", {{"replicas", 3}}}});
  EXPECT_EQ(stale.code, 409);
  EXPECT_EQ(stale.body["reason"], "Conflict");
}

TEST_F(ApiServerTest, ServerSideApplyCreatesThenConflicts) {
  std::string target = std::string(kSts) + "/s1?fieldManager=alice";
  Reply created = Patch(target, "application/apply-patch+yaml", StatefulSetJson("s1", 2));
  ASSERT_EQ(created.code, 201) << created.body;
  EXPECT_EQ(created.body["metadata"]["managedFields"][0]["manager"], "alice");
  Reply conflict = Patch(std::string(kSts) + "/s1?fieldManager=bob", "application/apply-patch+yaml",
                         StatefulSetJson("s1", 5));
  EXPECT_EQ(conflict.code, 409);
  EXPECT_EQ(conflict.body["details"]["causes"][0]["field"], ".spec.replicas");
  Reply forced = Patch(std::string(kSts) + "/s1?fieldManager=bob&force=true",
                       "application/apply-patch+yaml", StatefulSetJson("s1", 5));
  EXPECT_EQ(forced.code, 200);
  EXPECT_EQ(forced.body["spec"]["replicas"], 5);
  EXPECT_EQ(
      Patch(std::string(kSts) + "/s1", "application/apply-patch+yaml", StatefulSetJson("s1")).code,
      422);  // fieldManager required
}

TEST_F(ApiServerTest, ScaleStatefulSetAndLeaderWorkerSet) {
  ASSERT_EQ(Post(kSts, StatefulSetJson("s1", 2)).code, 201);
  Reply scale = Get(std::string(kSts) + "/s1/scale");
  ASSERT_EQ(scale.code, 200);
  EXPECT_EQ(scale.body["kind"], "Scale");
  EXPECT_EQ(scale.body["spec"]["replicas"], 2);
  EXPECT_EQ(scale.body["status"]["selector"], "app=s1");
  Reply patched = Patch(std::string(kSts) + "/s1/scale", "application/merge-patch+json",
                        {{"spec", {{"replicas", 3}}}});
  ASSERT_EQ(patched.code, 200) << patched.body;
  EXPECT_EQ(Get(std::string(kSts) + "/s1").body["spec"]["replicas"], 3);

  ASSERT_EQ(Post(kLws, LwsJson("l1", 2)).code, 201);
  Json put = Get(std::string(kLws) + "/l1/scale").body;
  put["spec"]["replicas"] = 4;
  Reply replaced = Send("PUT", std::string(kLws) + "/l1/scale", put.dump(), "");
  ASSERT_EQ(replaced.code, 200) << replaced.body;
  EXPECT_EQ(Get(std::string(kLws) + "/l1").body["spec"]["replicas"], 4);
  put["spec"]["replicas"] = 5;  // the resourceVersion is now stale
  EXPECT_EQ(Send("PUT", std::string(kLws) + "/l1/scale", put.dump(), "").code, 409);
}

TEST_F(ApiServerTest, StatusSubresourceIsIsolated) {
  ASSERT_EQ(Post(kLws, LwsJson("l1")).code, 201);
  Json lws = Get(std::string(kLws) + "/l1").body;
  lws["status"] = {{"replicas", 2}, {"readyReplicas", 1}};
  lws["spec"]["replicas"] = 9;
  Reply status = Put(std::string(kLws) + "/l1/status", lws);
  ASSERT_EQ(status.code, 200) << status.body;
  EXPECT_EQ(status.body["status"]["readyReplicas"], 1);
  EXPECT_EQ(status.body["spec"]["replicas"], 2);
}

TEST_F(ApiServerTest, ServicesGetAClusterIp) {
  Json svc = {{"apiVersion", "v1"},
              {"kind", "Service"},
              {"metadata", {{"name", "s"}}},
              {"spec", {{"ports", {{{"port", 80}}}}}}};
  Reply created = Post("/api/v1/namespaces/default/services", svc);
  ASSERT_EQ(created.code, 201) << created.body;
  EXPECT_EQ(created.body["spec"]["clusterIP"].get<std::string>().rfind("10.96.", 0), 0u);
  svc["metadata"]["name"] = "s2";
  Reply second = Post("/api/v1/namespaces/default/services", svc);
  EXPECT_NE(second.body["spec"]["clusterIP"], created.body["spec"]["clusterIP"]);
}

TEST_F(ApiServerTest, DryRunStoresNothing) {
  Reply dry = Send("POST", std::string(kPods) + "?dryRun=All", PodJson("p").dump());
  EXPECT_EQ(dry.code, 201);
  EXPECT_EQ(Get(std::string(kPods) + "/p").code, 404);
}

TEST_F(ApiServerTest, BindingAssignsANode) {
  ASSERT_EQ(Post(kPods, PodJson("p")).code, 201);
  Json binding = {{"apiVersion", "v1"},
                  {"kind", "Binding"},
                  {"metadata", {{"name", "p"}}},
                  {"target", {{"kind", "Node"}, {"name", "n1"}}}};
  EXPECT_EQ(Post(std::string(kPods) + "/p/binding", binding).code, 201);
  Json pod = Get(std::string(kPods) + "/p").body;
  EXPECT_EQ(pod["spec"]["nodeName"], "n1");
  EXPECT_EQ(pod["status"]["conditions"][0]["type"], "PodScheduled");
  EXPECT_EQ(Post(std::string(kPods) + "/p/binding", binding).code, 409);
}

// kubectl logs (without a log source) / exec / attach / port-forward / debug: no real kubelet
// serves them. An existing pod gets
// 400 saying why (not the 404 of an unknown path, which reads as "no such pod"); a missing pod
// NotFound; the same names under another resource stay unknown paths.
TEST_F(ApiServerTest, KubeletSubresourcesSayThereIsNoRealKubelet) {
  ASSERT_EQ(Post(kPods, PodJson("p")).code, 201);
  for (const std::string sub : {"log", "exec", "attach", "portforward", "ephemeralcontainers"}) {
    Reply reply = Get(std::string(kPods) + "/p/" + sub);
    EXPECT_EQ(reply.code, 400) << sub;
    EXPECT_EQ(reply.body["reason"], "BadRequest") << sub;
    EXPECT_NE(reply.body["message"].get<std::string>().find("runs on a simulated kubelet"),
              std::string::npos)
        << reply.body.dump();
    EXPECT_EQ(Get(std::string(kPods) + "/missing/" + sub).code, 404) << sub;
  }
  EXPECT_EQ(
      Get(std::string(kPods) + "/p/log").body["message"],
      "pod \"p\" runs on a simulated kubelet (lws-cpp), which starts no containers: there are "
      "no container logs to read (pods/log is served by real kubelets only)");
  EXPECT_EQ(Post("/api/v1/namespaces",
                 {{"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", {{"name", "ns1"}}}})
                .code,
            201);
  EXPECT_EQ(Get("/api/v1/namespaces/ns1/log").code, 404);
}

TEST_F(ApiServerTest, BindingIsOneWriteThatLeavesManagedFieldsAlone) {
  ASSERT_EQ(Post(kPods, PodJson("p")).code, 201);
  Json before = Get(std::string(kPods) + "/p").body;
  Json binding = {{"apiVersion", "v1"},
                  {"kind", "Binding"},
                  {"metadata", {{"name", "p"}, {"annotations", {{"placed-by", "test"}}}}},
                  {"target", {{"kind", "Node"}, {"name", "n1"}}}};
  ASSERT_EQ(Post(std::string(kPods) + "/p/binding", binding).code, 201);
  Json after = Get(std::string(kPods) + "/p").body;
  // The node, the annotation and the condition arrive in one new resourceVersion, as upstream's
  // single GuaranteedUpdate makes them.
  EXPECT_EQ(std::stoll(after["metadata"]["resourceVersion"].get<std::string>()),
            std::stoll(before["metadata"]["resourceVersion"].get<std::string>()) + 1);
  EXPECT_EQ(after["spec"]["nodeName"], "n1");
  EXPECT_EQ(after["metadata"]["annotations"]["placed-by"], "test");
  ASSERT_EQ(after["status"]["conditions"].size(), 1u);
  EXPECT_EQ(after["status"]["conditions"][0]["type"], "PodScheduled");
  EXPECT_EQ(after["status"]["conditions"][0]["status"], "True");
  EXPECT_TRUE(after["status"]["conditions"][0]["lastProbeTime"].is_null());
  EXPECT_EQ(after["metadata"]["managedFields"], before["metadata"]["managedFields"]);
  // A dry run binds nothing.
  ASSERT_EQ(Post(kPods, PodJson("q")).code, 201);
  binding["metadata"]["name"] = "q";
  EXPECT_EQ(Post(std::string(kPods) + "/q/binding?dryRun=All", binding).code, 201);
  EXPECT_FALSE(Get(std::string(kPods) + "/q").body["spec"].contains("nodeName"));
}

// A status write over a version whose shapes were checked by the write that stored it does not
// walk that version again (handlers_write.cc). A version stored with a broken shape (a pod
// condition without its key, type) is not marked: the next write still finds the live object
// broken and records nothing, however valid its own status is.
TEST_F(ApiServerTest, StatusWritesTrustOnlyVersionsWhoseShapesWereChecked) {
  ASSERT_EQ(Post(kPods, PodJson("p")).code, 201);
  auto put_conditions = [&](const std::string& manager, Json conditions) {
    Json pod = Get(std::string(kPods) + "/p").body;
    pod["status"]["conditions"] = std::move(conditions);
    return Put(std::string(kPods) + "/p/status?fieldManager=" + manager, pod);
  };
  auto fields_of = [](const std::string& manager, const Json& pod) -> Json {
    for (const Json& entry : pod["metadata"].value("managedFields", Json::array())) {
      if (entry.value("manager", "") == manager) return entry.value("fieldsV1", Json());
    }
    return nullptr;
  };
  Reply ready = put_conditions("kubelet", {{{"type", "Ready"}, {"status", "True"}}});
  ASSERT_EQ(ready.code, 200) << ready.body;
  Reply not_ready = put_conditions("kubelet", {{{"type", "Ready"}, {"status", "False"}}});
  ASSERT_EQ(not_ready.code, 200) << not_ready.body;
  EXPECT_EQ(fields_of("kubelet", not_ready.body), fields_of("kubelet", ready.body));
  EXPECT_TRUE(fields_of("kubelet", ready.body)["f:status"]["f:conditions"].contains(
      R"(k:{"type":"Ready"})"));

  Reply broken = put_conditions("kubelet", {{{"status", "True"}}});
  ASSERT_EQ(broken.code, 200) << broken.body;
  Reply fixed = put_conditions("fixer", {{{"type", "Ready"}, {"status", "True"}}});
  ASSERT_EQ(fixed.code, 200) << fixed.body;
  EXPECT_TRUE(fields_of("fixer", fixed.body).is_null()) << fixed.body["metadata"];
  // Stored valid again (and checked), the next write is recorded.
  Reply after = put_conditions("fixer", {{{"type", "Ready"}, {"status", "False"}}});
  ASSERT_EQ(after.code, 200) << after.body;
  EXPECT_FALSE(fields_of("fixer", after.body).is_null()) << after.body["metadata"];
}

// Creates and bindings add only what the shape check cannot fault (scalars, flat maps, a
// condition keyed by its type): the versions they store are marked checked when what they
// started from was, so a pod's first status write does not walk the whole pod again. A Service
// (cluster IPs written after the check) and a version stored by a patch are not marked.
TEST_F(ApiServerTest, CreatesAndBindingsKeepTheShapeCheck) {
  auto checked = [&](const std::string& group, const std::string& resource,
                     const std::string& name) {
    const api::ResourceInfo* info = server_->served()->registry.Find(group, "v1", resource);
    auto stored = store_->Get(*info, "default", name);
    return stored.ok() && ShapesChecked(*stored, server_->served());
  };
  ASSERT_EQ(Post(kPods, PodJson("p")).code, 201);
  EXPECT_TRUE(checked("", "pods", "p"));
  Json binding = {{"apiVersion", "v1"},
                  {"kind", "Binding"},
                  {"metadata", {{"name", "p"}, {"annotations", {{"placed-by", "test"}}}}},
                  {"target", {{"kind", "Node"}, {"name", "n1"}}}};
  ASSERT_EQ(Post(std::string(kPods) + "/p/binding", binding).code, 201);
  EXPECT_TRUE(checked("", "pods", "p"));
  ASSERT_EQ(Post(kSts, StatefulSetJson("s1")).code, 201);
  EXPECT_TRUE(checked("apps", "statefulsets", "s1"));

  Json service = {{"apiVersion", "v1"},
                  {"kind", "Service"},
                  {"metadata", {{"name", "svc"}}},
                  {"spec", {{"ports", {{{"port", 80}}}}}}};
  ASSERT_EQ(Post("/api/v1/namespaces/default/services", service).code, 201);
  EXPECT_FALSE(checked("", "services", "svc"));
  Reply patched = Patch(std::string(kPods) + "/p", "application/merge-patch+json",
                        {{"metadata", {{"labels", {{"a", "b"}}}}}});
  ASSERT_EQ(patched.code, 200) << patched.body;
  EXPECT_FALSE(checked("", "pods", "p"));
  // Bound from an unmarked version, the pod stays unmarked.
  ASSERT_EQ(Post(kPods, PodJson("q")).code, 201);
  ASSERT_EQ(Patch(std::string(kPods) + "/q", "application/merge-patch+json",
                  {{"metadata", {{"labels", {{"a", "b"}}}}}})
                .code,
            200);
  binding["metadata"]["name"] = "q";
  ASSERT_EQ(Post(std::string(kPods) + "/q/binding", binding).code, 201);
  EXPECT_FALSE(checked("", "pods", "q"));
}

TEST_F(ApiServerTest, BindingChecksTheUidItNames) {
  ASSERT_EQ(Post(kPods, PodJson("p")).code, 201);
  const Json pod = Get(std::string(kPods) + "/p").body;
  Json binding = {{"apiVersion", "v1"},
                  {"kind", "Binding"},
                  {"metadata", {{"name", "p"}, {"uid", "a-predecessor"}}},
                  {"target", {{"kind", "Node"}, {"name", "n1"}}}};
  Reply stale = Post(std::string(kPods) + "/p/binding", binding);
  EXPECT_EQ(stale.code, 409);
  EXPECT_EQ(
      stale.body["message"],
      "Operation cannot be fulfilled on pods \"p\": Precondition failed: UID in precondition: "
      "a-predecessor, UID in object meta: " +
          pod["metadata"]["uid"].get<std::string>());
  EXPECT_FALSE(Get(std::string(kPods) + "/p").body["spec"].contains("nodeName"));
  binding["metadata"]["uid"] = pod["metadata"]["uid"];
  EXPECT_EQ(Post(std::string(kPods) + "/p/binding", binding).code, 201);
}

// Deferred managedFields (managed_fields.h, RecordOrDeferManagedFields): a pod's life written
// in process with nothing read in between leaves every version with the entries the same
// writes give when each answer is read (and so its entries made) at once. Both pods live the
// same life at the same times: "read" over HTTP has each answer serialised, "unread" through
// the write port none.
TEST_F(ApiServerTest, UnreadVersionsMakeTheEntriesOfReadOnes) {
  // "read" over HTTP (the answer serialised); "unread" through the write port, the same
  // request as a typed call (the answer never serialised).
  auto write = [&](const std::string& name, const std::string& method, std::string target,
                   Json body) {
    if (name == "read") {
      transport::HttpRequest request;
      request.method = method;
      request.target = std::move(target);
      request.headers.Add("Content-Type", "application/json");
      request.body = body.dump();
      transport::HttpResponse response = server_->Handle(request);
      EXPECT_LT(response.status, 300) << method << " " << request.target << ": " << response.body;
      return;
    }
    RequestTarget parsed = ParseRequestTarget(target).value();
    WriteCall call;
    call.verb = method == "POST"  ? WriteVerb::kCreate
                : method == "PUT" ? WriteVerb::kUpdate
                                  : WriteVerb::kDelete;
    call.version = parsed.version;
    call.resource = parsed.resource;
    call.namespace_ = parsed.namespace_;
    call.name = parsed.name;
    call.subresource = parsed.subresource;
    call.field_manager = parsed.query.Get("fieldManager");
    call.body = std::move(body);
    Result<store::ObjectPtr> written = server_->Write(std::move(call));
    EXPECT_TRUE(written.ok()) << method << " " << target << ": " << written.status().message();
  };
  auto live = [&](const std::string& name) {
    return store_->Get(store::testing::Pods(), "default", name).value();
  };
  using Step = std::function<void(const std::string& name)>;
  const std::string pods = kPods;
  const std::vector<Step> life = {
      [&](const std::string& name) {
        write(name, "POST", pods + "?fieldManager=statefulset-controller", PodJson(name));
      },
      [&](const std::string& name) {
        write(name, "POST", pods + "/" + name + "/binding",
              {{"apiVersion", "v1"},
               {"kind", "Binding"},
               {"metadata", {{"name", name}}},
               {"target", {{"kind", "Node"}, {"name", "n1"}}}});
      },
      [&](const std::string& name) {
        Json pod = live(name)->document();
        pod["status"]["phase"] = "Running";
        pod["status"]["conditions"] = {{{"type", "Ready"}, {"status", "False"}}};
        write(name, "PUT", pods + "/" + name + "/status?fieldManager=kubelet", pod);
      },
      [&](const std::string& name) {
        Json pod = live(name)->document();
        pod["status"]["conditions"] = {{{"type", "Ready"}, {"status", "True"}}};
        write(name, "PUT", pods + "/" + name + "/status?fieldManager=kubelet", pod);
      },
      [&](const std::string& name) {
        Json pod = live(name)->document();
        pod["metadata"]["labels"]["role"] = "leader";
        write(name, "PUT", pods + "/" + name + "?fieldManager=lws", pod);
      },
      [&](const std::string& name) {
        write(name, "DELETE", pods + "/" + name, {{"gracePeriodSeconds", 30}});
      },
  };
  const std::uint64_t before = store_->CurrentResourceVersion();
  for (const Step& step : life) {
    step("read");
    step("unread");
    clock_.Advance(std::chrono::seconds(1));
  }
  EXPECT_GE(live("unread")->deferred_depth(), 5) << "the unread writes deferred their entries";
  std::map<std::string, std::vector<std::string>> versions;
  const store::ChangeLog log = store_->Changes(before).value();
  for (const store::StoreChange& change : log.changes) {
    versions[change.object->name().name].push_back(store::ManagedFieldsJson(*change.object).dump());
  }
  ASSERT_EQ(versions["read"].size(), life.size());
  EXPECT_EQ(versions["unread"], versions["read"]);
  // The recording happened: the creator, the kubelet and the label's writer all have entries.
  for (const char* owner : {"statefulset-controller", "kubelet", "f:role"}) {
    EXPECT_NE(versions["unread"].back().find(owner), std::string::npos) << owner;
  }
}

}  // namespace
}  // namespace lws::apiserver::testing
