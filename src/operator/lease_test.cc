#include "operator/lease.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <regex>

namespace lws::op {
namespace {

using std::chrono::seconds;
using ::testing::HasSubstr;
using State = LeaseObservation::State;

const Time kT0 = Time(seconds(1'700'000'000));

LeaderElectionOptions Options(std::string identity) {
  LeaderElectionOptions options;
  options.identity = std::move(identity);
  return options;
}

LeaderElectionRecord Held(std::string holder, Time acquired, Time renewed, int transitions = 0) {
  return {std::move(holder), 15, acquired, renewed, transitions};
}

TEST(LeaseRecordTest, SpecRoundTripsWithMicroTimes) {
  LeaderElectionRecord record =
      Held("a_1", kT0 + std::chrono::microseconds(1), kT0 + std::chrono::microseconds(250'000), 3);
  Json lease = NewLease("lws-system", "b8b2488c.x-k8s.io", record);
  EXPECT_EQ(lease["apiVersion"], "coordination.k8s.io/v1");
  EXPECT_EQ(lease["kind"], "Lease");
  EXPECT_EQ(lease["spec"], Json::parse(R"({"holderIdentity":"a_1","leaseDurationSeconds":15,
      "acquireTime":"2023-11-14T22:13:20.000001Z","renewTime":"2023-11-14T22:13:20.250000Z",
      "leaseTransitions":3})"));
  Result<LeaderElectionRecord> back = RecordFromLease(lease);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(*back, record);
}

TEST(LeaseRecordTest, AbsentFieldsReadAsZeroAndReleasedHolderIsWritten) {
  Result<LeaderElectionRecord> empty = RecordFromLease(Json::parse(R"({"metadata":{"name":"l"}})"));
  ASSERT_TRUE(empty.ok());
  EXPECT_EQ(*empty, LeaderElectionRecord{});
  Json spec = LeaseSpecFromRecord(ReleasedRecord(Held("a", kT0, kT0, 2), kT0 + seconds(5)));
  EXPECT_EQ(spec["holderIdentity"], "");
  EXPECT_EQ(spec["leaseDurationSeconds"], 1);
  EXPECT_EQ(spec["leaseTransitions"], 2);
  EXPECT_EQ(spec["renewTime"], "2023-11-14T22:13:25.000000Z");
}

TEST(LeaseRecordTest, MistypedFieldsNameTheFieldAndTheLease) {
  struct Case {
    const char* spec;
    const char* want;
  };
  for (const Case& c :
       {Case{R"({"holderIdentity":7})", "spec.holderIdentity: want a string"},
        Case{R"({"leaseDurationSeconds":"15"})", "spec.leaseDurationSeconds: want a 32-bit"},
        Case{R"({"leaseTransitions":4294967296})", "spec.leaseTransitions: want a 32-bit"},
        Case{R"({"renewTime":"yesterday"})", "spec.renewTime: invalid RFC 3339"},
        Case{R"({"acquireTime":12})", "spec.acquireTime: want a time string"}}) {
    Json lease = {{"metadata", {{"namespace", "lws-system"}, {"name", "l"}}},
                  {"spec", Json::parse(c.spec)}};
    Result<LeaderElectionRecord> record = RecordFromLease(lease);
    ASSERT_FALSE(record.ok()) << c.spec;
    EXPECT_EQ(record.status().code(), Code::kBadRequest);
    EXPECT_THAT(record.status().message(), HasSubstr(c.want));
    EXPECT_THAT(record.status().message(), HasSubstr("\"lws-system/l\""));
  }
}

// Found by operator_answers_fuzz: a metadata.name that is not a string threw from the message
// helper instead of the Lease being read (or refused) normally.
TEST(LeaseRecordTest, MalformedMetadataDoesNotThrow) {
  Json lease = {{"metadata", {{"namespace", 3}, {"name", {{"a", "b"}}}}},
                {"spec", {{"holderIdentity", 7}}}};
  Result<LeaderElectionRecord> record = RecordFromLease(lease);
  ASSERT_FALSE(record.ok());
  EXPECT_THAT(record.status().message(), HasSubstr("Lease \"\": spec.holderIdentity"));
  lease["spec"] = {{"holderIdentity", "a"}};
  ASSERT_TRUE(RecordFromLease(lease).ok());
}

TEST(LeaseRecordTest, IdentityIsHostnameAndUuidV4) {
  Rng rng(42);
  std::string identity = LeaderIdentity("lws-controller-manager-7d9f", &rng);
  EXPECT_TRUE(
      std::regex_match(identity, std::regex("lws-controller-manager-7d9f_[0-9a-f]{8}-[0-9a-f]{4}-4["
                                            "0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}")))
      << identity;
  EXPECT_NE(LeaderIdentity("h", &rng), LeaderIdentity("h", &rng));
}

TEST(DecideLeaseTest, MissingLeaseIsCreated) {
  LeaseDecision d = DecideLease({State::kMissing, {}, {}}, {}, kT0, Options("me"));
  EXPECT_EQ(d.action, LeaseAction::kCreate);
  EXPECT_EQ(d.record, Held("me", kT0, kT0, 0));
}

TEST(DecideLeaseTest, UnreadableLeaseWaits) {
  EXPECT_EQ(DecideLease({}, {}, kT0, Options("me")).action, LeaseAction::kWait);
  // A leader keeps its leadership until the deadline, whatever the reads say.
  EXPECT_EQ(DecideLease({}, {true, kT0 + seconds(1)}, kT0, Options("me")).action,
            LeaseAction::kWait);
}

// Rule 1: expiry runs from when we saw the record change, not from its renewTime.
TEST(DecideLeaseTest, ValidityRunsFromTheObservedTimeNotTheRemoteRenewTime) {
  LeaderElectionRecord other = Held("other", kT0 - seconds(3600), kT0 - seconds(3600));
  LeaseObservation seen_now{State::kPresent, other, kT0};
  EXPECT_EQ(DecideLease(seen_now, {}, kT0 + seconds(14), Options("me")).action, LeaseAction::kWait);
  LeaseDecision expired = DecideLease(seen_now, {}, kT0 + seconds(15), Options("me"));
  EXPECT_EQ(expired.action, LeaseAction::kAcquire);
  EXPECT_EQ(expired.record, Held("me", kT0 + seconds(15), kT0 + seconds(15), 1));
}

TEST(DecideLeaseTest, ReleasedLeaseIsTakenAtOnce) {
  LeaderElectionRecord released = ReleasedRecord(Held("other", kT0, kT0, 4), kT0);
  LeaseDecision d = DecideLease({State::kPresent, released, kT0}, {}, kT0, Options("me"));
  EXPECT_EQ(d.action, LeaseAction::kAcquire);
  EXPECT_EQ(d.record.leader_transitions, 5);
}

TEST(DecideLeaseTest, HolderRenewsKeepingAcquireTimeAndTransitions) {
  LeaderElectionRecord mine = Held("me", kT0, kT0 + seconds(4), 2);
  LeaseDecision d = DecideLease({State::kPresent, mine, kT0 + seconds(4)},
                                {true, kT0 + seconds(16)}, kT0 + seconds(6), Options("me"));
  EXPECT_EQ(d.action, LeaseAction::kRenew);
  EXPECT_EQ(d.record, Held("me", kT0, kT0 + seconds(6), 2));
}

TEST(DecideLeaseTest, LeaderLosesAtItsDeadlineOrToAnotherValidHolder) {
  Leadership leading{true, kT0 + seconds(12)};
  LeaderElectionRecord mine = Held("me", kT0, kT0);
  EXPECT_EQ(
      DecideLease({State::kPresent, mine, kT0}, leading, kT0 + seconds(12), Options("me")).action,
      LeaseAction::kLost);
  EXPECT_EQ(DecideLease({State::kPresent, Held("other", kT0, kT0), kT0 + seconds(2)}, leading,
                        kT0 + seconds(2), Options("me"))
                .action,
            LeaseAction::kLost);
}

TEST(DecideLeaseTest, SubSecondLeaseDurationRoundsDownAsGo) {
  LeaderElectionOptions options = Options("me");
  options.lease_duration = std::chrono::milliseconds(15'900);
  EXPECT_EQ(DecideLease({State::kMissing, {}, {}}, {}, kT0, options).record.lease_duration_seconds,
            15);
}

}  // namespace
}  // namespace lws::op
