// The seeded sweep (sweep_test.cc) for groupIdentity Hash (upstream KEP 898): the same random
// shapes, without a partition (Hash refuses one), with groupReplacementPolicy PostTermination or
// Immediate at random, rolled out with and without container crashes, checked after every
// stored change by HashRolloutChecker and required to converge once the faults stop. Seeds as in
// sweep_test.cc (LWS_SWEEP_SEEDS, LWS_SWEEP_COUNT, LWS_SWEEP_FIRST); the draws differ from the
// Ordinal sweep's (a stream of their own), so a seed replays only within this test.
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <gtest/gtest.h>

#include "scenario/hash_rollout_checker.h"
#include "scenario/sweep_run.h"

namespace lws::scenario {
namespace {

using namespace sweep;

SweepCase DrawHash(std::uint64_t seed) {
  Rng rng = Rng(seed).Derive("hash");
  SweepCase c = Draw(rng);
  c.hash = true;
  c.immediate = rng.Bernoulli(0.5);
  c.shape.partition = 0;
  c.lower_partition = false;
  // The simulated cluster fails the pods of a lost node (phase Failed, NodeLost). A ReplicaSet
  // replaces a Failed leader but deletes nothing, and no restart policy acts on a Failed pod, so
  // the failed leader's group lingers with its workers and their nodes, in upstream's Hash mode
  // as here (docs/controller.md, "groupIdentity: Hash"): such a run cannot converge. Crashes
  // restart containers and are kept.
  c.node_loss = false;
  // More crashes than the Ordinal sweep's 30%: each one that recreates a group exercises the
  // group-replacement gate.
  c.crashes = rng.Bernoulli(0.7);
  // The webhook refuses no room to roll with Hash even for 0 replicas (the Deployment would).
  if (c.shape.replicas == 0 && Scaled(c.shape.max_unavailable, 100, false) == 0 &&
      Scaled(c.shape.max_surge, 100, true) == 0) {
    c.shape.max_surge = 1;
  }
  // The Deployment's bound: maxSurge scaled up against replicas, not capped at replicas.
  c.limits.max_surge = Scaled(c.shape.max_surge, c.shape.replicas, true);
  return c;
}

TEST(HashRolloutSweep, RandomShapesAreSafeAndConverge) {
  int runs = 0;
  int replaced = 0;  // runs where a replacement leader waited for its old group
  for (std::uint64_t seed : Seeds()) {
    SweepCase c = DrawHash(seed);
    SweepRun<HashRolloutChecker> run(seed, c);
    const std::string failure = run.Run();
    const auto& violations = run.checker().violations();
    const std::string replay = fmt::format(
        "replay: LWS_SWEEP_SEEDS={} ./build/src/scenario/scenario_sweep_test "
        "--gtest_filter='HashRolloutSweep*'",
        seed);
    EXPECT_EQ(failure, "") << "seed " << seed << " (" << c.Describe() << ")\n" << replay;
    EXPECT_TRUE(violations.empty()) << "seed " << seed << " (" << c.Describe() << ")\n"
                                    << fmt::format("{}", fmt::join(violations, "\n")) << "\n"
                                    << replay;
    replaced += run.Events("GroupReplacementDeferred") > 0;
    ++runs;
  }
  EXPECT_GT(runs, 0);
  // The default 24 seeds include PostTermination runs whose crashes recreate a group.
  if (DefaultSeeds()) {
    EXPECT_GT(replaced, 0);
  }
  std::printf("%d of %d runs deferred a replacement leader\n", replaced, runs);
}

// The seeds whose client faults found bugs, whatever LWS_SWEEP_* selects, each with its fix.
// The seeds whose client faults found bugs, with the faults they met then (later changes to the
// draw must not lose them), whatever LWS_SWEEP_* selects, each with its fix.
TEST(HashRolloutSweep, SeedsThatFoundBugs) {
  struct Found {
    std::uint64_t seed;
    ClientFaultCase faults;
    const char* bug;
  };
  const Found found[] = {
      {22,
       {.refused = 0.08, .lost_answer = 0.02, .watch_delay_max_ms = 2833, .watch_drops = 1},
       "the pod controller, on a cache a slow watch kept stale, created the worker StatefulSet of "
       "a leader already deleted; nothing collected it, since the simulated garbage collector ran "
       "only after deletions (cluster/local_cluster.cc, HasAbsentOwner)"},
      {2795,
       {.refused = 0.15, .lost_answer = 0.09, .statefulset = true},
       "the deletion of the old revision was refused once the update was done, only logged, and "
       "never tried again (controllers/lws/lws_controller_hash.cc, TruncateRevisions)"},
  };
  for (const Found& f : found) {
    SweepCase c = DrawHash(f.seed);
    c.client_faults = f.faults;
    SweepRun<HashRolloutChecker> run(f.seed, c);
    EXPECT_EQ(run.Run(), "") << "seed " << f.seed << " (" << c.Describe() << "): " << f.bug;
    EXPECT_TRUE(run.checker().violations().empty())
        << "seed " << f.seed << ": "
        << fmt::format("{}", fmt::join(run.checker().violations(), "\n"));
  }
}

TEST(HashRolloutSweep, SameSeedSameRun) {
  auto observe = [](std::uint64_t seed) {
    SweepRun<HashRolloutChecker> run(seed, DrawHash(seed));
    const std::string failure = run.Run();
    return fmt::format("{}|{}|{}|{}", failure, run.checker().min_ready_during_rollout(),
                       run.checker().most_groups(), run.trace());
  };
  EXPECT_EQ(observe(7), observe(7));
}

}  // namespace
}  // namespace lws::scenario
