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

namespace lws::api {
namespace {

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

const std::string& FixturePodText() {
  static const std::string text = ReadFile(std::string(LWS_TESTDATA_DIR) + "/k8s-api/core.v1.Pod.json");
  return text;
}

const std::string& TypicalPodText() {
  static const std::string text = R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"vllm-0-1",
    "namespace":"default","uid":"8d3f0a4e-2f7c-4b1e-9b7a-0c1d2e3f4a5b","resourceVersion":"12345",
    "creationTimestamp":"2026-11-29T10:00:00Z","labels":{"leaderworkerset.sigs.k8s.io/name":"vllm",
    "leaderworkerset.sigs.k8s.io/group-index":"0","leaderworkerset.sigs.k8s.io/worker-index":"1",
    "leaderworkerset.sigs.k8s.io/group-key":"95e88034e460983f51a9952fe128729fbc0663b5",
    "leaderworkerset.sigs.k8s.io/template-revision-hash":"fcf8694b5",
    "statefulset.kubernetes.io/pod-name":"vllm-0-1","apps.kubernetes.io/pod-index":"1",
    "controller-revision-hash":"vllm-0-6d5b7c9f8"},"annotations":{
    "leaderworkerset.sigs.k8s.io/size":"2","leaderworkerset.sigs.k8s.io/leader-name":"vllm-0"},
    "ownerReferences":[{"apiVersion":"apps/v1","kind":"StatefulSet","name":"vllm-0",
    "uid":"1b2c3d4e-5f6a-7b8c-9d0e-1f2a3b4c5d6e","controller":true,"blockOwnerDeletion":true}]},
    "spec":{"containers":[{"name":"vllm-worker","image":"vllm/vllm-openai:v0.8.5",
    "command":["sh","-c"],"args":["ray start --address=$(LWS_LEADER_ADDRESS):6379 --block"],
    "env":[{"name":"LWS_LEADER_ADDRESS","value":"vllm-0.vllm.default"},{"name":"LWS_GROUP_SIZE",
    "value":"2"},{"name":"LWS_WORKER_INDEX","value":"1"}],"resources":{"limits":{
    "nvidia.com/gpu":"8","memory":"1200Gi"},"requests":{"cpu":"125","memory":"1200Gi",
    "nvidia.com/gpu":"8"}},"volumeMounts":[{"name":"dshm","mountPath":"/dev/shm"}],
    "terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File",
    "imagePullPolicy":"IfNotPresent"}],"volumes":[{"name":"dshm","emptyDir":{"medium":"Memory",
    "sizeLimit":"15Gi"}}],"restartPolicy":"Always","terminationGracePeriodSeconds":30,
    "dnsPolicy":"ClusterFirst","nodeName":"gpu-a-3","hostname":"vllm-0-1","subdomain":"vllm",
    "schedulerName":"default-scheduler","tolerations":[{"key":"nvidia.com/gpu",
    "operator":"Exists","effect":"NoSchedule"}]},"status":{"phase":"Running","conditions":[
    {"type":"PodScheduled","status":"True","lastTransitionTime":"2026-11-29T10:00:01Z"},
    {"type":"Initialized","status":"True","lastTransitionTime":"2026-11-29T10:00:02Z"},
    {"type":"ContainersReady","status":"True","lastTransitionTime":"2026-11-29T10:00:40Z"},
    {"type":"Ready","status":"True","lastTransitionTime":"2026-11-29T10:00:40Z"}],
    "hostIP":"10.0.0.13","podIP":"10.64.3.7","startTime":"2026-11-29T10:00:01Z",
    "containerStatuses":[{"name":"vllm-worker","state":{"running":{"startedAt":
    "2026-11-29T10:00:05Z"}},"ready":true,"restartCount":0,"image":"vllm/vllm-openai:v0.8.5",
    "imageID":"docker.io/vllm/vllm-openai@sha256:0123","containerID":"containerd://abc",
    "started":true}]}})";
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
      LoadYaml(ReadFile(std::string(LWS_EXAMPLES_DIR) + "/vllm-multinode-gpu.yaml")).value();
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
