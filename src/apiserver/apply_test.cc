#include "apiserver/apply.h"

#include <gtest/gtest.h>

#include "api/go_json.h"
#include "apiserver/apply_testing.h"

namespace lws::apiserver {
namespace {

using testing::At;
using testing::Options;
using testing::Scope;
using testing::StatefulSet;

Json J(const char* text) { return Json::parse(text); }

// Applies and expects success.
Json MustApply(const Json& live, const Json& config, const ApplyOptions& options) {
  Result<ApplyResult> r = Apply(live, config, options);
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  return r.ok() ? r->object : Json();
}

// The managedFields entry with this manager and operation, or null.
Json EntryOf(const Json& object, const std::string& manager, const std::string& operation) {
  for (const Json& e : ManagedFieldsOf(object)) {
    if (e["manager"] == manager && e["operation"] == operation) return e;
  }
  return Json();
}

TEST(ApplyTest, CreatesTheObjectAndRecordsTheApplier) {
  Result<ApplyResult> r = Apply(Json(), StatefulSet(2), Options("kubectl", 5));
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_TRUE(r->created);
  Json want = StatefulSet(2);
  want["metadata"]["managedFields"] = J(R"([{"manager":"kubectl","operation":"Apply",
      "apiVersion":"apps/v1","time":"2025-01-01T00:00:05Z","fieldsType":"FieldsV1",
      "fieldsV1":{"f:spec":{"f:replicas":{},"f:template":{"f:spec":{"f:containers":{
        "k:{\"name\":\"c\"}":{".":{},"f:image":{},"f:name":{}}}}}}}}])");
  EXPECT_EQ(r->object, want);
}

TEST(ApplyTest, ReapplyChangesTheObjectAndMovesTheTime) {
  Json obj = MustApply(Json(), StatefulSet(2), Options("kubectl", 0));
  Result<ApplyResult> r = Apply(obj, StatefulSet(3, "nginx:2"), Options("kubectl", 60));
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE(r->created);
  EXPECT_EQ(r->object["spec"]["replicas"], 3);
  EXPECT_EQ(r->object["spec"]["template"]["spec"]["containers"][0]["image"], "nginx:2");
  ASSERT_EQ(ManagedFieldsOf(r->object).size(), 1u);
  EXPECT_EQ(ManagedFieldsOf(r->object)[0]["time"], "2025-01-01T00:01:00Z");
  // The same configuration again changes nothing, not even the time.
  EXPECT_EQ(MustApply(r->object, StatefulSet(3, "nginx:2"), Options("kubectl", 120)), r->object);
}

TEST(ApplyTest, ReapplyRemovesFieldsTheApplierNoLongerSets) {
  Json first = StatefulSet(2);
  first["metadata"]["labels"] = {{"a", "1"}, {"b", "2"}};
  first["spec"]["template"]["spec"]["containers"].push_back({{"name", "sidecar"}, {"image", "x"}});
  Json obj = MustApply(Json(), first, Options("kubectl"));
  // Something untracked (a default) must survive pruning.
  obj["spec"]["podManagementPolicy"] = "OrderedReady";
  Json second = StatefulSet(2);
  second["metadata"]["labels"] = {{"a", "1"}};
  obj = MustApply(obj, second, Options("kubectl"));
  EXPECT_EQ(obj["metadata"]["labels"], J(R"({"a":"1"})"));
  EXPECT_EQ(obj["spec"]["template"]["spec"]["containers"].size(), 1u);
  EXPECT_EQ(obj["spec"]["podManagementPolicy"], "OrderedReady");
  // Omitting every label removes the map itself.
  obj = MustApply(obj, StatefulSet(2), Options("kubectl"));
  EXPECT_FALSE(obj["metadata"].contains("labels"));
}

TEST(ApplyTest, OmittedFieldSurvivesWhenAnotherManagerOwnsIt) {
  Json with_label = StatefulSet(2);
  with_label["metadata"]["labels"] = {{"team", "a"}};
  Json obj = MustApply(Json(), with_label, Options("one"));
  Json label_only = J(R"({"apiVersion":"apps/v1","kind":"StatefulSet","metadata":{"name":"s",
      "labels":{"team":"a"}}})");
  obj = MustApply(obj, label_only, Options("two"));  // same value: shared, no conflict
  obj = MustApply(obj, StatefulSet(2), Options("one"));
  EXPECT_EQ(obj["metadata"]["labels"], J(R"({"team":"a"})"));
  EXPECT_EQ(EntryOf(obj, "two", "Apply")["fieldsV1"],
            J(R"({"f:metadata":{"f:labels":{"f:team":{}}}})"));
  EXPECT_FALSE(EntryOf(obj, "one", "Apply")["fieldsV1"].contains("f:metadata"));

  // An Update manager's field survives the same way.
  Json scaled = obj;
  scaled["spec"]["replicas"] = 5;
  FieldManagerScope scale = Scope("kubectl", 10, "scale");
  obj = UpdateManagedFields(obj, scaled, scale);
  Json no_replicas = StatefulSet(2);
  no_replicas["spec"].erase("replicas");
  obj = MustApply(obj, no_replicas, Options("one"));
  EXPECT_EQ(obj["spec"]["replicas"], 5);
  EXPECT_EQ(EntryOf(obj, "kubectl", "Update")["fieldsV1"], J(R"({"f:spec":{"f:replicas":{}}})"));
}

