#include "store/decoded_view.h"

#include <gtest/gtest.h>

#include "api/apps.h"
#include "api/builtin_testing.h"
#include "api/pod.h"
#include "store/store_testing.h"

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

// The upstream fixture pod (every field populated, unknown ones included).
Json FixturePod() { return api::testing::LoadTestdata("k8s-api/core.v1.Pod.json"); }

// Status writes' views are made from the view of the version they replace; each must be
// exactly what decoding the new version gives.
class StatusWriteViewTest : public testing::StoreTest {
 protected:
  // Writes `status` (absent when null) over `live` through the status subresource.
  ObjectPtr WriteStatus(const ObjectPtr& live, const Json& status) {
    Json body = live->document();
    body.erase("status");
    if (!status.is_null()) body["status"] = status;
    Result<ObjectPtr> written = store_->UpdateStatus(testing::Pods(), std::move(body));
    EXPECT_TRUE(written.ok()) << written.status().ToString();
    return written.ok() ? *written : nullptr;
  }

  // The view made from the predecessor's, checked against a full decode.
  template <class T>
  static void ExpectSameAsDecoded(const StoredObject& version) {
    std::shared_ptr<const T> derived = ViewAfterStatusWrite<T>(version);
    ASSERT_NE(derived, nullptr);
    Result<std::shared_ptr<const T>> decoded = DecodePrivateView<T>(version);
    ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
    EXPECT_EQ(api::Encode(*derived), api::Encode(**decoded));
    EXPECT_EQ(derived->metadata.resource_version, std::to_string(version.resource_version()));
  }
};

TEST_F(StatusWriteViewTest, AreWhatDecodingTheVersionGives) {
  Json fixture = FixturePod();
  const Json fixture_status = fixture["status"];
  Json pod = testing::Pod("p");
  pod["spec"] = fixture["spec"];
  pod["metadata"]["labels"] = fixture["metadata"]["labels"];
  pod["metadata"]["annotations"] = fixture["metadata"]["annotations"];
  pod["unknownTopLevel"] = {{"kept", true}};
  ObjectPtr created = MustCreate(testing::Pods(), pod);
  ASSERT_NE(created, nullptr);
  std::shared_ptr<const api::Pod> held = View(created);  // a reader holds the first view

  ObjectPtr full = WriteStatus(created, fixture_status);
  ExpectSameAsDecoded<api::Pod>(*full);
  std::shared_ptr<const api::Pod> full_view = View(full);

  Json changed = fixture_status;
  changed["phase"] = "Failed";
  changed["conditions"] = Json::array();
  changed["unknownStatusField"] = "kept";
  ObjectPtr next = WriteStatus(full, changed);
  ExpectSameAsDecoded<api::Pod>(*next);
  std::shared_ptr<const api::Pod> next_view = View(next);
  EXPECT_EQ(next_view->status.phase, "Failed");

  ObjectPtr cleared = WriteStatus(next, Json());  // no status at all
  ExpectSameAsDecoded<api::Pod>(*cleared);
}

TEST_F(StatusWriteViewTest, AreDecodedWhenTheyCannotBeMade) {
  ObjectPtr created = MustCreate(testing::Pods(), testing::Pod("p"));
  // No reader holds the old version's view: nothing to start from.
  ObjectPtr unread = WriteStatus(created, {{"phase", "Pending"}});
  EXPECT_EQ(ViewAfterStatusWrite<api::Pod>(*unread), nullptr);
  std::shared_ptr<const api::Pod> held = View(unread);
  ASSERT_NE(held, nullptr);
  EXPECT_EQ(held->status.phase, "Pending");

  // Any other write decodes in full: it may change more than the status.
  Json labelled = unread->document();
  labelled["metadata"]["labels"] = {{"a", "b"}};
  ObjectPtr updated = *store_->Update(testing::Pods(), labelled);
  EXPECT_EQ(ViewAfterStatusWrite<api::Pod>(*updated), nullptr);
  std::shared_ptr<const api::Pod> updated_view = View(updated);
  ASSERT_NE(updated_view, nullptr);
  EXPECT_EQ(updated_view->metadata.Label("a"), "b");

  // A status that does not decode: the full decode reports it.
  ObjectPtr bad = WriteStatus(updated, {{"phase", 5}});
  EXPECT_EQ(ViewAfterStatusWrite<api::Pod>(*bad), nullptr);
  EXPECT_FALSE(DecodedView<api::Pod>(*bad).ok());
}

TEST_F(StatusWriteViewTest, StatefulSetStatusWrites) {
  Json fixture = FixturePod();  // only for its template
  Json set = {
      {"apiVersion", "apps/v1"},
      {"kind", "StatefulSet"},
      {"metadata", {{"name", "s"}, {"namespace", "default"}}},
      {"spec",
       {{"replicas", 3},
        {"selector", {{"matchLabels", {{"app", "a"}}}}},
        {"serviceName", "s"},
        {"template", {{"metadata", {{"labels", {{"app", "a"}}}}}, {"spec", fixture["spec"]}}}}}};
  ObjectPtr created = MustCreate(testing::StatefulSets(), set);
  ASSERT_NE(created, nullptr);
  auto held = DecodedView<api::StatefulSet>(*created);
  ASSERT_TRUE(held.ok()) << held.status().ToString();
  Json body = created->document();
  body["status"] = {
      {"replicas", 3}, {"readyReplicas", 2}, {"currentRevision", "s-1"}, {"observedGeneration", 1}};
  ObjectPtr written = *store_->UpdateStatus(testing::StatefulSets(), body);
  ExpectSameAsDecoded<api::StatefulSet>(*written);
}

}  // namespace
}  // namespace lws::store
