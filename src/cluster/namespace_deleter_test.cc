// The conditions of a terminating namespace, as k8s.io/kubernetes
// pkg/controller/namespace/deletion/status_condition_utils.go writes them (its
// status_condition_utils_test.go TestUpdateConditions: every maintained type present, the "ok"
// variants when nothing fails, lastTransitionTime kept while a condition does not change).
#include "cluster/namespace_deleter.h"

#include <gtest/gtest.h>

namespace lws::cluster {
namespace {

const Time kNow = Time(std::chrono::seconds(1700000000));

const api::Json& Find(const api::Json& conditions, const std::string& type) {
  for (const api::Json& c : conditions) {
    if (c["type"] == type) return c;
  }
  static const api::Json kNull;
  return kNull;
}

TEST(NamespaceDeleterTest, EveryConditionWithTheOkVariantsWhenNothingRemains) {
  api::Json conditions = TerminatingConditions({}, {}, api::Json::array(), kNow);
  ASSERT_EQ(conditions.size(), 5u);
  EXPECT_EQ(Find(conditions, "NamespaceDeletionDiscoveryFailure")["reason"], "ResourcesDiscovered");
  EXPECT_EQ(Find(conditions, "NamespaceDeletionGroupVersionParsingFailure")["message"],
            "All legacy kube types successfully parsed");
  EXPECT_EQ(Find(conditions, "NamespaceContentRemaining")["status"], "False");
  EXPECT_EQ(Find(conditions, "NamespaceContentRemaining")["reason"], "ContentRemoved");
  EXPECT_EQ(Find(conditions, "NamespaceFinalizersRemaining")["message"],
            "All content-preserving finalizers finished");
}

TEST(NamespaceDeleterTest, RemainingContentAndFinalizersAreNamed) {
  api::Json conditions = TerminatingConditions({{"pods", 2}, {"statefulsets.apps", 1}},
                                               {{"example.com/keep", 1}}, api::Json::array(), kNow);
  const api::Json& remaining = Find(conditions, "NamespaceContentRemaining");
  EXPECT_EQ(remaining["status"], "True");
  EXPECT_EQ(remaining["reason"], "SomeResourcesRemain");
  EXPECT_EQ(remaining["message"],
            "Some resources are remaining: pods has 2 resource instances, statefulsets.apps has 1 "
            "resource instances");
  const api::Json& finalizers = Find(conditions, "NamespaceFinalizersRemaining");
  EXPECT_EQ(finalizers["reason"], "SomeFinalizersRemain");
  EXPECT_EQ(finalizers["message"],
            "Some content in the namespace has finalizers remaining: example.com/keep in 1 "
            "resource instances");
}

TEST(NamespaceDeleterTest, TransitionTimeMovesOnlyWhenAConditionChanges) {
  api::Json first = TerminatingConditions({{"pods", 2}}, {}, api::Json::array(), kNow);
  const Time later = kNow + std::chrono::seconds(30);
  api::Json same = TerminatingConditions({{"pods", 2}}, {}, first, later);
  EXPECT_EQ(same, first);
  api::Json fewer = TerminatingConditions({{"pods", 1}}, {}, first, later);
  EXPECT_EQ(Find(fewer, "NamespaceContentRemaining")["lastTransitionTime"], FormatRfc3339(later));
  EXPECT_EQ(Find(fewer, "NamespaceDeletionDiscoveryFailure")["lastTransitionTime"],
            FormatRfc3339(kNow));
}

}  // namespace
}  // namespace lws::cluster
