// Memory per stored object, against its JSON size (issue 34, "Bounds": within a small multiple).
//   ./build/bench/object_memory_bench
// Each run creates `count` objects through the API server's whole create path (decode, admission,
// managedFields, store) in process and reports the heap's growth per object (jemalloc's
// stats.allocated, bench/heap_bytes.h) next to the object's JSON size as the server stores it
// (the GET answer's bytes). Three shapes: an LWS worker pod (~2 KB), a ConfigMap with 1 KiB of
// data, and an object with 10,000 labels (the shape of the 27x report). Wall time is
// reported but is not the point.
#include <benchmark/benchmark.h>

#include <memory>
#include <string>

#include "apiserver/api_server.h"
#include "base/clock.h"
#include "heap_bytes.h"
#include "store/store.h"
#include "typical_pod.h"

namespace lws::bench {
namespace {

using api::Json;

Json ConfigMapWithData(int i) {
  return {{"apiVersion", "v1"},
          {"kind", "ConfigMap"},
          {"metadata", {{"name", "cm-" + std::to_string(i)}}},
          {"data", {{"payload", std::string(1024, 'x')}}}};
}

Json ManyLabels(int i) {
  Json labels = Json::object();
  for (int l = 0; l < 10'000; ++l) labels["label-" + std::to_string(l)] = "value";
  return {{"apiVersion", "v1"},
          {"kind", "ConfigMap"},
          {"metadata", {{"name", "labels-" + std::to_string(i)}, {"labels", labels}}}};
}

// The shape's object number i and the collection it is POSTed to.
struct Shape {
  std::string collection;
  Json (*make)(int);
};

Json TypicalPod(int i) {
  Json pod = Json::parse(TypicalPodText());
  Json& meta = pod["metadata"];
  for (const char* server_set : {"uid", "resourceVersion", "creationTimestamp"})
    meta.erase(server_set);
  meta["name"] = "vllm-" + std::to_string(i);
  return pod;
}

void Measure(benchmark::State& state, const Shape& shape) {
  const int count = static_cast<int>(state.range(0));
  for (auto _ : state) {
    state.PauseTiming();
    ManualClock clock{Time(std::chrono::seconds(1'735'689'600))};
    store::StoreOptions store_options;
    store_options.clock = &clock;
    store_options.seed = 1;
    std::unique_ptr<store::Store> store = store::Store::Open(store_options).value();
    apiserver::ApiServerOptions options;
    options.store = store.get();
    options.clock = &clock;
    std::unique_ptr<apiserver::ApiServer> server =
        apiserver::ApiServer::Create(std::move(options)).value();
    std::vector<std::string> bodies;
    bodies.reserve(count);
    for (int i = 0; i < count; ++i) bodies.push_back(shape.make(i).dump());
    const std::size_t heap_before = HeapBytesInUse();
    state.ResumeTiming();
    for (int i = 0; i < count; ++i) {
      transport::HttpRequest request;
      request.method = "POST";
      request.target = shape.collection;
      request.headers.Add("Content-Type", "application/json");
      request.body = std::move(bodies[i]);
      transport::HttpResponse response = server->Handle(request);
      if (response.status != 201) {
        state.SkipWithError(("create answered " + std::to_string(response.status) + ": " +
                             response.body.substr(0, 200))
                                .c_str());
        return;
      }
    }
    state.PauseTiming();
    bodies.clear();
    bodies.shrink_to_fit();
    const std::size_t heap_after = HeapBytesInUse();
    transport::HttpRequest get;
    get.method = "GET";
    get.target = shape.collection + "/" +
                 Json::parse(shape.make(0).dump())["metadata"]["name"].get<std::string>();
    get.headers.Add("Accept", "application/json");
    const std::size_t json_bytes = server->Handle(get).body.size();
    const double per_object = static_cast<double>(heap_after - heap_before) / count;
    state.counters["heap_bytes_per_object"] = per_object;
    state.counters["json_bytes_per_object"] = static_cast<double>(json_bytes);
    state.counters["heap_over_json"] = per_object / static_cast<double>(json_bytes);
    server.reset();
    store.reset();
    state.ResumeTiming();
  }
}

void BM_TypicalPod(benchmark::State& state) {
  Measure(state, {"/api/v1/namespaces/default/pods", TypicalPod});
}
void BM_ConfigMap1KiB(benchmark::State& state) {
  Measure(state, {"/api/v1/namespaces/default/configmaps", ConfigMapWithData});
}
void BM_TenThousandLabels(benchmark::State& state) {
  Measure(state, {"/api/v1/namespaces/default/configmaps", ManyLabels});
}

BENCHMARK(BM_TypicalPod)->Arg(10'000)->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ConfigMap1KiB)->Arg(10'000)->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_TenThousandLabels)->Arg(20)->Iterations(1)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace lws::bench
