#include "store/object_rules.h"

#include <gtest/gtest.h>

#include "store/store_testing.h"

namespace lws::store {
namespace {

using testing::ConfigMaps;
using testing::Lws;
using testing::Pods;
using testing::StatefulSets;

const Time kNow = Time(std::chrono::seconds(1'700'000'000));  // 2023-11-14T22:13:20Z

Json Stored(Json object, const std::string& rv = "7") {
  object["metadata"]["uid"] = "u-1";
  object["metadata"]["creationTimestamp"] = "2023-01-01T00:00:00Z";
  object["metadata"]["resourceVersion"] = rv;
  return object;
}

TEST(PrepareForCreateTest, FillsSystemFieldsAndClearsWhatClientsMayNotSet) {
  Json pod = testing::Pod("p1");
  pod["metadata"]["deletionTimestamp"] = "2020-01-01T00:00:00Z";
  pod["metadata"]["deletionGracePeriodSeconds"] = 5;
  pod["metadata"]["generation"] = 9;
  pod["metadata"]["uid"] = "client-chosen";
  pod["status"] = {{"phase", "Running"}};
  auto out = PrepareForCreate(Pods(), pod, kNow, "uid-1", {});
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  const Json& meta = (*out)["metadata"];
  EXPECT_EQ(meta["uid"], "uid-1");
  EXPECT_EQ(meta["creationTimestamp"], "2023-11-14T22:13:20Z");
  EXPECT_FALSE(meta.contains("deletionTimestamp"));
  EXPECT_FALSE(meta.contains("deletionGracePeriodSeconds"));
  EXPECT_FALSE(meta.contains("generation")) << "pods do not track generation in 1.32";
  EXPECT_FALSE(out->contains("status"));
}

TEST(PrepareForCreateTest, GenerationStartsAtOneWhereTracked) {
  for (const auto* info : {&StatefulSets(), &Lws()}) {
    Json object = info == &Lws() ? testing::LeaderWorkerSet("l") : testing::StatefulSet("s");
    object["metadata"]["generation"] = 4;
    auto out = PrepareForCreate(*info, object, kNow, "u", {});
    ASSERT_TRUE(out.ok());
    EXPECT_EQ((*out)["metadata"]["generation"], 1) << info->resource;
  }
}

TEST(PrepareForCreateTest, InitialStatusReplacesTheClientsStatus) {
  CreateOptions options;
  options.initial_status = {{"phase", "Pending"}};
  Json pod = testing::Pod("p1");
  pod["status"] = {{"phase", "Running"}};
  auto out = PrepareForCreate(Pods(), pod, kNow, "u", options);
  ASSERT_TRUE(out.ok());
  EXPECT_EQ((*out)["status"], options.initial_status);
  // ConfigMaps have no status subresource: nothing is touched.
  Json cm = testing::ConfigMap("c");
  cm["status"] = "kept";
  EXPECT_EQ((*PrepareForCreate(ConfigMaps(), cm, kNow, "u", {}))["status"], "kept");
}

TEST(PrepareForCreateTest, Errors) {
  struct Case {
    std::string name;
    Json object;
    Code code;
    std::string message;
  };
  Json no_name = testing::Pod("");
  Json no_ns = testing::Pod("p", "");
  Json with_rv = testing::Pod("p");
  with_rv["metadata"]["resourceVersion"] = "12";
  std::vector<Case> cases = {
      {"no name", no_name, Code::kInvalid,
       "Pod \"\" is invalid: metadata.name: Required value: name or generateName is required"},
      {"no namespace", no_ns, Code::kInvalid,
       "Pod \"p\" is invalid: metadata.namespace: Required value"},
      {"resourceVersion set", with_rv, Code::kInternal,
       "resourceVersion should not be set on objects to be created"},
      {"not an object", Json::array(), Code::kBadRequest, "the object must be a JSON object"},
  };
  for (const auto& c : cases) {
    auto out = PrepareForCreate(Pods(), c.object, kNow, "u", {});
    ASSERT_FALSE(out.ok()) << c.name;
    EXPECT_EQ(out.status().code(), c.code) << c.name;
    EXPECT_EQ(out.status().message(), c.message) << c.name;
  }
}

TEST(PrepareForCreateTest, ClusterScopedObjectsLoseTheirNamespace) {
  Json node = {{"metadata", {{"name", "n1"}, {"namespace", "default"}}}};
  auto out = PrepareForCreate(testing::Nodes(), node, kNow, "u", {});
  ASSERT_TRUE(out.ok());
  EXPECT_FALSE((*out)["metadata"].contains("namespace"));
  EXPECT_EQ((*out)["kind"], "Node");
  EXPECT_EQ((*out)["apiVersion"], "v1");
}

TEST(GeneratedNamePrefixTest, KeepsRoomForTheSuffix) {
  EXPECT_EQ(GeneratedNamePrefix("web-"), "web-");
  EXPECT_EQ(GeneratedNamePrefix(std::string(70, 'a')).size(), 58u);
}

TEST(CheckUpdatePreconditionTest, Table) {
  struct Case {
    const api::ResourceInfo* info;
    std::string rv;  // "" = absent
    Code code;
    std::string message;
  };
  std::vector<Case> cases = {
      {&Pods(), "7", Code::kOk, ""},
      {&Pods(), "", Code::kOk, ""},
      {&Pods(), "6", Code::kConflict,
       "Operation cannot be fulfilled on pods \"p\": the object has been modified; please apply "
       "your changes to the latest version and try again"},
      {&Pods(), "x", Code::kConflict, ""},
      {&StatefulSets(), "8", Code::kConflict,
       "Operation cannot be fulfilled on statefulsets.apps \"p\": the object has been modified; "
       "please apply your changes to the latest version and try again"},
      {&Lws(), "", Code::kInvalid,
       "leaderworkersets.leaderworkerset.x-k8s.io \"p\" is invalid: metadata.resourceVersion: "
       "Invalid value: 0: must be specified for an update"},
      {&Lws(), "7", Code::kOk, ""},
  };
  for (const auto& c : cases) {
    Json update = {{"metadata", {{"name", "p"}}}};
    if (!c.rv.empty()) update["metadata"]["resourceVersion"] = c.rv;
    Status s = CheckUpdatePrecondition(*c.info, update, 7);
    EXPECT_EQ(s.code(), c.code) << c.info->resource << " rv=" << c.rv;
    if (!c.message.empty()) {
      EXPECT_EQ(s.message(), c.message);
    }
  }
}

TEST(PrepareForUpdateTest, GenerationMovesOnlyOnChangesOutsideMetadataAndStatus) {
  struct Case {
    std::string name;
    const api::ResourceInfo* info;
    std::function<void(Json&)> change;
    int want_generation;
  };
  std::vector<Case> cases = {
      {"sts spec", &StatefulSets(), [](Json& o) { o["spec"]["replicas"] = 3; }, 2},
      {"sts labels", &StatefulSets(),
       [](Json& o) {
         o["metadata"]["labels"] = {{"a", "b"}};
       },
       1},
      {"sts status ignored", &StatefulSets(),
       [](Json& o) {
         o["status"] = {{"replicas", 3}};
       },
       1},
      {"sts new top-level field", &StatefulSets(), [](Json& o) { o["extra"] = 1; }, 2},
      {"lws spec", &Lws(), [](Json& o) { o["spec"]["replicas"] = 2; }, 2},
      {"lws annotations", &Lws(),
       [](Json& o) {
         o["metadata"]["annotations"] = {{"a", "b"}};
       },
       1},
      {"no change", &StatefulSets(), [](Json&) {}, 1},
  };
  for (const auto& c : cases) {
    Json old = Stored(c.info == &Lws() ? testing::LeaderWorkerSet("x") : testing::StatefulSet("x"));
    old["metadata"]["generation"] = 1;
    Json update = old;
    c.change(update);
    update["metadata"]["generation"] = 40;  // clients cannot set it
    auto out = PrepareForUpdate(*c.info, old, update, false);
    ASSERT_TRUE(out.ok()) << c.name;
    EXPECT_EQ((*out)["metadata"]["generation"], c.want_generation) << c.name;
  }
}

TEST(PrepareForUpdateTest, PodsNeverGetAGeneration) {
  Json old = Stored(testing::Pod("p"));
  Json update = old;
  update["spec"]["nodeName"] = "n1";
  auto out = PrepareForUpdate(Pods(), old, update, false);
  ASSERT_TRUE(out.ok());
  EXPECT_FALSE((*out)["metadata"].contains("generation"));
}

TEST(PrepareForUpdateTest, StatusIsolationBothWays) {
  Json old = Stored(testing::StatefulSet("s"));
  old["status"] = {{"replicas", 1}};
  Json update = old;
  update["spec"]["replicas"] = 5;
  update["status"] = {{"replicas", 5}};
  update["metadata"]["labels"] = {{"new", "label"}};

  auto main = PrepareForUpdate(StatefulSets(), old, update, false);
  ASSERT_TRUE(main.ok());
  EXPECT_EQ((*main)["status"], old["status"]) << "main resource keeps the stored status";
  EXPECT_EQ((*main)["spec"]["replicas"], 5);

  // Upstream statefulSetStatusStrategy resets the spec alone: labels come from the body.
  auto status = PrepareForUpdate(StatefulSets(), old, update, true);
  ASSERT_TRUE(status.ok());
  EXPECT_EQ((*status)["status"], update["status"]);
  EXPECT_EQ((*status)["spec"], old["spec"]) << "status endpoint ignores spec";
  EXPECT_EQ((*status)["metadata"]["labels"], update["metadata"]["labels"]) << "but not labels";
  EXPECT_EQ((*status)["metadata"]["generation"], old["metadata"].value("generation", Json()));
  EXPECT_FALSE(OnlyStatusChanged(StatefulSets(), old, *status));

  // A status update without status removes it, as the CR status strategy does.
  Json no_status = old;
  no_status.erase("status");
  EXPECT_FALSE(PrepareForUpdate(StatefulSets(), old, no_status, true)->contains("status"));
}

TEST(PrepareForUpdateTest, ImmutableMetadataIsKept) {
  Json old = Stored(testing::Pod("p"));
  Json update = old;
  update["metadata"]["creationTimestamp"] = "2030-01-01T00:00:00Z";
  update["metadata"]["deletionTimestamp"] = "2030-01-01T00:00:00Z";
  update["metadata"].erase("uid");
  auto out = PrepareForUpdate(Pods(), old, update, false);
  ASSERT_TRUE(out.ok());
  EXPECT_EQ(*out, old) << "the result equals the stored object: a no-op";

  update["metadata"]["uid"] = "other";
  auto bad = PrepareForUpdate(Pods(), old, update, false);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message(),
            "Pod \"p\" is invalid: metadata.uid: Invalid value: \"other\": field is immutable");
}

TEST(PrepareForUpdateTest, NoNewFinalizersOnceDeleting) {
  Json old = Stored(testing::ConfigMap("c"));
  old["metadata"]["finalizers"] = {"a"};
  old["metadata"]["deletionTimestamp"] = "2023-01-01T00:00:00Z";
  Json update = old;
  update["metadata"]["finalizers"] = {"a", "b"};
  auto out = PrepareForUpdate(ConfigMaps(), old, update, false);
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().message(),
            "ConfigMap \"c\" is invalid: metadata.finalizers: Forbidden: no new finalizers can be "
            "added if the object is being deleted, found new finalizers []string{\"b\"}");
  update["metadata"]["finalizers"] = Json::array();
  EXPECT_TRUE(PrepareForUpdate(ConfigMaps(), old, update, false).ok());
}

TEST(ShouldDeleteDuringUpdateTest, Table) {
  Json deleting = Stored(testing::ConfigMap("c"));
  deleting["metadata"]["deletionTimestamp"] = "2023-01-01T00:00:00Z";
  deleting["metadata"]["deletionGracePeriodSeconds"] = 0;
  deleting["metadata"]["finalizers"] = {"a"};
  Json cleared = deleting;
  cleared["metadata"].erase("finalizers");
  EXPECT_TRUE(ShouldDeleteDuringUpdate(deleting, cleared));
  EXPECT_FALSE(ShouldDeleteDuringUpdate(deleting, deleting));
  Json graceful = deleting;
  graceful["metadata"]["deletionGracePeriodSeconds"] = 30;
  EXPECT_FALSE(ShouldDeleteDuringUpdate(graceful, cleared)) << "grace period still running";
  Json live = Stored(testing::ConfigMap("c"));
  EXPECT_FALSE(ShouldDeleteDuringUpdate(live, cleared));
}

TEST(ReturnsDeletedObjectTest, AsUpstream) {
  EXPECT_TRUE(ReturnsDeletedObject(Pods()));
  EXPECT_TRUE(ReturnsDeletedObject(Lws()));
  EXPECT_FALSE(ReturnsDeletedObject(ConfigMaps()));
  EXPECT_FALSE(ReturnsDeletedObject(StatefulSets()));
}

}  // namespace
}  // namespace lws::store