TEST(ApplyTest, ConflictsWithAnUpdateManager) {
  Json created = StatefulSet(2);
  Json obj = UpdateManagedFields(Json(), created, Scope("kubectl-client-side-apply"));
  Result<ApplyResult> r = Apply(obj, StatefulSet(3), Options("me"));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), Code::kConflict);
  EXPECT_EQ(r.status().message(),
            "Apply failed with 1 conflict: conflict with \"kubectl-client-side-apply\" using "
            "apps/v1: .spec.replicas");
  EXPECT_EQ(r.status().causes(),
            (std::vector<FieldCause>{{"FieldManagerConflict",
                                      "conflict with \"kubectl-client-side-apply\" using apps/v1",
                                      ".spec.replicas"}}));

  r = Apply(obj, StatefulSet(3, "nginx:2"), Options("me"));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(),
            "Apply failed with 2 conflicts: conflicts with \"kubectl-client-side-apply\" using "
            "apps/v1:\n- .spec.replicas\n- .spec.template.spec.containers[name=\"c\"].image");
  ASSERT_EQ(r.status().causes().size(), 2u);
  EXPECT_EQ(r.status().causes()[1].field, ".spec.template.spec.containers[name=\"c\"].image");

  // The same values do not conflict: both managers own them.
  Json same = MustApply(obj, StatefulSet(2), Options("me"));
  EXPECT_EQ(EntryOf(same, "me", "Apply")["fieldsV1"]["f:spec"]["f:replicas"], Json::object());
  EXPECT_EQ(
      EntryOf(same, "kubectl-client-side-apply", "Update")["fieldsV1"]["f:spec"]["f:replicas"],
      Json::object());

  // force takes the changed fields over.
  Json forced = MustApply(obj, StatefulSet(3), Options("me", 0, /*force=*/true));
  EXPECT_EQ(forced["spec"]["replicas"], 3);
  Json csa = EntryOf(forced, "kubectl-client-side-apply", "Update");
  EXPECT_FALSE(csa["fieldsV1"]["f:spec"].contains("f:replicas"));
  EXPECT_TRUE(csa["fieldsV1"]["f:spec"].contains("f:template"));
}

TEST(ApplyTest, ConflictsBetweenAppliersGroupByManager) {
  Json obj = MustApply(Json(), StatefulSet(2), Options("a"));
  Json labels = J(R"({"apiVersion":"apps/v1","kind":"StatefulSet","metadata":{"name":"s",
      "labels":{"x":"1"}}})");
  obj = MustApply(obj, labels, Options("b"));
  Json config = StatefulSet(4);
  config["metadata"]["labels"] = {{"x", "2"}};
  Result<ApplyResult> r = Apply(obj, config, Options("c"));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(),
            "Apply failed with 2 conflicts: conflicts with \"a\":\n- .spec.replicas\n"
            "conflicts with \"b\":\n- .metadata.labels.x");
  EXPECT_EQ(r.status().causes()[0].message, "conflict with \"a\"");
}

