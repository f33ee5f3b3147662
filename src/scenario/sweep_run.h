// File: scenario/sweep_run.h
//
// The seeded simulation sweep's machinery, shared by sweep_test.cc (Ordinal) and
// hash_sweep_test.cc (groupIdentity Hash): random LWS shapes (Draw), one run of a shape on the
// simulated cluster with faults and the trace of its writes (SweepRun, checked by a rollout
// checker after every stored change), and the seeds to run (Seeds). Header-only, for the sweep
// tests; see the top of sweep_test.cc for the environment variables.
#pragma once

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>

#include "api/rollout_annotations.h"
#include "base/rng.h"
#include "client/resource.h"
#include "cluster/kubelet.h"
#include "scenario/lws_world.h"
#include "scenario/rollout_checker.h"
#include "scenario/sweep_faults.h"
#include "testdata/testdata_dir.h"

namespace lws::scenario::sweep {

using namespace std::chrono_literals;

constexpr Duration kConvergenceBound = 20min;
// Tasks within one virtual second past which a run is a livelock (a component that retries at
// once, forever at one instant) and fails instead of hanging the sweep. The busiest second of
// the default seeds' runs has a few hundred tasks; a spinning reconcile that writes through the
// API pipeline reaches this bound in about fifteen seconds.
constexpr std::uint64_t kInstantTaskLimit = 50'000;

// FNV-1a over every change the store records, in order.
class TraceHash {
 public:
  explicit TraceHash(store::Store* store) : store_(store) {}
  void Update() {
    if (store_->CurrentResourceVersion() == seen_) return;
    Result<store::ChangeLog> log = store_->Changes(seen_);
    if (!log.ok()) {
      Fold("gone");  // the history window passed: still deterministic, but say so in the hash
      seen_ = store_->CurrentResourceVersion();
      return;
    }
    for (const store::StoreChange& change : log->changes) {
      Fold(std::to_string(static_cast<int>(change.type)));
      Fold(change.group_resource);
      Fold(change.object->document().dump());
    }
    seen_ = log->resource_version;
  }
  std::uint64_t value() const { return hash_; }

 private:
  void Fold(std::string_view bytes) {
    for (unsigned char c : bytes) hash_ = (hash_ ^ c) * 1099511628211ull;
    hash_ = (hash_ ^ 0xff) * 1099511628211ull;  // a separator, so "ab","c" differs from "a","bc"
  }
  store::Store* store_;
  std::uint64_t seen_ = 0;
  std::uint64_t hash_ = 14695981039346656037ull;
};

// testdata/scenario/sweep_traces.txt: "seed hash" per line, # comments.
inline std::map<std::uint64_t, std::string> RecordedTraces() {
  std::map<std::uint64_t, std::string> traces;
  std::ifstream in(TestdataDir() + "/scenario/sweep_traces.txt");
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    std::uint64_t seed = 0;
    std::string hash;
    if (fields >> seed >> hash) traces[seed] = hash;
  }
  return traces;
}
constexpr Duration kFaultWindow = 4min;

// Short times, so that the behaviours engage within a run's faults and startups. The restart
// budget and backoff only with a restart policy that recreates groups (the webhook refuses them
// with None).
inline api::Json ScarcityAnnotations(const std::string& restart_policy) {
  api::Json a = {{"lws-cpp.dev/progress-deadline", "1m"},
                 {"lws-cpp.dev/surge-fallback-after", "30s"},
                 {"lws-cpp.dev/surge-fallback-release", "true"},
                 {"lws-cpp.dev/rollout-before-scale-up", "true"},
                 {"lws-cpp.dev/capacity-hand-off", "30s"}};
  if (restart_policy != "None") {
    a["lws-cpp.dev/max-group-restarts"] = "3";
    a["lws-cpp.dev/group-restart-backoff"] = "5s";
  }
  return a;
}

