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

TEST(DecodedViewTest, ReadersOfOneVersionShareOneView) {
  ObjectPtr stored = PodVersion(7);
  auto first = DecodedView<api::Pod>(*stored);
  auto second = DecodedView<api::Pod>(*stored);
  ASSERT_TRUE(first.ok());
  ASSERT_TRUE(second.ok());
  EXPECT_EQ(first->get(), second->get());
  EXPECT_EQ((*first)->metadata.resource_version, "7");
  EXPECT_EQ((*first)->metadata.Label("app"), "a");
  // Another version is another view.
  auto other = DecodedView<api::Pod>(*PodVersion(8));
  ASSERT_TRUE(other.ok());
  EXPECT_NE(other->get(), first->get());
}

TEST(DecodedViewTest, ViewsCarryNoManagedFields) {
  auto view = DecodedView<api::Pod>(*PodVersion(1));
  ASSERT_TRUE(view.ok());
  EXPECT_FALSE((*view)->metadata.rest.contains("managedFields"));
  EXPECT_FALSE(api::Encode(**view)["metadata"].contains("managedFields"));
}

TEST(DecodedViewTest, TheVersionDoesNotKeepAViewNoReaderHolds) {
  ObjectPtr stored = PodVersion(1);
  std::weak_ptr<const api::Pod> watched;
  {
    auto view = DecodedView<api::Pod>(*stored);
    ASSERT_TRUE(view.ok());
    watched = *view;
  }
  EXPECT_TRUE(watched.expired());
  // The next reader decodes again and gets a working view.
  auto again = DecodedView<api::Pod>(*stored);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ((*again)->metadata.name, "p");
}

TEST(DecodedViewTest, PrivateViewsAreNeverShared) {
  ObjectPtr stored = PodVersion(1);
  auto shared = DecodedView<api::Pod>(*stored);
  auto mine = DecodePrivateView<api::Pod>(*stored);
  ASSERT_TRUE(shared.ok());
  ASSERT_TRUE(mine.ok());
  EXPECT_NE(shared->get(), mine->get());
  EXPECT_FALSE((*mine)->metadata.rest.contains("managedFields"));
  EXPECT_EQ(DecodedView<api::Pod>(*stored)->get(), shared->get());
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