TEST(ApplyTest, MapListsMergeByKeyWithPerItemOwnership) {
  Json obj = MustApply(Json(), StatefulSet(1, "app:1"), Options("app"));
  Json sidecar = J(R"({"apiVersion":"apps/v1","kind":"StatefulSet","metadata":{"name":"s"},
      "spec":{"template":{"spec":{"containers":[{"name":"proxy","image":"envoy"}]}}}})");
  obj = MustApply(obj, sidecar, Options("mesh"));
  EXPECT_EQ(obj["spec"]["template"]["spec"]["containers"],
            J(R"([{"name":"c","image":"app:1"},{"name":"proxy","image":"envoy"}])"));
  EXPECT_EQ(EntryOf(obj, "mesh", "Apply")["fieldsV1"],
            J(R"({"f:spec":{"f:template":{"f:spec":{"f:containers":{"k:{\"name\":\"proxy\"}":{
              ".":{},"f:image":{},"f:name":{}}}}}}})"));
  // Re-applying either configuration keeps the other manager's container.
  obj = MustApply(obj, StatefulSet(1, "app:2"), Options("app"));
  EXPECT_EQ(obj["spec"]["template"]["spec"]["containers"],
            J(R"([{"name":"c","image":"app:2"},{"name":"proxy","image":"envoy"}])"));
  Json no_sidecar = sidecar;
  no_sidecar["spec"]["template"]["spec"]["containers"] = Json::array();
  obj = MustApply(obj, no_sidecar, Options("mesh"));
  EXPECT_EQ(obj["spec"]["template"]["spec"]["containers"], J(R"([{"name":"c","image":"app:2"}])"));
}

TEST(ApplyTest, SetListsUnionAndAtomicListsReplace) {
  auto with = [](const char* finalizers, const char* args) {
    Json c = StatefulSet(1);
    c["metadata"]["finalizers"] = J(finalizers);
    c["spec"]["template"]["spec"]["containers"][0]["args"] = J(args);
    return c;
  };
  Json obj = MustApply(Json(), with(R"(["a"])", R"(["x","y"])"), Options("one"));
  obj = MustApply(obj, with(R"(["b"])", R"(["z"])"), Options("two", 0, /*force=*/true));
  EXPECT_EQ(obj["metadata"]["finalizers"], J(R"(["a","b"])"));
  EXPECT_EQ(obj["spec"]["template"]["spec"]["containers"][0]["args"], J(R"(["z"])"));
  Json one = EntryOf(obj, "one", "Apply")["fieldsV1"];
  EXPECT_EQ(one["f:metadata"], J(R"({"f:finalizers":{"v:\"a\"":{}}})"));
  EXPECT_FALSE(one["f:spec"]["f:template"]["f:spec"]["f:containers"]["k:{\"name\":\"c\"}"].contains(
      "f:args"));
  // "one" drops its finalizer; "two"'s stays.
  obj = MustApply(obj, with("[]", R"(["z"])"), Options("one", 0, true));
  EXPECT_EQ(obj["metadata"]["finalizers"], J(R"(["b"])"));
}

TEST(ApplyTest, StatusIsIgnoredOnTheMainResource) {
  Json config = StatefulSet(1);
  config["status"] = {{"replicas", 7}};
  Json live = MustApply(Json(), StatefulSet(1), Options("kubectl"));
  live["status"] = {{"replicas", 1}};
  Json obj = MustApply(live, config, Options("kubectl"));
  EXPECT_EQ(obj["status"], J(R"({"replicas":1})"));
  EXPECT_FALSE(EntryOf(obj, "kubectl", "Apply")["fieldsV1"].contains("f:status"));
}

// The LWS controller applies its leader StatefulSet with manager "lws" and force, again and
// again, while the StatefulSet controller writes /status.
TEST(ApplyTest, LwsControllerAndStatusWriterKeepSeparateEntries) {
  auto leader = [](int replicas, int partition) {
    Json sts = StatefulSet(replicas, "vllm:1");
    sts["spec"]["updateStrategy"] = {{"type", "RollingUpdate"},
                                     {"rollingUpdate", {{"partition", partition}}}};
    return sts;
  };
  FieldManagerScope status_writer = Scope("kube-controller-manager", 0, "status");
  Json obj = MustApply(Json(), leader(3, 3), Options("lws", 0, true));
  for (int round = 1; round <= 4; ++round) {
    Json with_status = obj;
    with_status["status"] = {
        {"replicas", round}, {"readyReplicas", round - 1}, {"observedGeneration", round}};
    status_writer.now = At(round * 10 + 5);
    obj = UpdateManagedFields(obj, with_status, status_writer);
    obj = MustApply(obj, leader(3 + round % 2, 3 - round % 3), Options("lws", round * 10, true));
    EXPECT_EQ(obj["status"]["replicas"], round);
    EXPECT_EQ(obj["spec"]["replicas"], 3 + round % 2);
    EXPECT_EQ(obj["spec"]["updateStrategy"]["rollingUpdate"]["partition"], 3 - round % 3);
  }
  ASSERT_EQ(ManagedFieldsOf(obj).size(), 2u);
  Json lws = EntryOf(obj, "lws", "Apply");
  Json kcm = EntryOf(obj, "kube-controller-manager", "Update");
  EXPECT_EQ(kcm["subresource"], "status");
  // "." because the first status write created .status as a whole.
  EXPECT_EQ(kcm["fieldsV1"], J(R"({"f:status":{".":{},"f:observedGeneration":{},
      "f:readyReplicas":{},"f:replicas":{}}})"));
  EXPECT_FALSE(lws.contains("subresource"));
  EXPECT_FALSE(lws["fieldsV1"].contains("f:status"));
  EXPECT_EQ(lws["time"], "2025-01-01T00:00:40Z");
}