struct SweepCase {
  LwsShape shape;
  RolloutLimits limits;
  bool crashes = false;
  bool node_loss = false;
  bool lower_partition = false;
  // Every opt-in behaviour of docs/scarcity.md on
  // (RolloutSweep.ScarcityBehavioursKeepTheInvariants).
  bool scarcity = false;
  int scale_up = 0;  // groups added with the template change
  int startup_max = 10;
  // groupIdentity Hash (hash_sweep_test.cc), with groupReplacementPolicy Immediate or not.
  bool hash = false;
  bool immediate = false;
  // Faults at the LWS controllers' client boundary (sweep_faults.h).
  ClientFaultCase client_faults;
  bool AnyFault() const { return crashes || node_loss || client_faults.any(); }
  std::string Describe() const {
    return fmt::format(
        "replicas {} size {} maxUnavailable {} maxSurge {} partition {} sgs {} restart {} "
        "crashes {} nodeLoss {} lowerPartition {} startup 1-{}s scaleUp {}{}{}",
        shape.replicas, shape.size, shape.max_unavailable.dump(), shape.max_surge.dump(),
        shape.partition, shape.sub_group_size, shape.restart_policy, crashes, node_loss,
        lower_partition, startup_max, scale_up,
        hash ? (immediate ? " Hash Immediate" : " Hash PostTermination") : "",
        client_faults.Describe());
  }
};

// Makes `lws` (LwsObject) a groupIdentity Hash LWS.
inline void HashIdentity(api::Json& lws, bool immediate) {
  lws["spec"]["groupIdentity"] = "Hash";
  lws["spec"]["groupReplacementPolicy"] = immediate ? "Immediate" : "PostTermination";
}

// `value` (an int, or a percentage string "N%") against `replicas`, rounded up or down.
inline int Scaled(const api::Json& value, int replicas, bool round_up) {
  if (value.is_number_integer()) return value.get<int>();
  const double exact = std::stoi(value.get<std::string>()) * replicas / 100.0;
  return static_cast<int>(round_up ? std::ceil(exact) : std::floor(exact));
}

// A random int or percentage, and its scaled value against `replicas` (rounded up or down).
inline std::pair<api::Json, int> IntOrPercent(Rng& rng, int replicas, bool round_up) {
  api::Json value;
  if (rng.Bernoulli(0.5)) {
    value = static_cast<int>(rng.UniformInt(0, 3));
  } else {
    value = fmt::format("{}%", static_cast<int>(rng.UniformInt(0, 4)) * 25);
  }
  return {value, Scaled(value, replicas, round_up)};
}

inline SweepCase Draw(Rng& rng) {
  for (;;) {
    SweepCase c;
    c.shape.replicas = static_cast<int>(rng.UniformInt(0, 8));
    c.shape.size = static_cast<int>(rng.UniformInt(1, 4));
    auto [mu, mu_scaled] = IntOrPercent(rng, c.shape.replicas, false);
    auto [ms, ms_scaled] = IntOrPercent(rng, c.shape.replicas, true);
    // The webhook rejects a rollout that can make no progress (V11).
    if (c.shape.replicas > 0 && mu_scaled == 0 && ms_scaled == 0) continue;
    c.shape.max_unavailable = mu;
    c.shape.max_surge = ms;
    c.limits = {c.shape.replicas, std::min(ms_scaled, c.shape.replicas), mu_scaled};
    c.shape.partition =
        rng.Bernoulli(0.3) ? static_cast<int>(rng.UniformInt(0, c.shape.replicas)) : 0;
    c.lower_partition = c.shape.partition > 0 && rng.Bernoulli(0.7);
    if (c.shape.size > 1 && rng.Bernoulli(0.3)) {
      c.shape.sub_group_size = c.shape.size % 2 == 0 ? 2 : 1;
    }
    const char* policies[] = {"RecreateGroupOnPodRestart", "RecreateGroupAfterStart", "None"};
    c.shape.restart_policy = policies[rng.UniformInt(0, 2)];
    c.crashes = rng.Bernoulli(0.3);
    c.node_loss = rng.Bernoulli(0.2);
    c.startup_max = static_cast<int>(rng.UniformInt(2, 40));
    // A stream of its own, so that the draws above (and those of callers after Draw) stay
    // what they were before these faults existed.
    c.client_faults = DrawClientFaults(rng.Derive("client-faults"));
    return c;
  }
}

// The limits after the template change adds `c.scale_up` groups. With the rollout before
// scale-up the rollout of the existing groups is allowed max(maxUnavailable) of them down
// (maxUnavailable scaled against the existing groups is at most the same scaled against more),
// and the groups not yet added count as missing: the floor stays where it was.
inline RolloutLimits ScaledUpLimits(const SweepCase& c) {
  const int replicas = c.shape.replicas + c.scale_up;
  RolloutLimits limits = c.limits;
  limits.replicas = replicas;
  limits.max_surge = std::min(Scaled(c.shape.max_surge, replicas, true), replicas);
  limits.max_unavailable = Scaled(c.shape.max_unavailable, replicas, false);
  limits.floor_slack += c.scale_up;
  return limits;
}

