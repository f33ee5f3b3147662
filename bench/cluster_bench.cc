// The simulated cluster on virtual time: how long (wall clock) it takes the StatefulSet
// controller, scheduler and kubelets, through the full API pipeline, to create, schedule and
// start N pods. Issue 4 asks for 10,000 pods; smaller sizes show how the cost grows.
//
//   ./build/bench/cluster_bench --benchmark_filter=PodsScheduledAndStarted
#include <benchmark/benchmark.h>

#include "cluster/cluster_testing.h"

namespace lws::cluster {
namespace {

// `pods` pods of one GPU each, in StatefulSets of 1,000 (Parallel), on 8-GPU nodes with exactly
// enough room, Ready 20-60 s after binding.
void PodsScheduledAndStarted(benchmark::State& state) {
  const int pods = static_cast<int>(state.range(0));
  const int sets = std::max(1, pods / 1000);
  const int per_set = pods / sets;
  double virtual_seconds = 0;
  std::uint64_t tasks = 0;
  std::uint64_t syncs = 0;
  for (auto _ : state) {
    state.PauseTiming();
    ClusterSpec spec;
    spec.pools.push_back(testing::GpuPool("gpu", (pods + 7) / 8, 8));
    spec.pools[0].allocatable["pods"] = "110";
    spec.pools[0].startup = {Distribution::Kind::kUniform, 20, 60};
    auto sim = std::make_unique<testing::SimCluster>(spec, 1);
    if (!sim->Start().ok()) state.SkipWithError("cluster did not start");
    sim->loop().RunFor(std::chrono::seconds(1));  // nodes exist
    Time start = sim->loop().Now();
    state.ResumeTiming();
    for (int s = 0; s < sets; ++s) {
      auto set = testing::StatefulSet("set" + std::to_string(s), per_set, 1, "Parallel");
      if (!sim->user.Create(client::kStatefulSets, set).ok()) state.SkipWithError("create failed");
    }
    bool done = sim->RunUntil(
        [&] {
          int ready = 0;
          for (int s = 0; s < sets; ++s) ready += sim->ReadyPods("set" + std::to_string(s));
          return ready == sets * per_set;
        },
        std::chrono::hours(1), std::chrono::seconds(30));
    state.PauseTiming();
    if (!done) state.SkipWithError("pods did not all become Ready within an hour of virtual time");
    virtual_seconds = std::chrono::duration<double>(sim->loop().Now() - start).count();
    tasks = sim->loop().tasks_run();
    syncs = sim->cluster->statefulsets().syncs();
    sim.reset();
    state.ResumeTiming();
  }
  state.counters["pods"] = sets * per_set;
  state.counters["virtual_s"] = virtual_seconds;
  state.counters["loop_tasks"] = static_cast<double>(tasks);
  state.counters["set_syncs"] = static_cast<double>(syncs);
  state.counters["pods_per_s"] =
      benchmark::Counter(sets * per_set, benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(PodsScheduledAndStarted)
    ->Arg(1000)
    ->Arg(10000)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);

}  // namespace
}  // namespace lws::cluster
