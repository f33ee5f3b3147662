// Codec and validation costs of the api layer.
//   ./build/bench/api_bench
// The Pod fixture populates every field (61 KB of JSON), so it is the worst case; the
// "typical" pod is a realistic LWS worker pod (~2.5 KB).
#include <benchmark/benchmark.h>

#include <fstream>
#include <sstream>

#include "api/lws_admission.h"
#include "api/lws_defaults.h"
#include "api/lws_validation.h"
#include "api/pod.h"
#include "api/yaml.h"
#include "testdata/testdata_dir.h"
#include "typical_pod.h"

namespace lws::api {
namespace {

using bench::TypicalPodText;

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

const std::string& FixturePodText() {
  static const std::string text = ReadFile(TestdataDir() + "/k8s-api/core.v1.Pod.json");
  return text;
}

void DecodePod(benchmark::State& state, const std::string& text) {
  const Json input = Json::parse(text);
  for (auto _ : state) {
    auto pod = Decode<Pod>(input);
    benchmark::DoNotOptimize(pod);
  }
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(text.size()));
}

void EncodePod(benchmark::State& state, const std::string& text) {
  const Pod pod = Decode<Pod>(Json::parse(text)).value();
  for (auto _ : state) {
    Json out = Encode(pod);
    benchmark::DoNotOptimize(out);
  }
}

// Bytes in, typed object, bytes out: what an API write costs through the typed model.
void ParseDecodeEncodeDump(benchmark::State& state, const std::string& text) {
  for (auto _ : state) {
    Pod pod = Decode<Pod>(Json::parse(text)).value();
    std::string out = Encode(pod).dump();
    benchmark::DoNotOptimize(out);
  }
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(text.size()));
}

void BM_DecodePodFixture(benchmark::State& s) { DecodePod(s, FixturePodText()); }
void BM_EncodePodFixture(benchmark::State& s) { EncodePod(s, FixturePodText()); }
void BM_RoundTripPodFixture(benchmark::State& s) { ParseDecodeEncodeDump(s, FixturePodText()); }
void BM_DecodePodTypical(benchmark::State& s) { DecodePod(s, TypicalPodText()); }
void BM_EncodePodTypical(benchmark::State& s) { EncodePod(s, TypicalPodText()); }
void BM_RoundTripPodTypical(benchmark::State& s) { ParseDecodeEncodeDump(s, TypicalPodText()); }
BENCHMARK(BM_DecodePodFixture);
BENCHMARK(BM_EncodePodFixture);
BENCHMARK(BM_RoundTripPodFixture);
BENCHMARK(BM_DecodePodTypical);
BENCHMARK(BM_EncodePodTypical);
BENCHMARK(BM_RoundTripPodTypical);

const Json& VllmExample() {
  static const Json doc =
      LoadYaml(ReadFile(TestdataDir() + "/../examples/vllm-multinode-gpu.yaml")).value();
  return doc;
}

// Webhook defaulting + validation of a decoded LWS (the typed part of admission).
void BM_DefaultAndValidateLws(benchmark::State& state) {
  Json doc = VllmExample();
  doc["metadata"]["namespace"] = "default";
  const LeaderWorkerSet lws = Decode<LeaderWorkerSet>(doc).value();
  for (auto _ : state) {
    LeaderWorkerSet copy = lws;
    DefaultLeaderWorkerSet(&copy);
    ErrorList errs = ValidateLeaderWorkerSet(copy);
    benchmark::DoNotOptimize(errs);
  }
}
BENCHMARK(BM_DefaultAndValidateLws);

// The whole admission chain as the API server runs it: prune, schema defaults, webhook
// defaults, schema validation, webhook validation.
void BM_AdmitLws(benchmark::State& state) {
  Json doc = VllmExample();
  doc["metadata"]["namespace"] = "default";
  for (auto _ : state) {
    LwsAdmission result = AdmitLeaderWorkerSet(doc);
    benchmark::DoNotOptimize(result);
  }
}
BENCHMARK(BM_AdmitLws);

}  // namespace
}  // namespace lws::api
