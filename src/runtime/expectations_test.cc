#include "runtime/expectations.h"

#include <gtest/gtest.h>

#include "client/local/local_testing.h"

namespace lws::runtime {
namespace {

using api::Json;
using std::chrono::seconds;

Json Pod(const std::string& name) {
  return {{"apiVersion", "v1"},
          {"kind", "Pod"},
          {"metadata", {{"name", name}, {"namespace", "default"}}},
          {"spec", {{"containers", {{{"name", "c"}, {"image", "busybox"}}}}}}};
}

class ExpectationsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(pods.Start().ok());
    ASSERT_TRUE(sets.Start().ok());
    cp.loop.RunUntilIdle();
  }

  client::testing::ControlPlane cp;
  client::LocalClient client = cp.Client("test-controller");
  client::Informer pods{&cp.loop, &client, client::kPods};
  client::Informer sets{&cp.loop, &client, client::kStatefulSets};
  const Key key{"default", "demo"};
};

TEST_F(ExpectationsTest, MetOnceTheInformerDeliveredTheWrite) {
  Expectations expectations;
  EXPECT_TRUE(expectations.Satisfied(key, cp.loop.Now()));  // nothing expected
  Json created = client.Create(client::kPods, Pod("a")).value()->document();
  expectations.ExpectAnswer(key, &pods, created, cp.loop.Now());
  EXPECT_FALSE(expectations.Satisfied(key, cp.loop.Now()));  // the event is still in flight
  EXPECT_EQ(expectations.Deadline(key), cp.loop.Now() + seconds(30));
  cp.loop.RunUntilIdle();
  EXPECT_TRUE(expectations.Satisfied(key, cp.loop.Now()));
  EXPECT_EQ(expectations.size(), 0u);
  EXPECT_EQ(expectations.Deadline(key), std::nullopt);
}

TEST_F(ExpectationsTest, EveryInformerMustDeliver) {
  Expectations expectations;
  Json created = client.Create(client::kPods, Pod("a")).value()->document();
  expectations.ExpectAnswer(key, &pods, created, cp.loop.Now());
  // A set write that never happens: its informer never reaches this version.
  expectations.Expect(key, &sets, *ResourceVersionOf(created) + 100, cp.loop.Now());
  cp.loop.RunUntilIdle();
  EXPECT_FALSE(expectations.Satisfied(key, cp.loop.Now()));
  EXPECT_EQ(expectations.size(), 1u);
  // Other keys are unaffected.
  EXPECT_TRUE(expectations.Satisfied({"default", "other"}, cp.loop.Now()));
}

TEST_F(ExpectationsTest, UnmetExpectationsTimeOut) {
  Expectations expectations(seconds(10));
  Time start = cp.loop.Now();
  expectations.Expect(key, &pods, cp.store->CurrentResourceVersion() + 5, start);
  cp.loop.RunFor(seconds(9));
  EXPECT_FALSE(expectations.Satisfied(key, cp.loop.Now()));
  // A second write of the same informer refreshes the deadline and keeps the highest version.
  expectations.Expect(key, &pods, 1, cp.loop.Now());
  EXPECT_EQ(expectations.Deadline(key), cp.loop.Now() + seconds(10));
  cp.loop.RunFor(seconds(2));
  EXPECT_FALSE(expectations.Satisfied(key, cp.loop.Now()));  // 11 s after the first, 2 after
  cp.loop.RunFor(seconds(8));
  EXPECT_TRUE(expectations.Satisfied(key, cp.loop.Now()));
  EXPECT_EQ(expectations.size(), 0u);
}

TEST_F(ExpectationsTest, AnswersWithoutAResourceVersionExpectNothing) {
  Expectations expectations;
  Time now = cp.loop.Now();
  expectations.ExpectAnswer(key, &pods, Json{{"kind", "Status"}, {"status", "Success"}}, now);
  expectations.ExpectAnswer(key, &pods, Json{{"metadata", {{"resourceVersion", "12x"}}}}, now);
  expectations.ExpectAnswer(key, &pods, Json{{"metadata", {{"resourceVersion", 12}}}}, now);
  expectations.ExpectAnswer(key, &pods, Json::array(), now);
  EXPECT_EQ(expectations.size(), 0u);
  EXPECT_TRUE(expectations.Satisfied(key, now));
  EXPECT_EQ(ResourceVersionOf(Json{{"metadata", {{"resourceVersion", "42"}}}}), 42u);
}

TEST_F(ExpectationsTest, ForgetDropsTheKey) {
  Expectations expectations;
  expectations.Expect(key, &pods, cp.store->CurrentResourceVersion() + 5, cp.loop.Now());
  EXPECT_FALSE(expectations.Satisfied(key, cp.loop.Now()));
  expectations.Forget(key);
  EXPECT_TRUE(expectations.Satisfied(key, cp.loop.Now()));
}

}  // namespace
}  // namespace lws::runtime
