// Costs of the object store (src/store) on pod-sized objects (~2 KB of JSON, an LWS worker pod
// with labels, owner reference, one container and a running status).
//   ./build/bench/store_bench
// Creates are measured in memory and with a SQLite data directory (one committed transaction per
// write); GET and LIST run against 10,000 stored pods. The create loop includes copying the
// template pod, which an API server would have parsed from the request anyway.
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <filesystem>

#include "api/resources.h"
#include "base/clock.h"
#include "store/store.h"

namespace lws::store {
namespace {

const api::ResourceInfo& Pods() {
  static const api::ResourceRegistry registry = api::ResourceRegistry::WithBuiltins();
  return *registry.Find("", "v1", "pods");
}

Json TemplatePod() {
  Json labels = {
      {"leaderworkerset.sigs.k8s.io/name", "vllm"},
      {"leaderworkerset.sigs.k8s.io/group-index", "0"},
      {"leaderworkerset.sigs.k8s.io/worker-index", "1"},
      {"leaderworkerset.sigs.k8s.io/group-key", "95e88034e460983f51a9952fe128729fbc0663b5"},
      {"leaderworkerset.sigs.k8s.io/template-revision-hash", "fcf8694b5"},
      {"controller-revision-hash", "vllm-0-6d5b7c9f8"}};
  Json container = {
      {"name", "vllm-worker"},
      {"image", "vllm/vllm-openai:v0.8.5"},
      {"command", {"sh", "-c"}},
      {"args", {"ray start --address=$(LWS_LEADER_ADDRESS):6379 --block"}},
      {"env",
       {{{"name", "LWS_LEADER_ADDRESS"}, {"value", "vllm-0.vllm.default"}},
        {{"name", "LWS_GROUP_SIZE"}, {"value", "2"}},
        {{"name", "LWS_WORKER_INDEX"}, {"value", "1"}}}},
      {"resources",
       {{"limits", {{"nvidia.com/gpu", "8"}, {"memory", "1200Gi"}}},
        {"requests", {{"cpu", "125"}, {"memory", "1200Gi"}, {"nvidia.com/gpu", "8"}}}}},
      {"volumeMounts", {{{"name", "dshm"}, {"mountPath", "/dev/shm"}}}},
      {"terminationMessagePath", "/dev/termination-log"},
      {"terminationMessagePolicy", "File"},
      {"imagePullPolicy", "IfNotPresent"}};
  Json status = {{"phase", "Running"},
                 {"hostIP", "10.0.0.13"},
                 {"podIP", "10.64.3.7"},
                 {"startTime", "2026-11-29T10:00:01Z"},
                 {"conditions", Json::array()}};
  for (const char* type : {"PodScheduled", "Initialized", "ContainersReady", "Ready"}) {
    status["conditions"].push_back(
        {{"type", type}, {"status", "True"}, {"lastTransitionTime", "2026-11-29T10:00:40Z"}});
  }
  return {{"apiVersion", "v1"},
          {"kind", "Pod"},
          {"metadata",
           {{"namespace", "default"},
            {"labels", labels},
            {"annotations", {{"leaderworkerset.sigs.k8s.io/size", "2"}}},
            {"ownerReferences",
             {{{"apiVersion", "apps/v1"},
               {"kind", "StatefulSet"},
               {"name", "vllm-0"},
               {"uid", "1b2c3d4e-5f6a-7b8c-9d0e-1f2a3b4c5d6e"},
               {"controller", true},
               {"blockOwnerDeletion", true}}}}}},
          {"spec",
           {{"containers", {container}},
            {"volumes", {{{"name", "dshm"}, {"emptyDir", {{"medium", "Memory"}}}}}},
            {"restartPolicy", "Always"},
            {"terminationGracePeriodSeconds", 30},
            {"nodeName", "gpu-a-3"},
            {"schedulerName", "default-scheduler"}}},
          {"status", status}};
}

Json PodNamed(const Json& base, std::int64_t i) {
  Json pod = base;
  pod["metadata"]["name"] = "vllm-" + std::to_string(i);
  return pod;
}

std::unique_ptr<Store> OpenStore(const Clock& clock, const std::string& dir = "") {
  StoreOptions options;
  options.clock = &clock;
  options.data_dir = dir;
  return std::move(Store::Open(options)).value();
}

std::unique_ptr<Store> StoreWith10kPods(const Clock& clock) {
  auto store = OpenStore(clock);
  const Json base = TemplatePod();
  for (int i = 0; i < 10'000; ++i) (void)store->Create(Pods(), PodNamed(base, i));
  return store;
}

void BM_CreateInMemory(benchmark::State& state) {
  ManualClock clock;
  auto store = OpenStore(clock);
  const Json base = TemplatePod();
  std::int64_t i = 0;
  for (auto _ : state) {
    auto created = store->Create(Pods(), PodNamed(base, i++));
    benchmark::DoNotOptimize(created);
  }
  state.SetItemsProcessed(state.iterations());
  state.counters["json_bytes"] =
      static_cast<double>((*store->Get(Pods(), "default", "vllm-0"))->bytes().size());
}
BENCHMARK(BM_CreateInMemory);

void BM_CreateDurable(benchmark::State& state) {
  ManualClock clock;
  const auto dir =
      std::filesystem::temp_directory_path() / ("lws-store-bench-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  {
    auto store = OpenStore(clock, dir.string());
    const Json base = TemplatePod();
    std::int64_t i = 0;
    for (auto _ : state) {
      auto created = store->Create(Pods(), PodNamed(base, i++));
      benchmark::DoNotOptimize(created);
    }
    state.SetItemsProcessed(state.iterations());
  }
  std::filesystem::remove_all(dir);
}
BENCHMARK(BM_CreateDurable);

void BM_UpdateStatusWith100Watchers(benchmark::State& state) {
  ManualClock clock;
  auto store = OpenStore(clock);
  (void)store->Create(Pods(), PodNamed(TemplatePod(), 0));
  std::vector<WatcherPtr> watchers;
  for (int i = 0; i < 100; ++i) watchers.push_back(*store->Watch(Pods(), {}));
  std::vector<WatchEvent> sink;
  Json pod = (*store->Get(Pods(), "default", "vllm-0"))->document();
  std::int64_t n = 0;
  for (auto _ : state) {
    pod["status"]["podIP"] = "10.64.3." + std::to_string(n++ % 250);
    pod["metadata"].erase("resourceVersion");
    auto updated = store->UpdateStatus(Pods(), pod);
    benchmark::DoNotOptimize(updated);
    state.PauseTiming();
    for (const auto& w : watchers) {
      sink.clear();
      w->Poll(&sink);
    }
    state.ResumeTiming();
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_UpdateStatusWith100Watchers);

void BM_Get(benchmark::State& state) {
  ManualClock clock;
  auto store = StoreWith10kPods(clock);
  std::vector<std::string> names;
  for (int i = 0; i < 10'000; ++i) names.push_back("vllm-" + std::to_string(i * 7919 % 10'000));
  std::size_t i = 0;
  for (auto _ : state) {
    auto got = store->Get(Pods(), "default", names[i++ % names.size()]);
    benchmark::DoNotOptimize(got);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_Get);

// LIST of all 10,000 pods, including concatenating the stored bytes into a PodList body as the
// API server does.
void BM_List10kPods(benchmark::State& state) {
  ManualClock clock;
  auto store = StoreWith10kPods(clock);
  std::string body;
  for (auto _ : state) {
    auto list = store->List(Pods(), {});
    body = R"({"kind":"PodList","apiVersion":"v1","metadata":{},"items":[)";
    for (std::size_t i = 0; i < list->items.size(); ++i) {
      if (i > 0) body += ',';
      body += list->items[i]->bytes();
    }
    body += "]}";
    benchmark::DoNotOptimize(body);
  }
  state.counters["body_MB"] = static_cast<double>(body.size()) / 1e6;
}
BENCHMARK(BM_List10kPods)->Unit(benchmark::kMillisecond);

void BM_List10kPodsSelectorMatchingNothing(benchmark::State& state) {
  ManualClock clock;
  auto store = StoreWith10kPods(clock);
  ListOptions options;
  options.label_selector = *api::Selector::Parse("app=none");
  for (auto _ : state) {
    auto list = store->List(Pods(), options);
    benchmark::DoNotOptimize(list);
  }
}
BENCHMARK(BM_List10kPodsSelectorMatchingNothing)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace lws::store
