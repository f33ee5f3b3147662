#include "controllers/lws/applied_leader_sets.h"

#include <gtest/gtest.h>

#include <cstdint>

namespace lws::controllers {
namespace {

using api::Json;

const runtime::Key kKey{"default", "web"};

Json Config(int partition) {
  return {{"apiVersion", "apps/v1"},
          {"kind", "StatefulSet"},
          {"metadata", {{"name", "web"}, {"namespace", "default"}}},
          {"spec",
           {{"replicas", 2}, {"updateStrategy", {{"rollingUpdate", {{"partition", partition}}}}}}}};
}

Json Entry(const std::string& manager, const std::string& subresource, const std::string& time) {
  Json entry = {{"manager", manager},
                {"operation", "Update"},
                {"time", time},
                {"fieldsV1", {{"f:spec", {{"f:replicas", Json::object()}}}}}};
  if (!subresource.empty()) entry["subresource"] = subresource;
  return entry;
}

// The version an apply of Config(0) left: spec, a label, the applier's entry and a status
// writer's entry.
Json Answered() {
  Json sts = Config(0);
  sts["metadata"]["labels"] = {{"app", "web"}};
  sts["metadata"]["managedFields"] =
      Json::array({Entry("lws", "", "2026-01-01T00:00:00Z"),
                   Entry("statefulset-controller", "status", "2026-01-01T00:00:01Z")});
  sts["status"] = {{"replicas", 1}};
  return sts;
}

// Stored as version `rv` (MakeStoredObject writes it into metadata.resourceVersion).
store::ObjectPtr Stored(Json json, std::uint64_t rv = 10) {
  return store::MakeStoredObject(std::move(json), rv);
}

class AppliedLeaderSetsTest : public ::testing::Test {
 protected:
  void SetUp() override { sets.Remember(kKey, Config(0), Stored(Answered())); }
  bool Unchanged(const Json& live, const Json& config = Config(0), std::uint64_t rv = 10) {
    store::ObjectPtr stored = Stored(live, rv);
    return sets.Unchanged(kKey, config, stored.get());
  }
  AppliedLeaderSets sets;
};

TEST_F(AppliedLeaderSetsTest, TheSameApplyToTheVersionItLeftIsSkipped) {
  EXPECT_TRUE(Unchanged(Answered()));
}

TEST_F(AppliedLeaderSetsTest, StatusWritesSinceDoNotCount) {
  Json live = Answered();
  live["status"] = {{"replicas", 2}, {"readyReplicas", 2}};
  live["metadata"]["managedFields"][1]["time"] = "2026-01-01T00:05:00Z";
  live["metadata"]["managedFields"].push_back(Entry("kubectl", "status", "2026-01-01T00:06:00Z"));
  EXPECT_TRUE(Unchanged(live, Config(0), /*rv=*/12));
}

TEST_F(AppliedLeaderSetsTest, AnyOtherChangeAppliesAgain) {
  EXPECT_FALSE(Unchanged(Answered(), Config(1))) << "another configuration";

  Json spec = Answered();
  spec["spec"]["replicas"] = 5;  // a user's edit of a field the controller owns
  EXPECT_FALSE(Unchanged(spec)) << "spec";

  Json respelled = Answered();
  respelled["spec"]["replicas"] = 2.0;  // equal as a number, but an apply writes 2 back
  EXPECT_FALSE(Unchanged(respelled)) << "number type";

  Json label = Answered();
  label["metadata"]["labels"].erase("app");
  EXPECT_FALSE(Unchanged(label)) << "label";

  Json owner = Answered();
  owner["metadata"]["managedFields"].push_back(Entry("kubectl-edit", "", "2026-01-01T00:07:00Z"));
  EXPECT_FALSE(Unchanged(owner)) << "a main-resource entry";

  Json mine = Answered();
  mine["metadata"]["managedFields"].erase(0);  // the applier's own entry reset
  EXPECT_FALSE(Unchanged(mine)) << "the applier's entry";

  Json added = Answered();
  added["spec"]["minReadySeconds"] = 0;
  EXPECT_FALSE(Unchanged(added)) << "a new member";

  Json top = Answered();
  top["extra"] = true;
  EXPECT_FALSE(Unchanged(top)) << "a new top-level member";
}

TEST_F(AppliedLeaderSetsTest, NothingRememberedMeansApply) {
  EXPECT_FALSE(sets.Unchanged(kKey, Config(0), nullptr)) << "no live set";
  EXPECT_FALSE(sets.Unchanged({"default", "other"}, Config(0), Stored(Answered()).get()));
  sets.Forget(kKey);
  EXPECT_FALSE(Unchanged(Answered()));
}

}  // namespace
}  // namespace lws::controllers
