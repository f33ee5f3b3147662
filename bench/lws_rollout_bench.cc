// An LWS rolled out on the simulated cluster in virtual time (issue 5's bench): `groups` groups
// of 8 pods are created and become Available, then the template changes and the rollout runs to
// completion (maxUnavailable 10%, maxSurge 10%). The whole system runs: API server pipeline,
// StatefulSet controller, scheduler, kubelets, garbage collector and the LWS controllers.
//
//   ./build/bench/lws_rollout_bench
//
// Counters: wall time is the benchmark's; `writes_per_group` is stored changes (resourceVersions)
// during the rollout per group; `non_event_writes_per_group` the same without the events'
// writes (DESIGN.md section 6 compares it with about 4 x size + 6); `cache_bytes_per_pod` is the
// heap the controllers' caches hold per pod after a controller restart (the allocator's bytes in
// use before and after the new caches synced, bench/heap_bytes.h); `schedule_attempts_per_pod`
// the scheduler's attempts (fit or not) during the rollout per pod of the LWS.
#include <benchmark/benchmark.h>

#include "client/resource.h"
#include "heap_bytes.h"
#include "scenario/lws_world.h"

namespace lws::scenario {
namespace {

using namespace std::chrono_literals;

bool RolloutDone(const LwsWorld& world, int groups) {
  auto lws = world.Lws("bench");
  auto sts = world.StatefulSet("bench");
  if (!lws || !sts) return false;
  bool available = false, updating = false;
  for (const auto& c : lws->status.conditions) {
    if (c.type == "Available") available = c.status == "True";
    if (c.type == "UpdateInProgress") updating = c.status == "True";
  }
  return lws->status.observed_generation == lws->metadata.generation && available && !updating &&
         lws->status.updated_replicas == groups && sts->spec.replicas.value_or(0) == groups;
}

// Event writes so far: each event is created with count 1 and each repeat adds 1 (a patch),
// so the counts sum to the writes events took.
std::int64_t EventWrites(const LwsWorld& world) {
  std::int64_t writes = 0;
  store::ListOptions in_default;
  in_default.namespace_ = "default";
  auto events = world.user().List(client::kEvents, in_default);
  if (!events.ok()) return 0;
  for (const store::ObjectPtr& item : events->items) {
    const api::Json& event = item->document();
    auto count = event.find("count");
    writes += count != event.end() && count->is_number_integer() ? count->get<std::int64_t>() : 1;
  }
  return writes;
}

void LwsCreatedAndRolledOut(benchmark::State& state) {
  const int groups = static_cast<int>(state.range(0));
  double writes_per_group = 0, non_event_writes_per_group = 0, cache_bytes_per_pod = 0,
         virtual_s = 0, schedule_attempts_per_pod = 0;
  for (auto _ : state) {
    state.PauseTiming();
    WorldOptions options;
    options.cluster = GpuCluster(groups + groups / 10 + 1, 8, 5);
    options.cluster.pools[0].allocatable["pods"] = "110";
    auto world = std::make_unique<LwsWorld>(options);
    if (!world->Start().ok()) state.SkipWithError("cluster did not start");
    LwsShape shape;
    shape.name = "bench";
    shape.replicas = groups;
    shape.size = 8;
    shape.max_unavailable = "10%";
    shape.max_surge = "10%";
    state.ResumeTiming();
    Time start = world->loop().Now();
    if (!world->Create(client::kLeaderWorkerSets, LwsObject(shape)).ok())
      state.SkipWithError("create");
    auto available = [&] {
      auto lws = world->Lws("bench");
      return lws && lws->status.ready_replicas == groups;
    };
    if (!world->RunUntil(available, 2h, 1s)) state.SkipWithError("never Available");
    // Counting is the bench's own work, not the rollout's: it stays out of the timing.
    state.PauseTiming();
    const std::uint64_t rv_before = world->store()->CurrentResourceVersion();
    const std::int64_t event_writes_before = EventWrites(*world);
    const std::uint64_t attempts_before = world->cluster().scheduler().attempts();
    state.ResumeTiming();
    api::Json patch = WorkerImagePatch("vllm/vllm-openai:v0.6.1");
    if (!world->MergePatch(client::kLeaderWorkerSets, "bench", patch).ok())
      state.SkipWithError("patch");
    // The template changed: the rollout is done once the controller saw it and finished it.
    if (!world->RunUntil([&] { return RolloutDone(*world, groups); }, 4h, 1s)) {
      state.SkipWithError("rollout did not complete");
    }
    state.PauseTiming();
    virtual_s = std::chrono::duration<double>(world->loop().Now() - start).count();
    const auto writes = static_cast<double>(world->store()->CurrentResourceVersion() - rv_before);
    writes_per_group = writes / groups;
    schedule_attempts_per_pod =
        static_cast<double>(world->cluster().scheduler().attempts() - attempts_before) /
        (groups * 8.0);
    non_event_writes_per_group =
        (writes - static_cast<double>(EventWrites(*world) - event_writes_before)) / groups;
    world->StopController();
    const std::size_t heap_before = bench::HeapBytesInUse();
    // Private decoding: the new caches must not count the views they share with the cluster's
    // controllers in simulation; over the REST client they would hold their own.
    controllers::LwsManagerOptions private_caches;
    private_caches.decode_privately = true;
    if (!world->StartController(private_caches).ok()) state.SkipWithError("restart");
    // The cluster is at rest: what the heap gains until the new caches synced is theirs.
    world->RunUntil([&] { return world->manager()->caches().synced(); }, 60s, 10ms);
    const std::size_t heap_after = bench::HeapBytesInUse();
    cache_bytes_per_pod = static_cast<double>(heap_after - heap_before) / (groups * 8.0);
    world.reset();
    state.ResumeTiming();
  }
  state.counters["pods"] = groups * 8;
  state.counters["virtual_s"] = virtual_s;
  state.counters["writes_per_group"] = writes_per_group;
  state.counters["non_event_writes_per_group"] = non_event_writes_per_group;
  state.counters["cache_bytes_per_pod"] = cache_bytes_per_pod;
  state.counters["schedule_attempts_per_pod"] = schedule_attempts_per_pod;
}
BENCHMARK(LwsCreatedAndRolledOut)
    ->Arg(10)
    ->Arg(100)
    ->Arg(300)
    ->Arg(1000)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);

}  // namespace
}  // namespace lws::scenario