// One of the world's `nodes` nodes ("gpu-<i>") NotReady for a minute, from a random moment within
// the next two minutes.
inline void LoseANode(LwsWorld& world, Rng& rng, int nodes) {
  std::string node = fmt::format("gpu-{}", rng.UniformInt(0, nodes - 1));
  auto down = std::chrono::seconds(rng.UniformInt(1, 120));
  world.loop().After(down, [&world, node] {
    (void)cluster::SetNodeReady(world.user(), node, false, world.loop().Now());
  });
  world.loop().After(down + 60s, [&world, node] {
    (void)cluster::SetNodeReady(world.user(), node, true, world.loop().Now());
  });
}

// Runs `world` task by task, calling `after_task` after each, until `converged` holds (asked every
// `probe` of virtual time, and only once `fault_end` has passed) or `bound` after `fault_end`.
// False with `why` set when it never converged or the loop livelocked.
inline bool RunCheckedUntil(LwsWorld& world, Time fault_end, Duration bound, Duration probe,
                            const std::function<void()>& after_task,
                            const std::function<bool(std::string*)>& converged, std::string* why) {
  VirtualLoop& loop = world.loop();
  const Time deadline = std::max(loop.Now(), fault_end) + bound;
  Time next_probe = loop.Now();
  while (loop.Now() < deadline) {
    if (!loop.Step()) loop.RunFor(100ms);
    if (loop.livelocked()) {
      *why = fmt::format("livelock: over {} tasks within one virtual second at {}",
                         kInstantTaskLimit, FormatRfc3339(loop.Now()));
      return false;
    }
    after_task();
    if (loop.Now() >= next_probe) {
      next_probe = loop.Now() + probe;
      if (loop.Now() >= fault_end && converged(why)) return true;
    }
  }
  return false;
}

template <class Checker>
class SweepRun {
 public:
  SweepRun(std::uint64_t seed, SweepCase c)
      : seed_(seed),
        case_(std::move(c)),
        rng_(Rng(seed).Derive("faults")),
        world_(Options(seed, case_)),
        checker_(&world_.user(), case_.shape.name, case_.limits),
        trace_(world_.store()) {
    world_.loop().SetInstantTaskLimit(kInstantTaskLimit);
  }

  // Returns "" on success, else what went wrong.
  std::string Run() {
    if (Status s = world_.Start(); !s.ok()) return "start: " + s.ToString();
    api::Json lws = LwsObject(case_.shape);
    if (case_.hash) HashIdentity(lws, case_.immediate);
    if (case_.scarcity)
      lws["metadata"]["annotations"] = ScarcityAnnotations(case_.shape.restart_policy);
    auto created = world_.Create(client::kLeaderWorkerSets, lws);
    if (!created.ok()) return "create: " + created.status().ToString();
    if (!RunChecked(kConvergenceBound)) return "never converged after create: " + why_;
    checker_.RolloutStarted();
    api::Json patch = WorkerImagePatch("vllm/vllm-openai:v0.6.1");
    if (case_.scale_up > 0) {
      patch["spec"]["replicas"] = case_.shape.replicas + case_.scale_up;
      case_.limits = ScaledUpLimits(case_);
    }
    checker_.SpecChanged(case_.limits);
    if (auto p = world_.MergePatch(client::kLeaderWorkerSets, case_.shape.name, patch); !p.ok()) {
      return "template change: " + p.status().ToString();
    }
    InjectFaults();
    if (!RunChecked(kConvergenceBound)) return "rollout never converged: " + why_;
    if (case_.lower_partition) {
      checker_.RolloutStarted();
      checker_.SpecChanged(case_.limits);
      api::Json lower = {
          {"spec", {{"rolloutStrategy", {{"rollingUpdateConfiguration", {{"partition", 0}}}}}}}};
      if (auto p = world_.MergePatch(client::kLeaderWorkerSets, case_.shape.name, lower); !p.ok()) {
        return "partition change: " + p.status().ToString();
      }
      if (!RunChecked(kConvergenceBound)) return "never converged after partition 0: " + why_;
    }
    return "";
  }

  // The capacity hand-off's invariant: no hold outlives its deadline (a reconcile's moment of
  // slack allowed). Runs the loop for `hand_off` and a second more, so that every hold made
  // before the run converged has ended, and returns the placeholders past their deadlines.
  std::string HoldsPastTheirDeadlines(Duration hand_off) {
    world_.loop().RunFor(hand_off + 1s);
    std::vector<std::string> late;
    for (const api::Pod& p : world_.Pods({{api::kHandOffOfLabel, case_.shape.name}})) {
      Result<Time> until = ParseRfc3339(p.metadata.Annotation(api::kHandOffUntilAnnotation));
      if (!until.ok() || *until + 1s < world_.loop().Now()) late.push_back(p.metadata.name);
    }
    return fmt::format("{}", fmt::join(late, ", "));
  }

