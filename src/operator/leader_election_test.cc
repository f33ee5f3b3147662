// Leader election against the in-process API server on virtual time.
#include "operator/leader_election.h"

#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "client/local/local_testing.h"
#include "operator/client_testing.h"
#include "operator/metrics_registry.h"

namespace lws::op {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

constexpr char kNamespace[] = "lws-system";
constexpr char kLeaseName[] = "b8b2488c.x-k8s.io";

// One candidate: its elector and what its callbacks saw.
struct Candidate {
  Candidate(EventLoop* loop, const client::Client* client, std::string identity,
            GaugeVec* gauge = nullptr, bool release_on_cancel = true) {
    LeaderElectionOptions options;
    options.lease_namespace = kNamespace;
    options.identity = identity;
    options.release_on_cancel = release_on_cancel;
    LeaderCallbacks callbacks;
    callbacks.on_started_leading = [this, loop] { started_at.push_back(loop->Now()); };
    callbacks.on_stopped_leading = [this, loop] { stopped_at.push_back(loop->Now()); };
    callbacks.on_new_leader = [this](const std::string& id) { leaders.push_back(id); };
    elector = std::make_unique<LeaderElector>(loop, client, options, callbacks, gauge);
  }
  bool leading() const { return elector->leading(); }

  std::unique_ptr<LeaderElector> elector;
  std::vector<Time> started_at;
  std::vector<Time> stopped_at;
  std::vector<std::string> leaders;
};

class LeaderElectionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    Json ns = {{"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", {{"name", kNamespace}}}};
    ASSERT_TRUE(client_.Create(client::Resource{"", "v1", "namespaces", false}, ns).ok());
  }

  LeaderElectionRecord Record() {
    Result<store::ObjectPtr> lease = client_.Get(kLeases, kNamespace, kLeaseName);
    EXPECT_TRUE(lease.ok()) << lease.status().ToString();
    if (!lease.ok()) return {};
    Result<LeaderElectionRecord> record = RecordFromLease((*lease)->document());
    EXPECT_TRUE(record.ok()) << record.status().ToString();
    return record.ok() ? *record : LeaderElectionRecord{};
  }

  // Steps the loop until `until`, checking after every task that at most one candidate leads.
  void RunChecked(const std::vector<Candidate*>& candidates, Time until) {
    while (cp_.loop.pending() > 0) {
      Time before = cp_.loop.Now();
      if (before > until) break;
      cp_.loop.Step();
      int leaders = 0;
      for (Candidate* c : candidates) leaders += c->leading() ? 1 : 0;
      ASSERT_LE(leaders, 1) << "two leaders at " << (cp_.loop.Now() - start_).count() << " ns";
      if (cp_.loop.Now() > until) break;
    }
  }

  client::testing::ControlPlane cp_;
  client::LocalClient client_ = cp_.Client("lws");
  const Time start_ = cp_.loop.Now();
};

TEST_F(LeaderElectionTest, SingleCandidateCreatesTheLeaseLeadsAndRenews) {
  Registry registry;
  GaugeVec* gauge = registry.Gauge("leader_election_master_status", "h", {"name"});
  Candidate a(&cp_.loop, &client_, "a_1", gauge);
  a.elector->Start();
  cp_.loop.RunFor(milliseconds(1));
  ASSERT_TRUE(a.leading());
  EXPECT_EQ(a.started_at, std::vector<Time>{start_});
  EXPECT_EQ(a.leaders, std::vector<std::string>{"a_1"});
  EXPECT_EQ(gauge->Value({kLeaseName}), 1);
  LeaderElectionRecord first = Record();
  EXPECT_EQ(first, (LeaderElectionRecord{"a_1", 15, start_, start_, 0}));

  cp_.loop.RunFor(seconds(60));
  EXPECT_TRUE(a.leading());
  LeaderElectionRecord later = Record();
  EXPECT_EQ(later.acquire_time, start_);
  EXPECT_EQ(later.renew_time, start_ + seconds(60));  // renewed every 2 s
  EXPECT_EQ(later.leader_transitions, 0);
  EXPECT_TRUE(a.stopped_at.empty());
}

TEST_F(LeaderElectionTest, TwoCandidatesNeverLeadTogetherAndOneWins) {
  Candidate a(&cp_.loop, &client_, "a_1");
  Candidate b(&cp_.loop, &client_, "b_2");
  a.elector->Start();
  b.elector->Start();  // same instant: both find no Lease, one create wins with 409 for the other
  RunChecked({&a, &b}, start_ + seconds(60));
  ASSERT_NE(a.leading(), b.leading());
  Candidate& leader = a.leading() ? a : b;
  Candidate& standby = a.leading() ? b : a;
  EXPECT_EQ(Record().holder_identity, leader.elector->options().identity);
  EXPECT_EQ(standby.elector->leader(), leader.elector->options().identity);
  EXPECT_EQ(standby.leaders, std::vector<std::string>{leader.elector->options().identity});
  EXPECT_TRUE(standby.started_at.empty());
}

TEST_F(LeaderElectionTest, GracefulStopReleasesAndTheStandbyLeadsWithinARetryPeriod) {
  Candidate a(&cp_.loop, &client_, "a_1");
  Candidate b(&cp_.loop, &client_, "b_2");
  a.elector->Start();
  cp_.loop.RunFor(milliseconds(500));
  b.elector->Start();
  RunChecked({&a, &b}, start_ + seconds(30));
  ASSERT_TRUE(a.leading());

  const Time stop = cp_.loop.Now();
  a.elector->Stop();
  EXPECT_EQ(a.stopped_at, std::vector<Time>{stop});
  EXPECT_EQ(Record().holder_identity, "");
  EXPECT_EQ(Record().lease_duration_seconds, 1);
  RunChecked({&a, &b}, stop + seconds(2));
  ASSERT_TRUE(b.leading());
  EXPECT_LE(b.started_at.at(0), stop + seconds(2));
  EXPECT_EQ(Record().leader_transitions, 1);
  EXPECT_EQ(b.leaders.back(), "b_2");
}

