// `lws simulate`'s throughput (issue 32's bench): whole runs of a scenario, each an LWS rollout on
// the simulated product on virtual time, as `lws simulate` makes them (one thread).
//
//   ./build/bench/simulate_bench
//
// BM_CanonicalScenario is the scenario of docs/simulate.md (8 groups x 8 GPUs, one spare node,
// stockout, other tenants taking half of the freed GPUs, strategy maxUnavailable 1 / maxSurge 1):
// runs per second is seeds per second for one strategy. BM_Groups/<n> is the same cluster shape
// scaled to n groups (n + 1 nodes), without tenants: how the cost of a run grows with groups.
// Counter `virtual_s_per_run` is the virtual time a run simulated.
#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include "simulate/run.h"

namespace lws::simulate {
namespace {

std::string ScenarioText(int groups, bool tenants) {
  return fmt::format(R"(
apiVersion: lws-cpp.dev/v1alpha1
kind: Scenario
metadata: {{name: bench}}
cluster:
  nodePools:
  - name: h100
    nodes: {0}
    maxNodes: {1}
    allocatable: {{cpu: "192", memory: 2Ti, nvidia.com/gpu: "8", pods: "110"}}
    provisioningDelay: 5m
    startup: {{distribution: lognormal, median: 90s, sigma: 0.3}}
    termination: 20s
  capacityChanges: [{{at: 0s, stockout: h100, for: 24h}}]
{2}workloads:
- object:
    apiVersion: leaderworkerset.x-k8s.io/v1
    kind: LeaderWorkerSet
    metadata: {{name: llama}}
    spec:
      replicas: {3}
      rolloutStrategy: {{rollingUpdateConfiguration: {{maxUnavailable: 1, maxSurge: 1}}}}
      leaderWorkerTemplate:
        size: 2
        workerTemplate:
          spec:
            containers: [{{name: vllm, image: "vllm:1", resources: {{limits: {{nvidia.com/gpu: "4"}}}}}}]
timeline: [{{at: 10m, lws: llama, image: "vllm:2"}}]
limits: {{horizon: 2h, stall: 5m}}
)",
                     groups + 1, groups + 4,
                     tenants ? "  otherTenants: {takeFreed: {probability: 0.5, delay: 10s}}\n" : "",
                     groups);
}

void RunMany(benchmark::State& state, const Scenario& scenario) {
  std::uint64_t seed = 1;
  double virtual_s = 0;
  for (auto _ : state) {
    Result<RunResult> run = RunScenario(scenario, scenario.strategies[0], seed++);
    if (!run.ok()) {
      state.SkipWithError(std::string(run.status().message()).c_str());
      return;
    }
    virtual_s += run->window_start_s + run->metrics.duration_s;
  }
  state.counters["runs_per_s"] =
      benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
  state.counters["virtual_s_per_run"] = virtual_s / static_cast<double>(state.iterations());
}

void BM_CanonicalScenario(benchmark::State& state) {
  Result<Scenario> scenario = ParseScenario(ScenarioText(8, true), "bench.yaml", ".");
  RunMany(state, *scenario);
}
BENCHMARK(BM_CanonicalScenario)->Unit(benchmark::kMillisecond);

void BM_Groups(benchmark::State& state) {
  Result<Scenario> scenario =
      ParseScenario(ScenarioText(static_cast<int>(state.range(0)), false), "bench.yaml", ".");
  RunMany(state, *scenario);
}
BENCHMARK(BM_Groups)->Arg(8)->Arg(32)->Arg(100)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace lws::simulate