  const Checker& checker() const { return checker_; }
  // What the client faults did in this run (none without them): at the LWS controllers', or
  // at the StatefulSet controller's client.
  client::FaultCounts ClientFaultCounts(bool statefulset = false) {
    client::FaultyClient* c =
        statefulset ? world_.statefulset_client() : world_.controller_client();
    return c != nullptr ? c->counts() : client::FaultCounts{};
  }
  std::size_t Events(const std::string& reason) const { return world_.Events(reason).size(); }
  std::string trace() const { return fmt::format("{:016x}", trace_.value()); }

 private:
  static WorldOptions Options(std::uint64_t seed, const SweepCase& c) {
    WorldOptions o;
    o.cluster = GpuCluster(10, 8);
    o.cluster.pools[0].startup = {cluster::Distribution::Kind::kUniform, 1.0,
                                  static_cast<double>(c.startup_max)};
    o.seed = seed;
    o.faulty_controller_client = c.client_faults.client();
    o.faulty_statefulset_client = c.client_faults.statefulset;
    return o;
  }

  // Crashes, node losses and the client's faults at random times in the fault window,
  // scheduled on the loop.
  void InjectFaults() {
    if (!case_.AnyFault()) return;
    checker_.SetFaults(true);  // property 2 is off for the rest of this run
    fault_end_ = world_.loop().Now() + kFaultWindow;
    if (case_.crashes) {
      for (int i = 0; i < 4; ++i) {
        world_.loop().After(std::chrono::seconds(rng_.UniformInt(1, 200)),
                            [this] { CrashSomePod(); });
      }
    }
    if (case_.node_loss) LoseANode(world_, rng_, 10);
    InjectClientFaults(case_.client_faults, world_, Rng(seed_).Derive("client-fault-times"),
                       fault_end_);
  }

  void CrashSomePod() {
    auto pods = world_.Pods({{api::kSetNameLabel, case_.shape.name}});
    if (pods.empty()) return;
    const api::Pod& pod = pods[rng_.UniformInt(0, static_cast<std::int64_t>(pods.size()) - 1)];
    (void)world_.cluster().kubelets().CrashContainer("default", pod.metadata.name);
  }

  // Runs task by task, checking after each, until converged (checked every 100 ms of virtual
  // time, and only once the fault window is over) or `bound` after the fault window.
  bool RunChecked(Duration bound) {
    return RunCheckedUntil(
        world_, fault_end_, bound, 100ms,
        [this] {
          checker_.Check();
          trace_.Update();
        },
        [this](std::string* why) { return checker_.Converged(why); }, &why_);
  }

  std::uint64_t seed_;
  SweepCase case_;
  Rng rng_;
  LwsWorld world_;
  Checker checker_;
  TraceHash trace_;
  Time fault_end_{};
  std::string why_;
};

// True when no LWS_SWEEP_* variable chose the seeds: the default 24, which CI runs. Checks that
// some run met a behaviour hold for these; a shard of a long sweep may by chance meet none.
inline bool DefaultSeeds() {
  return std::getenv("LWS_SWEEP_SEEDS") == nullptr && std::getenv("LWS_SWEEP_FIRST") == nullptr &&
         std::getenv("LWS_SWEEP_COUNT") == nullptr;
}

// LWS_SWEEP_SEEDS, else `default_count` seeds (or the number in `count_variable`) from
// LWS_SWEEP_FIRST (default 1).
inline std::vector<std::uint64_t> Seeds(const char* count_variable = "LWS_SWEEP_COUNT",
                                        std::uint64_t default_count = 24) {
  std::vector<std::uint64_t> seeds;
  if (const char* list = std::getenv("LWS_SWEEP_SEEDS")) {
    std::stringstream in(list);
    for (std::string item; std::getline(in, item, ',');) seeds.push_back(std::stoull(item));
    return seeds;
  }
  std::uint64_t first = 1, count = default_count;
  if (const char* f = std::getenv("LWS_SWEEP_FIRST")) first = std::stoull(f);
  if (const char* n = std::getenv(count_variable)) count = std::stoull(n);
  for (std::uint64_t s = first; s < first + count; ++s) seeds.push_back(s);
  return seeds;
}

}  // namespace lws::scenario::sweep
