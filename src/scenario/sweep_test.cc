// The seeded simulation sweep of issue 5 (CTest label `sim`): random LWS shapes rolled out on the
// simulated cluster, with and without faults, checked after every stored change by
// RolloutChecker (scenario/rollout_checker.h), and required to converge once faults stop.
//
// Seeds: LWS_SWEEP_SEEDS="3,17" runs those; otherwise LWS_SWEEP_COUNT (default 24) seeds from
// LWS_SWEEP_FIRST (default 1). A failure prints the seed and the command that replays it.
// Convergence bound: every run converges within kConvergenceBound of virtual time after the last
// fault (and after each spec change).
//
// Faults: a share of the seeds also meets faults at the LWS controllers' client boundary in the
// fault window (sweep_faults.h: API errors, slow and dropped watches, a controller restart);
// the failure message's case description names them.
//
// Traces: every run folds each stored change (type, resource, object as written) into a hash. A
// seed listed in testdata/scenario/sweep_traces.txt must give the hash recorded there: the
// opt-in behaviours of docs/scarcity.md must not change a single write of an LWS that does not
// ask for them. A deliberate change of what the simulation writes (a new event, a new field)
// changes the hashes: LWS_SWEEP_PRINT_TRACES=1 prints "seed hash" lines to record again, after
// checking that the change is meant.
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <gtest/gtest.h>

#include "scenario/sweep_run.h"

