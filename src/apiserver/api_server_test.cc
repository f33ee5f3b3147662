// File: apiserver/api_server_test.cc
//
// The API server through ApiServer::Handle, without a socket: routing, discovery, CRUD,
// errors as Status objects, CRDs, namespaces and authentication.
#include <unistd.h>

#include <filesystem>

#include "apiserver/api_server_testing.h"

namespace lws::apiserver::testing {
namespace {

using api::Json;
constexpr const char* kTable = "application/json;as=Table;v=v1;g=meta.k8s.io,application/json";

TEST_F(ApiServerTest, VersionAndHealth) {
  Reply version = Get("/version?timeout=5s");
  EXPECT_EQ(version.code, 200);
  EXPECT_EQ(version.body["minor"], "32");
  EXPECT_EQ(Get("/healthz").raw.body, "ok");
  EXPECT_EQ(Get("/readyz").code, 200);
}

TEST_F(ApiServerTest, DiscoveryListsBuiltinsAndTheLwsCrd) {
  Reply apis = Get("/apis");
  ASSERT_EQ(apis.code, 200);
  EXPECT_NE(apis.body.dump().find("leaderworkerset.x-k8s.io"), std::string::npos);
  Reply lws = Get("/apis/leaderworkerset.x-k8s.io/v1");
  ASSERT_EQ(lws.code, 200);
  EXPECT_EQ(lws.body["resources"][0]["name"], "leaderworkersets");
  EXPECT_EQ(Get("/apis/nosuch.io/v1").code, 404);
  Reply root = Get("/openapi/v3");
  ASSERT_EQ(root.code, 200);
  std::string url = root.body["paths"]["apis/apps/v1"]["serverRelativeURL"];
  EXPECT_EQ(Get(url).code, 200);
}

TEST_F(ApiServerTest, UnknownPathsAndMethodsAreStatusObjects) {
  Reply unknown = Get("/apis/apps/v1/namespaces/default/nosuch");
  EXPECT_EQ(unknown.code, 404);
  EXPECT_EQ(unknown.body["kind"], "Status");
  EXPECT_EQ(unknown.body["message"], "the server could not find the requested resource");
  EXPECT_EQ(Send("POST", "/version").code, 405);
  EXPECT_EQ(Send("PATCH", kPods).code, 405);
  // A namespaced object needs its namespace in the path.
  EXPECT_EQ(Get("/api/v1/pods/p1").code, 404);
}

// A taken name is checked before managedFields are recorded (RequestHandler::CheckNameFree), yet
// the answers keep upstream's order: validation first, then the store's own checks, then the name.
TEST_F(ApiServerTest, CreateOfATakenNameAnswersAsTheStoreDoes) {
  ASSERT_EQ(Post(kPods, PodJson("p1")).code, 201);
  Reply taken = Post(kPods, PodJson("p1"));
  EXPECT_EQ(taken.code, 409);
  EXPECT_EQ(taken.body["message"], "pods \"p1\" already exists");
  EXPECT_EQ(taken.body["details"], Json::parse(R"({"name":"p1","kind":"pods"})"));

  Json invalid = PodJson("p1");
  invalid["spec"]["containers"] = Json::array();
  EXPECT_EQ(Post(kPods, invalid).code, 422);

  Json with_version = PodJson("p1");
  with_version["metadata"]["resourceVersion"] = "7";
  Reply versioned = Post(kPods, with_version);
  EXPECT_EQ(versioned.code, 500);
  EXPECT_EQ(versioned.body["message"],
            "resourceVersion should not be set on objects to be created");

  Json dry = PodJson("p1");
  EXPECT_EQ(Post(std::string(kPods) + "?dryRun=All", dry).code, 409);
}

TEST_F(ApiServerTest, CreateGetListDelete) {
  Reply created = Post(kPods, PodJson("p1"));
  ASSERT_EQ(created.code, 201) << created.body;
  EXPECT_EQ(created.body["status"]["phase"], "Pending");
  EXPECT_FALSE(created.body["metadata"]["uid"].get<std::string>().empty());
  EXPECT_EQ(created.body["metadata"]["managedFields"][0]["operation"], "Update");

  Reply again = Post(kPods, PodJson("p1"));
  EXPECT_EQ(again.code, 409);
  EXPECT_EQ(again.body["reason"], "AlreadyExists");
  EXPECT_EQ(again.body["details"]["kind"], "pods");

  EXPECT_EQ(Get(std::string(kPods) + "/p1").body["metadata"]["name"], "p1");
  Reply list = Get(std::string(kPods) + "?labelSelector=app%3Ddemo&limit=500");
  ASSERT_EQ(list.code, 200);
  EXPECT_EQ(list.body["kind"], "PodList");
  EXPECT_EQ(list.body["items"].size(), 1u);
  EXPECT_EQ(Get(std::string(kPods) + "?labelSelector=app+notin+%28demo%29").body["items"].size(),
            0u);
  EXPECT_EQ(Get("/api/v1/pods").body["items"].size(), 1u);  // all namespaces

  Reply deleted = Delete(std::string(kPods) + "/p1", {{"propagationPolicy", "Background"}});
  EXPECT_EQ(deleted.code, 200);
  EXPECT_EQ(deleted.body["kind"], "Pod");
  EXPECT_EQ(Get(std::string(kPods) + "/p1").code, 404);
}

TEST_F(ApiServerTest, BuiltinKindsAreDefaultedAndValidated) {
  Reply pod = Post(kPods, PodJson("p1"));
  ASSERT_EQ(pod.code, 201);
  EXPECT_EQ(pod.body["spec"]["restartPolicy"], "Always");
  EXPECT_EQ(pod.body["status"]["qosClass"], "BestEffort");
  Reply sts = Post(kSts, StatefulSetJson("s1"));
  ASSERT_EQ(sts.code, 201);
  EXPECT_EQ(sts.body["spec"]["updateStrategy"]["type"], "RollingUpdate");
  EXPECT_EQ(sts.body["spec"]["podManagementPolicy"], "OrderedReady");

  Json no_containers = PodJson("p2");
  no_containers["spec"]["containers"] = Json::array();
  Reply invalid = Post(kPods, no_containers);
  EXPECT_EQ(invalid.code, 422);
  EXPECT_EQ(invalid.body["message"], "Pod \"p2\" is invalid: spec.containers: Required value");
  EXPECT_EQ(invalid.body["details"]["causes"][0]["field"], "spec.containers");
}

TEST_F(ApiServerTest, BadBodiesAreBadRequests) {
  Reply malformed = Send("POST", kPods, "{\"apiVersion\": ");
  EXPECT_EQ(malformed.code, 400);
  EXPECT_NE(malformed.body["message"].get<std::string>().find("json parse error"),
            std::string::npos);
  Reply wrong_kind = Post(kPods, StatefulSetJson("s"));
  EXPECT_EQ(wrong_kind.code, 400);
  Json other_ns = PodJson("p", "other");
  EXPECT_EQ(Post(kPods, other_ns).code, 400);
  // A protobuf body that is not Kubernetes' envelope.
  Reply protobuf = Send("POST", "/api/v1/namespaces", "{}", "application/vnd.kubernetes.protobuf");
  EXPECT_EQ(protobuf.code, 400);
  EXPECT_NE(protobuf.body["message"].get<std::string>().find("expected prefix [107 56 115 0]"),
            std::string::npos);
}

TEST_F(ApiServerTest, CreateInMissingNamespaceIsNotFound) {
  Reply reply = Post("/api/v1/namespaces/nosuch/pods", PodJson("p", "nosuch"));
  EXPECT_EQ(reply.code, 404);
  EXPECT_EQ(reply.body["message"], "namespaces \"nosuch\" not found");
}

TEST_F(ApiServerTest, TableForKubectlGet) {
  ASSERT_EQ(Post(kPods, PodJson("p1")).code, 201);
  Reply table = Send("GET", std::string(kPods) + "?limit=500", "", "", kTable);
  ASSERT_EQ(table.code, 200);
  EXPECT_EQ(table.body["kind"], "Table");
  EXPECT_EQ(table.body["rows"][0]["cells"][0], "p1");
  EXPECT_EQ(table.body["rows"][0]["object"]["metadata"]["namespace"], "default");
  EXPECT_EQ(table.raw.headers.Get("Content-Type"), "application/json;as=Table;v=v1;g=meta.k8s.io");
}

TEST_F(ApiServerTest, LeaderWorkerSetIsServedFromItsCrd) {
  Reply created = Post(kLws, LwsJson("l1"));
  ASSERT_EQ(created.code, 201) << created.body;
  // CRD structural defaults.
  EXPECT_EQ(created.body["spec"]["startupPolicy"], "LeaderCreated");
  EXPECT_EQ(created.body["metadata"]["generation"], 1);

  Json bogus = LwsJson("l2");
  bogus["spec"]["bogus"] = 1;
  Reply strict = Send("POST", std::string(kLws) + "?fieldValidation=Strict", bogus.dump());
  EXPECT_EQ(strict.code, 400);
  EXPECT_NE(strict.body["message"].get<std::string>().find("unknown field \"spec.bogus\""),
            std::string::npos);
  Reply warn = Send("POST", std::string(kLws) + "?fieldValidation=Warn", bogus.dump());
  EXPECT_EQ(warn.code, 201);
  EXPECT_EQ(warn.raw.headers.Get("Warning"), "299 - \"unknown field \\\"spec.bogus\\\"\"");
  EXPECT_FALSE(warn.body["spec"].contains("bogus"));

  Json invalid = LwsJson("l3");
  invalid["spec"]["replicas"] = -1;
  Reply rejected = Post(kLws, invalid);
  EXPECT_EQ(rejected.code, 422);
  EXPECT_EQ(rejected.body["details"]["kind"], "LeaderWorkerSet");
}

TEST_F(ApiServerTest, CustomResourceDefinitionsComeAndGo) {
  Json crd = {{"apiVersion", "apiextensions.k8s.io/v1"},
              {"kind", "CustomResourceDefinition"},
              {"metadata", {{"name", "widgets.example.com"}}},
              {"spec",
               {{"group", "example.com"},
                {"scope", "Namespaced"},
                {"names",
                 {{"plural", "widgets"},
                  {"singular", "widget"},
                  {"kind", "Widget"},
                  {"listKind", "WidgetList"}}},
                {"versions",
                 {{{"name", "v1"},
                   {"served", true},
                   {"storage", true},
                   {"schema",
                    {{"openAPIV3Schema",
                      {{"type", "object"}, {"x-kubernetes-preserve-unknown-fields", true}}}}}}}}}}};
  Reply created = Post("/apis/apiextensions.k8s.io/v1/customresourcedefinitions", crd);
  ASSERT_EQ(created.code, 201) << created.body;
  EXPECT_EQ(created.body["status"]["conditions"][1]["type"], "Established");
  Json widget = {
      {"apiVersion", "example.com/v1"}, {"kind", "Widget"}, {"metadata", {{"name", "w"}}}};
  ASSERT_EQ(Post("/apis/example.com/v1/namespaces/default/widgets", widget).code, 201);
  ASSERT_EQ(
      Delete("/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.example.com").code,
      200);
  EXPECT_EQ(Get("/apis/example.com/v1/namespaces/default/widgets").code, 404);
}

// A CRD change makes a new snapshot of what is served: the other CRDs' compiled schemas carry
// over (installing one does not recompile them all), a changed schema is compiled again, and the
// OpenAPI documents are made when first asked for, with the new CRD among them.
TEST_F(ApiServerTest, ASnapshotKeepsTheSchemasThatDidNotChange) {
  const std::string lws = "leaderworkersets.leaderworkerset.x-k8s.io";
  auto schema_of = [&](const std::string& group_resource) {
    return server_->served()->schemas.at(group_resource).get();
  };
  const api::StructuralSchema* before = schema_of(lws);
  Json crd = Json::parse(R"({"apiVersion": "apiextensions.k8s.io/v1",
    "kind": "CustomResourceDefinition", "metadata": {"name": "widgets.example.com"},
    "spec": {"group": "example.com", "scope": "Namespaced",
             "names": {"plural": "widgets", "singular": "widget", "kind": "Widget"},
             "versions": [{"name": "v1", "served": true, "storage": true,
                           "schema": {"openAPIV3Schema": {"type": "object",
                             "properties": {"size": {"type": "integer"}}}}}]}})");
  ASSERT_EQ(Post("/apis/apiextensions.k8s.io/v1/customresourcedefinitions", crd).code, 201);
  EXPECT_EQ(schema_of(lws), before) << "the LWS CRD's schema is kept, not compiled again";
  const api::StructuralSchema* widgets = schema_of("widgets.example.com");
  Reply openapi = Get("/openapi/v3");
  ASSERT_EQ(openapi.code, 200);
  EXPECT_TRUE(openapi.body["paths"].contains("apis/example.com/v1")) << openapi.body.dump();
  Reply stored = Get("/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.example.com");
  Json changed = stored.body;
  changed["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["size"]["type"] =
      "string";
  ASSERT_EQ(
      Put("/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.example.com", changed)
          .code,
      200);
  EXPECT_NE(schema_of("widgets.example.com"), widgets) << "a changed schema is compiled again";
  EXPECT_EQ(schema_of(lws), before);
  Json widget = {{"apiVersion", "example.com/v1"},
                 {"kind", "Widget"},
                 {"metadata", {{"name", "w"}}},
                 {"size", "big"}};
  EXPECT_EQ(Post("/apis/example.com/v1/namespaces/default/widgets", widget).code, 201)
      << "validated by the new schema";
}

TEST_F(ApiServerTest, StoredCrdsAreServedAgainAfterARestart) {
  std::string dir = ::testing::TempDir() + "/api_server_restart_" + std::to_string(::getpid());
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  Open({}, dir);
  ASSERT_EQ(Post(kLws, LwsJson("l1")).code, 201);
  std::string rv = Get(kLws).body["metadata"]["resourceVersion"];
  Open({}, dir);
  Reply list = Get(kLws);
  ASSERT_EQ(list.code, 200);
  EXPECT_EQ(list.body["items"][0]["metadata"]["name"], "l1");
  EXPECT_EQ(list.body["metadata"]["resourceVersion"], rv);  // nothing re-seeded or re-installed
  server_.reset();
  store_.reset();
  std::filesystem::remove_all(dir);
}

// The namespace registry: a DELETE only starts termination; the content stays for the namespace
// controller (cluster/namespace_deleter.h) and new content is refused; further DELETEs and
// updates keep the namespace while spec.finalizers holds "kubernetes".
TEST_F(ApiServerTest, DeletingANamespaceMakesItTerminating) {
  Json ns = {{"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", {{"name", "team"}}}};
  ASSERT_EQ(Post("/api/v1/namespaces", ns).code, 201);
  ASSERT_EQ(Post("/api/v1/namespaces/team/pods", PodJson("p", "team")).code, 201);
  Reply deleted = Delete("/api/v1/namespaces/team");
  ASSERT_EQ(deleted.code, 200);
  EXPECT_EQ(deleted.body["status"]["phase"], "Terminating");
  EXPECT_TRUE(deleted.body["metadata"].contains("deletionTimestamp"));
  EXPECT_EQ(Get("/api/v1/namespaces/team/pods/p").code, 200);
  Reply refused = Post("/api/v1/namespaces/team/pods", PodJson("q", "team"));
  EXPECT_EQ(refused.code, 403);
  EXPECT_EQ(refused.body["message"],
            "pods \"q\" is forbidden: unable to create new content in namespace team because it "
            "is being terminated");
  EXPECT_EQ(Delete("/api/v1/namespaces/team").code, 200);
  Json labelled = Get("/api/v1/namespaces/team").body;
  labelled["metadata"]["labels"]["x"] = "y";
  EXPECT_EQ(Put("/api/v1/namespaces/team", labelled).code, 200);
  EXPECT_EQ(Get("/api/v1/namespaces/team").code, 200);
}

// namespaces/{name}/finalize (the namespace controller's last step) is the one write that
// changes spec.finalizers: a PUT of the namespace keeps the stored list (upstream's
// namespaceStrategy vs namespaceFinalizeStrategy), and managedFields name the subresource.
TEST_F(ApiServerTest, OnlyFinalizeChangesANamespacesFinalizers) {
  Json ns = {{"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", {{"name", "team"}}}};
  ASSERT_EQ(Post("/api/v1/namespaces", ns).code, 201);
  ASSERT_EQ(Delete("/api/v1/namespaces/team").code, 200);
  Json cleared = Get("/api/v1/namespaces/team").body;
  cleared["spec"]["finalizers"] = Json::array();
  Reply put = Put("/api/v1/namespaces/team", cleared);
  ASSERT_EQ(put.code, 200);
  EXPECT_EQ(put.body["spec"]["finalizers"], Json::array({"kubernetes"}));
  Reply finalized = Put("/api/v1/namespaces/team/finalize", cleared);
  ASSERT_EQ(finalized.code, 200) << finalized.body.dump();
  EXPECT_EQ(finalized.body["spec"]["finalizers"], Json::array());
  bool named = false;
  for (const Json& entry : finalized.body["metadata"]["managedFields"]) {
    named = named || entry.value("subresource", "") == "finalize";
  }
  EXPECT_TRUE(named) << finalized.body["metadata"]["managedFields"].dump();
  // A terminating namespace left with no finalizer goes with that write
  // (ShouldDeleteNamespaceDuringUpdate).
  EXPECT_EQ(Get("/api/v1/namespaces/team").code, 404);
}

TEST_F(ApiServerTest, WatchStreamsEvents) {
  Reply list = Get(kPods);
  std::string rv = list.body["metadata"]["resourceVersion"];
  Reply watch = Get(std::string(kPods) + "?watch=true&resourceVersion=" + rv);
  ASSERT_EQ(watch.code, 200);
  ASSERT_TRUE(watch.raw.stream);
  int wakes = 0;
  watch.raw.stream->Start([&] { ++wakes; });
  ASSERT_EQ(Post(kPods, PodJson("p1")).code, 201);
  std::string out;
  EXPECT_TRUE(watch.raw.stream->Next(&out));
  EXPECT_GE(wakes, 1);
  Json event = Json::parse(out.substr(0, out.find('\n')));
  EXPECT_EQ(event["type"], "ADDED");
  EXPECT_EQ(event["object"]["metadata"]["name"], "p1");
  watch.raw.stream->Cancel();
  out.clear();
  EXPECT_FALSE(watch.raw.stream->Next(&out));
}

TEST_F(ApiServerTest, WatchFromATooOldVersionIsAnErrorEvent) {
  store::StoreOptions small;
  small.clock = &clock_;
  small.history_size = 3;
  server_.reset();
  store_ = store::Store::Open(small).value();
  ApiServerOptions options;
  options.store = store_.get();
  options.clock = &clock_;
  server_ = ApiServer::Create(std::move(options)).value();
  for (int i = 0; i < 5; ++i) ASSERT_EQ(Post(kPods, PodJson("p" + std::to_string(i))).code, 201);
  Reply watch = Get(std::string(kPods) + "?watch=true&resourceVersion=2");
  ASSERT_EQ(watch.code, 200);
  std::string out;
  watch.raw.stream->Start([] {});
  EXPECT_FALSE(watch.raw.stream->Next(&out));
  Json event = Json::parse(out);
  EXPECT_EQ(event["type"], "ERROR");
  EXPECT_EQ(event["object"]["code"], 410);
  EXPECT_EQ(event["object"]["reason"], "Expired");
}

TEST_F(ApiServerTest, WatchListNeedsItsCompanionParameters) {
  Reply missing = Get(std::string(kPods) + "?watch=true&sendInitialEvents=true");
  EXPECT_EQ(missing.code, 422);
  Reply ok = Get(std::string(kPods) +
                 "?watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&"
                 "allowWatchBookmarks=true");
  ASSERT_EQ(ok.code, 200);
  ok.raw.stream->Start([] {});
  std::string out;
  ok.raw.stream->Next(&out);
  EXPECT_NE(out.find("k8s.io/initial-events-end"), std::string::npos);
  ok.raw.stream->Cancel();
}

// A plugin that labels every pod and refuses pods named "forbidden".
class LabelPods final : public admission::AdmissionPlugin {
 public:
  std::string_view Name() const override { return "LabelPods"; }
  bool Handles(const api::ResourceInfo& resource, std::string_view sub) const override {
    return resource.kind == "Pod" && sub.empty();
  }
  Status Mutate(admission::AdmissionRequest& request) override {
    (*request.object)["metadata"]["labels"]["admitted"] = "yes";
    return Status::Ok();
  }
  Status Validate(const admission::AdmissionRequest& request) override {
    if (request.name != "forbidden") return Status::Ok();
    return Status(Code::kForbidden, "admission webhook \"pods\" denied the request: no");
  }
};

TEST_F(ApiServerTest, AdmissionPluginsMutateThenValidate) {
  ApiServerOptions options;
  options.admission.Add(std::make_shared<LabelPods>());
  Open(std::move(options));
  Reply admitted = Post(kPods, PodJson("p1"));
  ASSERT_EQ(admitted.code, 201);
  EXPECT_EQ(admitted.body["metadata"]["labels"]["admitted"], "yes");
  Reply denied = Post(kPods, PodJson("forbidden"));
  EXPECT_EQ(denied.code, 403);
  EXPECT_EQ(denied.body["reason"], "Forbidden");
  EXPECT_EQ(Post(kSts, StatefulSetJson("s")).body["metadata"].contains("labels"), false);
}

// Without credentials a caller is system:anonymous, whom RBAC lets read only the public paths;
// a wrong token is 401 (api_server_auth_test.cc has the rest).
TEST_F(ApiServerTest, TokenGuardsEverythingButPublicPaths) {
  ApiServerOptions options;
  options.token = "secret";
  Open(std::move(options));
  EXPECT_EQ(Get("/api/v1/namespaces").code, 403);
  EXPECT_EQ(Get("/version").code, 200);
  EXPECT_EQ(Get("/healthz").code, 200);
  transport::HttpRequest request;
  request.method = "GET";
  request.target = "/api/v1/namespaces";
  request.headers.Add("Authorization", "Bearer secret");
  EXPECT_EQ(server_->Handle(request).status, 200);
}

}  // namespace
}  // namespace lws::apiserver::testing