TEST_F(LeaderElectionTest, DeadLeaderIsReplacedAfterTheLeaseDurationNotBefore) {
  Candidate a(&cp_.loop, &client_, "a_1", nullptr, /*release_on_cancel=*/false);
  Candidate b(&cp_.loop, &client_, "b_2");
  a.elector->Start();
  cp_.loop.RunFor(milliseconds(500));
  b.elector->Start();
  RunChecked({&a, &b}, start_ + seconds(21));
  ASSERT_TRUE(a.leading());
  a.elector.reset();  // the pod dies: no release, no more renewals
  const Time last_renewal = *Record().renew_time;

  // b saw that renewal at most one retry period later, so the Lease binds it for 15 s from then.
  while (cp_.loop.Step() && cp_.loop.Now() < last_renewal + seconds(15)) {
    ASSERT_FALSE(b.leading()) << "took over "
                              << (last_renewal + seconds(15) - cp_.loop.Now()).count()
                              << " ns early";
  }
  cp_.loop.RunUntil(last_renewal + seconds(15) + seconds(2) + seconds(2));
  ASSERT_TRUE(b.leading());
  EXPECT_EQ(Record().holder_identity, "b_2");
  EXPECT_EQ(Record().leader_transitions, 1);
}

TEST_F(LeaderElectionTest, LeaderThatCannotRenewStopsAtItsRenewDeadline) {
  testing::InterceptingClient flaky(&client_);
  bool failing = false;
  flaky.on_write = [&](std::string_view, const client::Resource&,
                       const Json&) -> std::optional<Result<Json>> {
    if (failing) return Result<Json>(Status(Code::kServiceUnavailable, "injected"));
    return std::nullopt;
  };
  flaky.on_get = [&](const client::Resource&, const std::string&,
                     const std::string&) -> std::optional<Status> {
    if (failing) return Status(Code::kServiceUnavailable, "injected");
    return std::nullopt;
  };
  Registry registry;
  GaugeVec* gauge = registry.Gauge("leader_election_master_status", "h", {"name"});
  Candidate a(&cp_.loop, &flaky, "a_1", gauge);
  a.elector->Start();
  cp_.loop.RunFor(seconds(7));  // renewed at 0, 2, 4, 6
  ASSERT_TRUE(a.leading());
  failing = true;
  const Time last_success = start_ + seconds(6);
  cp_.loop.RunUntil(last_success + seconds(2) + seconds(10) - milliseconds(1));
  EXPECT_TRUE(a.leading()) << "stopped before the renew deadline";
  cp_.loop.RunFor(milliseconds(1));
  EXPECT_FALSE(a.leading());
  EXPECT_TRUE(a.elector->stopped());
  // The first failed renewal was at 8 s: leadership ends renew_deadline (10 s) later.
  EXPECT_EQ(a.stopped_at, std::vector<Time>{last_success + seconds(12)});
  EXPECT_EQ(gauge->Value({kLeaseName}), 0);
  cp_.loop.RunFor(seconds(30));
  EXPECT_EQ(a.stopped_at.size(), 1u);  // and it stays stopped
}

TEST_F(LeaderElectionTest, ConflictingWriteFallsBackToReadingTheLease) {
  testing::InterceptingClient counting(&client_);
  int conflicts = 0;
  counting.on_write = [&](std::string_view verb, const client::Resource& r,
                          const Json& object) -> std::optional<Result<Json>> {
    Result<store::ObjectPtr> answer =
        verb == "create" ? client_.Create(r, object) : client_.Update(r, object);
    if (!answer.ok() && answer.status().code() == Code::kConflict) ++conflicts;
    if (!answer.ok()) return Result<Json>(answer.status());
    return Result<Json>((*answer)->document());
  };
  Candidate a(&cp_.loop, &counting, "a_1");
  a.elector->Start();
  cp_.loop.RunFor(seconds(1));
  ASSERT_TRUE(a.leading());

  // Someone else writes the Lease (a label): the leader's renewal from its stale copy gets 409.
  Json lease = (*client_.Get(kLeases, kNamespace, kLeaseName))->document();
  lease["metadata"]["labels"] = {{"touched", "yes"}};
  ASSERT_TRUE(client_.Update(kLeases, lease).ok());
  cp_.loop.RunFor(seconds(2));
  EXPECT_EQ(conflicts, 1);
  EXPECT_TRUE(a.leading());
  EXPECT_EQ(Record().renew_time, start_ + seconds(2));  // renewed in the same attempt
}

TEST_F(LeaderElectionTest, StoppingAStandbyCallsNothing) {
  Candidate a(&cp_.loop, &client_, "a_1");
  Candidate b(&cp_.loop, &client_, "b_2");
  a.elector->Start();
  cp_.loop.RunFor(milliseconds(1));
  b.elector->Start();
  cp_.loop.RunFor(seconds(3));
  b.elector->Stop();
  EXPECT_TRUE(b.stopped_at.empty());
  EXPECT_TRUE(b.started_at.empty());
  EXPECT_EQ(Record().holder_identity, "a_1");
  cp_.loop.RunFor(seconds(60));
  EXPECT_TRUE(a.leading());
  EXPECT_FALSE(b.leading());
}

}  // namespace
}  // namespace lws::op
