// Tests of RelistEvents (client/relist.h): what a watch that re-lists delivers.
#include "client/relist.h"

#include <gtest/gtest.h>

namespace lws::client {
namespace {

store::ObjectPtr Pod(const std::string& ns, const std::string& name, std::uint64_t rv) {
  return store::MakeStoredObject(
      {{"kind", "Pod"}, {"metadata", {{"namespace", ns}, {"name", name}}}}, rv);
}

TEST(RelistEventsTest, DeletesWhatVanishedThenAddsWhatIsListed) {
  std::map<store::ObjectName, store::ObjectPtr> known = {{{"a", "gone"}, Pod("a", "gone", 3)},
                                                         {{"a", "kept"}, Pod("a", "kept", 4)},
                                                         {{"b", "x"}, Pod("b", "x", 5)}};
  std::vector<store::ObjectPtr> listed = {Pod("a", "kept", 9), Pod("a", "new", 8)};
  std::vector<store::WatchEvent> events = RelistEvents(known, listed, 10, /*namespaced=*/true);
  ASSERT_EQ(events.size(), 4u);
  EXPECT_EQ(events[0].type, store::EventType::kDeleted);
  EXPECT_EQ(events[0].object->document()["metadata"]["name"], "gone");
  EXPECT_EQ(events[0].object->resource_version(), 10u);  // the list's, so versions only grow
  EXPECT_EQ(events[1].type, store::EventType::kDeleted);
  EXPECT_EQ(events[1].object->document()["metadata"]["namespace"], "b");
  EXPECT_EQ(events[2].type, store::EventType::kAdded);
  EXPECT_EQ(events[2].object, listed[0]);
  EXPECT_EQ(events[3].object, listed[1]);
}

TEST(RelistEventsTest, ClusterScopedKeysIgnoreNamespace) {
  std::map<store::ObjectName, store::ObjectPtr> known = {{{"", "n1"}, Pod("", "n1", 1)}};
  std::vector<store::ObjectPtr> listed = {Pod("stray", "n1", 2)};
  std::vector<store::WatchEvent> events = RelistEvents(known, listed, 3, /*namespaced=*/false);
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].type, store::EventType::kAdded);
}

}  // namespace
}  // namespace lws::client