TEST(ApplyTest, UntrackedObjectsBelongToBeforeFirstApply) {
  Json live = StatefulSet(2);  // stored without managedFields
  Result<ApplyResult> r = Apply(live, StatefulSet(3), Options("me"));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().causes()[0].message, "conflict with \"before-first-apply\" using apps/v1");
  Json obj = MustApply(live, StatefulSet(2), Options("me"));
  EXPECT_EQ(ManagedFieldsOf(obj).size(), 2u);
}

TEST(ApplyTest, KubectlUpgradesFromClientSideApply) {
  Json manifest = StatefulSet(2);
  Json created = manifest;
  created["metadata"]["annotations"] = {{std::string(kLastAppliedAnnotation), manifest.dump()}};
  Json obj = UpdateManagedFields(Json(), created, Scope("kubectl-client-side-apply"));
  // Another manager would conflict; kubectl takes over what last-applied still describes.
  EXPECT_FALSE(Apply(obj, StatefulSet(3), Options("other")).ok());
  Json upgraded = MustApply(obj, StatefulSet(3), Options("kubectl", 9));
  EXPECT_EQ(upgraded["spec"]["replicas"], 3);
  EXPECT_EQ(upgraded["metadata"]["annotations"][std::string(kLastAppliedAnnotation)],
            api::MarshalGoJson(StatefulSet(3)) + "\n");
}

TEST(ApplyTest, RejectsBadRequestsWithUpstreamMessages) {
  struct Case {
    Json config;
    Code code;
    std::string message;
  };
  Json wrong_version = StatefulSet(1);
  wrong_version["apiVersion"] = "apps/v1beta1";
  Json no_version = StatefulSet(1);
  no_version.erase("apiVersion");
  Json managed = StatefulSet(1);
  managed["metadata"]["managedFields"] = Json::array();
  Json wrong_kind = StatefulSet(1);
  wrong_kind["kind"] = "Deployment";
  Json duplicate = StatefulSet(1);
  duplicate["spec"]["template"]["spec"]["containers"].push_back({{"name", "c"}});
  Json wrong_name = StatefulSet(1);
  wrong_name["metadata"]["name"] = "t";
  std::vector<Case> cases = {
      {Json::array(), Code::kBadRequest,
       "error decoding YAML: error unmarshaling JSON: while decoding JSON: json: cannot "
       "unmarshal array into Go value of type map[string]interface {}"},
      {wrong_version, Code::kBadRequest,
       "Incorrect version specified in apply patch. Specified patch version: apps/v1beta1, "
       "expected: apps/v1"},
      {no_version, Code::kBadRequest,
       "Incorrect version specified in apply patch. Specified patch version: , expected: "
       "apps/v1"},
      {managed, Code::kBadRequest, "metadata.managedFields must be nil"},
      {wrong_kind, Code::kInternal,
       "failed to create typed patch object (default/s; apps/v1, Kind=Deployment): no "
       "corresponding type for apps/v1, Kind=Deployment"},
      {duplicate, Code::kInternal,
       "failed to create typed patch object (default/s; apps/v1, Kind=StatefulSet): "
       ".spec.template.spec.containers: duplicate entries for key [name=\"c\"]"},
      {wrong_name, Code::kBadRequest,
       "the name of the object (t) does not match the name on the URL (s)"},
  };
  for (const Case& c : cases) {
    Result<ApplyResult> r = Apply(Json(), c.config, Options("kubectl"));
    ASSERT_FALSE(r.ok()) << c.message;
    EXPECT_EQ(r.status().code(), c.code) << c.message;
    EXPECT_EQ(r.status().message(), c.message);
  }
}

TEST(ApplyTest, RequestOptionStatuses) {
  EXPECT_EQ(FieldManagerRequired().message(),
            "PatchOptions.meta.k8s.io \"\" is invalid: fieldManager: Required value: is required "
            "for apply patch");
  EXPECT_EQ(FieldManagerRequired().code(), Code::kInvalid);
  EXPECT_EQ(ForceNotAllowed().message(),
            "PatchOptions.meta.k8s.io \"\" is invalid: force: Forbidden: may not be specified "
            "for non-apply patch");
}

}  // namespace
}  // namespace lws::apiserver
