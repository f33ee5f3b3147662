// The typed metadata reads of a stored version (store/object_meta.h): what they read, and that a
// mistyped field or a reference that is not an object reads as empty rather than failing.
#include "store/object_meta.h"

#include <gtest/gtest.h>

namespace lws::store {
namespace {

ObjectPtr Version(const char* metadata) {
  return MakeStoredObject(Json{{"metadata", Json::parse(metadata)}}, 7);
}

TEST(ObjectMetaTest, OwnerReferencesInOrderNonObjectsSkipped) {
  ObjectPtr pod = Version(R"({"name": "p", "ownerReferences": [
      {"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": "rs", "uid": "u1",
       "blockOwnerDeletion": true},
      "junk",
      {"apiVersion": "v1", "kind": "Node", "name": "n", "uid": 5, "controller": "yes"}]})");
  std::vector<OwnerRefView> refs = OwnerReferences(*pod);
  ASSERT_EQ(refs.size(), 2u);
  EXPECT_EQ(refs[0].api_version, "apps/v1");
  EXPECT_EQ(refs[0].kind, "ReplicaSet");
  EXPECT_EQ(refs[0].name, "rs");
  EXPECT_EQ(refs[0].uid, "u1");
  EXPECT_TRUE(refs[0].block_owner_deletion);
  EXPECT_FALSE(refs[0].controller);
  EXPECT_EQ(refs[1].kind, "Node");
  EXPECT_EQ(refs[1].uid, "");        // not a string
  EXPECT_FALSE(refs[1].controller);  // "yes" is not true
  EXPECT_FALSE(ControllerReference(*pod).has_value());
  EXPECT_TRUE(OwnerReferences(*Version(R"({"name": "p", "ownerReferences": {}})")).empty());
}

TEST(ObjectMetaTest, ControllerReferenceIsTheFirstWithControllerTrue) {
  ObjectPtr pod = Version(R"({"name": "p", "ownerReferences": [
      {"apiVersion": "v1", "kind": "A", "name": "a", "uid": "u0", "controller": false},
      {"apiVersion": "apps/v1", "kind": "StatefulSet", "name": "web", "uid": "u1",
       "controller": true}]})");
  std::optional<OwnerRefView> ref = ControllerReference(*pod);
  ASSERT_TRUE(ref.has_value());
  EXPECT_EQ(ref->name, "web");
  EXPECT_EQ(ref->uid, "u1");
  EXPECT_TRUE(ref->controller);
}

TEST(ObjectMetaTest, FinalizersAnnotationsAndDeletion) {
  ObjectPtr ns = Version(R"({"name": "n", "finalizers": ["orphan", 3, "x/y"],
      "annotations": {"a": "1", "b": 2}, "deletionTimestamp": "2026-01-02T03:04:05Z"})");
  std::vector<std::string_view> finalizers = Finalizers(*ns);
  ASSERT_EQ(finalizers.size(), 2u);
  EXPECT_EQ(finalizers[0], "orphan");
  EXPECT_EQ(finalizers[1], "x/y");
  EXPECT_EQ(Annotation(*ns, "a"), "1");
  EXPECT_EQ(Annotation(*ns, "b"), "");  // not a string
  EXPECT_EQ(Annotation(*ns, "c"), "");
  EXPECT_EQ(DeletionTimestamp(*ns), "2026-01-02T03:04:05Z");

  ObjectPtr bare = Version(R"({"name": "n"})");
  EXPECT_TRUE(Finalizers(*bare).empty());
  EXPECT_EQ(Annotation(*bare, "a"), "");
  EXPECT_EQ(DeletionTimestamp(*bare), "");
}

}  // namespace
}  // namespace lws::store