namespace lws::scenario {
namespace {

using namespace std::chrono_literals;
using namespace sweep;

// How many runs met each client fault (they must engage, not only be drawn).
struct ClientFaultTally {
  int refused = 0, lost_answers = 0, dropped = 0, restarts = 0, statefulset = 0;
  void Add(const SweepCase& c, const client::FaultCounts& lws,
           const client::FaultCounts& statefulsets) {
    refused += lws.refused > 0;
    lost_answers += lws.lost_answers > 0;
    dropped += lws.dropped_streams > 0;
    restarts += c.client_faults.restart;
    statefulset +=
        statefulsets.refused + statefulsets.lost_answers + statefulsets.dropped_streams > 0;
  }
  void ExpectEach(int runs) const {
    std::printf(
        "client faults: %d runs refused writes, %d lost answers, %d dropped watches, "
        "%d restarted the controller, %d faulted the StatefulSet controller (of %d)\n",
        refused, lost_answers, dropped, restarts, statefulset, runs);
    if (!DefaultSeeds()) return;  // the default 24 seeds meet each kind
    EXPECT_GT(refused, 0);
    EXPECT_GT(lost_answers, 0);
    EXPECT_GT(dropped, 0);
    EXPECT_GT(restarts, 0);
    EXPECT_GT(statefulset, 0);
  }
};

TEST(RolloutSweep, RandomShapesAreSafeAndConverge) {
  const std::map<std::uint64_t, std::string> recorded = RecordedTraces();
  const bool print = std::getenv("LWS_SWEEP_PRINT_TRACES") != nullptr;
  int runs = 0;
  ClientFaultTally tally;
  for (std::uint64_t seed : Seeds()) {
    Rng rng(seed);
    SweepCase c = Draw(rng);
    SweepRun<RolloutChecker> run(seed, c);
    std::string failure = run.Run();
    tally.Add(c, run.ClientFaultCounts(), run.ClientFaultCounts(/*statefulset=*/true));
    const auto& violations = run.checker().violations();
    const std::string replay = fmt::format(
        "replay: LWS_SWEEP_SEEDS={} ./build/src/scenario/scenario_sweep_test "
        "--gtest_filter='RolloutSweep.RandomShapes*'",
        seed);
    EXPECT_EQ(failure, "") << "seed " << seed << " (" << c.Describe() << ")\n" << replay;
    EXPECT_TRUE(violations.empty()) << "seed " << seed << " (" << c.Describe() << ")\n"
                                    << fmt::format("{}", fmt::join(violations, "\n")) << "\n"
                                    << replay;
    if (print) std::printf("%llu %s\n", static_cast<unsigned long long>(seed), run.trace().c_str());
    if (auto it = recorded.find(seed); it != recorded.end()) {
      EXPECT_EQ(run.trace(), it->second)
          << "seed " << seed << ": the run's writes differ from the recorded trace "
          << "(testdata/scenario/sweep_traces.txt; see the top of sweep_test.cc)\n"
          << replay;
    }
    ++runs;
  }
  EXPECT_GT(runs, 0);
  tally.ExpectEach(runs);
}

// The scarcity sweep's case for `seed`: the Ordinal sweep's draw with every scarcity behaviour
// on and, for half of the seeds, one to three groups added with the template change.
SweepCase ScarcityCase(std::uint64_t seed) {
  Rng rng(seed);
  SweepCase c = Draw(rng);
  c.scarcity = true;
  if (c.limits.max_unavailable == 0) c.limits.floor_slack = 1;  // the fallback's release
  Rng scale = Rng(seed).Derive("scale-up");
  if (scale.Bernoulli(0.5)) c.scale_up = static_cast<int>(scale.UniformInt(1, 3));
  // Percentages of 0 groups scale to 0: more groups may make them a rollout that cannot move,
  // which the webhook refuses (V11).
  if (const RolloutLimits up = ScaledUpLimits(c); up.max_surge == 0 && up.max_unavailable == 0) {
    c.scale_up = 0;
  }
  return c;
}

// The same shapes with every scarcity behaviour on, and with half of the template changes adding
// one to three groups (which the rollout before scale-up holds): the safety properties hold (the
// floor the user allowed is one group lower when the surge fallback may release one with
// maxUnavailable 0, and the added groups count as missing until they are added) and every run
// converges.
TEST(RolloutSweep, ScarcityBehavioursKeepTheInvariants) {
  int runs = 0;
  int held = 0;        // runs whose scale-up waited for the rollout
  int handed_off = 0;  // runs that held a node for a replacement
  for (std::uint64_t seed : Seeds()) {
    const SweepCase c = ScarcityCase(seed);
    SweepRun<RolloutChecker> run(seed, c);
    std::string failure = run.Run();
    const auto& violations = run.checker().violations();
    const std::string replay = fmt::format(
        "replay: LWS_SWEEP_SEEDS={} ./build/src/scenario/scenario_sweep_test "
        "--gtest_filter='RolloutSweep.Scarcity*'",
        seed);
    EXPECT_EQ(failure, "") << "seed " << seed << " (" << c.Describe() << ", scarcity on)\n"
                           << replay;
    ++runs;
    held += run.Events("RolloutBeforeScaleUp") > 0;
    handed_off += run.Events("CapacityHeld") > 0;
    EXPECT_EQ(run.HoldsPastTheirDeadlines(30s), "") << "seed " << seed << "\n" << replay;
    EXPECT_TRUE(violations.empty()) << "seed " << seed << " (" << c.Describe() << ", scarcity on)\n"
                                    << fmt::format("{}", fmt::join(violations, "\n")) << "\n"
                                    << replay;
  }
  EXPECT_GT(runs, 0);
  // The default 24 seeds include runs that add groups to existing ones.
  if (DefaultSeeds()) {
    EXPECT_GT(held, 0);
    EXPECT_GT(handed_off, 0);  // most rollouts replace pods (one of 0 replicas does not)
  }
  std::printf("%d of %d runs held a scale-up, %d held a node for a replacement\n", held, runs,
              handed_off);
}

// The seeds whose client faults found bugs, with the faults they met then (later changes to the
// draw must not lose them), whatever LWS_SWEEP_* selects, each with its fix.
TEST(RolloutSweep, SeedsThatFoundBugs) {
  struct Found {
    std::uint64_t seed;
    bool scarcity;
    ClientFaultCase faults;
    const char* bug;
  };
  const Found found[] = {
      {14,
       false,
       {.refused = 0.14, .lost_answer = 0.03, .watch_delay_max_ms = 3196, .watch_drops = 2},
       "the leader StatefulSet's apply failed after the update's revision was created, and the "
       "next pass created a second revision of that template (controllers/lws/revision_step.cc)"},
      {21,
       true,
       {.watch_delay_max_ms = 979, .watch_drops = 2},
       "the pod controller retried a Conflict of its LWS patch at once while a slow watch kept "
       "its cache stale: forever at one virtual instant (controllers/group/group_controller.cc)"},
      {2068,
       false,
       {.refused = 0.10, .lost_answer = 0.06, .statefulset = true},
       "the deletion of the old revision was refused once the update was done, only logged, and "
       "never tried again (controllers/lws/lws_controller.cc, TruncateRevisions)"},
  };
  for (const Found& f : found) {
    Rng rng(f.seed);
    SweepCase c = f.scarcity ? ScarcityCase(f.seed) : Draw(rng);
    c.client_faults = f.faults;
    SweepRun<RolloutChecker> run(f.seed, c);
    EXPECT_EQ(run.Run(), "") << "seed " << f.seed << " (" << c.Describe() << "): " << f.bug;
    EXPECT_TRUE(run.checker().violations().empty())
        << "seed " << f.seed << ": "
        << fmt::format("{}", fmt::join(run.checker().violations(), "\n"));
  }
}

// Determinism: one seed twice gives the same checker observations and the same writes, with
// every client fault on (refused writes, lost answers, slow and dropped watches, a controller
// restart, a faulty StatefulSet controller too). Runs without them replay the recorded traces.
TEST(RolloutSweep, SameSeedSameRun) {
  auto observe = [](std::uint64_t seed) {
    Rng rng(seed);
    SweepCase c = Draw(rng);
    c.client_faults = {.refused = 0.1,
                       .lost_answer = 0.05,
                       .watch_delay_max_ms = 2000,
                       .watch_drops = 2,
                       .restart = true,
                       .statefulset = true};
    SweepRun<RolloutChecker> run(seed, c);
    const std::string failure = run.Run();
    const client::FaultCounts counts = run.ClientFaultCounts();
    EXPECT_GT(counts.refused + counts.lost_answers, 0u);
    EXPECT_GT(counts.dropped_streams, 0u);
    EXPECT_GT(run.ClientFaultCounts(/*statefulset=*/true).refused, 0u);
    return fmt::format("{}|{}|{}|{}|{}|{}|{}", failure, run.checker().min_ready_during_rollout(),
                       run.checker().most_groups(), run.trace(), counts.refused,
                       counts.lost_answers, counts.delayed_events);
  };
  EXPECT_EQ(observe(5), observe(5));
}

}  // namespace
}  // namespace lws::scenario
