#include "store/decoded_view.h"

#include <gtest/gtest.h>

#include "api/pod.h"

namespace lws::store {
namespace {

ObjectPtr PodVersion(std::uint64_t rv) {
  return MakeStoredObject(api::Json::parse(R"({"apiVersion":"v1","kind":"Pod",
      "metadata":{"name":"p","namespace":"default","labels":{"app":"a"},
                  "managedFields":[{"manager":"kubelet","operation":"Update"}]},
      "spec":{"containers":[{"name":"c","image":"nginx:1"}]}})"),
                          rv);
}

// The shared view of `stored`, or null (a test failure) when it does not decode.
std::shared_ptr<const api::Pod> View(const ObjectPtr& stored) {
  auto view = DecodedView<api::Pod>(*stored);
  EXPECT_TRUE(view.ok()) << view.status().ToString();
  return view.ok() ? *view : nullptr;
}

TEST(DecodedViewTest, ReadersOfOneVersionShareOneView) {
  ObjectPtr stored = PodVersion(7);
  std::shared_ptr<const api::Pod> first = View(stored);
  ASSERT_NE(first, nullptr);
  EXPECT_EQ(View(stored), first);
  EXPECT_EQ(first->metadata.resource_version, "7");
  EXPECT_EQ(first->metadata.Label("app"), "a");
  EXPECT_NE(View(PodVersion(8)), first);  // another version is another view
}

TEST(DecodedViewTest, ViewsCarryNoManagedFields) {
  std::shared_ptr<const api::Pod> view = View(PodVersion(1));
  ASSERT_NE(view, nullptr);
  EXPECT_FALSE(view->metadata.rest.contains("managedFields"));
  EXPECT_FALSE(api::Encode(*view)["metadata"].contains("managedFields"));
}

TEST(DecodedViewTest, TheVersionDoesNotKeepAViewNoReaderHolds) {
  ObjectPtr stored = PodVersion(1);
  std::weak_ptr<const api::Pod> watched = View(stored);
  EXPECT_TRUE(watched.expired());
  // The next reader decodes again and gets a working view.
  std::shared_ptr<const api::Pod> again = View(stored);
  ASSERT_NE(again, nullptr);
  EXPECT_EQ(again->metadata.name, "p");
}

TEST(DecodedViewTest, PrivateViewsAreNeverShared) {
  ObjectPtr stored = PodVersion(1);
  std::shared_ptr<const api::Pod> shared = View(stored);
  auto mine = DecodePrivateView<api::Pod>(*stored);
  ASSERT_TRUE(mine.ok());
  EXPECT_NE(mine->get(), shared.get());
  EXPECT_FALSE((*mine)->metadata.rest.contains("managedFields"));
  EXPECT_EQ(View(stored), shared);
}

TEST(DecodedViewTest, AnUndecodableVersionReportsTheField) {
  ObjectPtr stored = MakeStoredObject(api::Json::parse(R"({"kind":"Pod",
      "metadata":{"name":"p"},"spec":{"nodeName":5}})"),
                                      3);
  auto view = DecodedView<api::Pod>(*stored);
  ASSERT_FALSE(view.ok());
  ASSERT_EQ(view.status().causes().size(), 1u);
  EXPECT_EQ(view.status().causes()[0].field, "spec.nodeName");
}

}  // namespace
}  // namespace lws::store
