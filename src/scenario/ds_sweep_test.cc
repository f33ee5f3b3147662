// The seeded sweep of DisaggregatedSets (CTest label `sim`): random role topologies (2 or 3
// roles, unequal replicas and sizes, each role's own maxSurge/maxUnavailable or none, 1 or 2
// slices) rolled to a new image on the simulated cluster, with and without faults (container
// crashes, a node lost for a minute, and sweep_faults.h's faults at the controllers' client:
// refused writes, lost answers, delayed and dropped watches, a controller restart). After every
// stored change DsRolloutChecker (scenario/ds_rollout_checker.h) checks the floor, surge and
// ratio invariants, and every run must converge within kConvergenceBound after the faults end.
//
// Seeds: LWS_SWEEP_SEEDS="3,17" runs those; otherwise LWS_DS_SWEEP_COUNT (default 12) seeds from
// LWS_SWEEP_FIRST (default 1).
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <gtest/gtest.h>

#include "controllers/disaggregatedset/ds_caches.h"
#include "scenario/ds_rollout_checker.h"
#include "scenario/sweep_run.h"

namespace lws::scenario {
namespace {

using namespace std::chrono_literals;
using sweep::ClientFaultCase;

constexpr Duration kConvergenceBound = 30min;
constexpr Duration kFaultWindow = 5min;
const char* const kRoleNames[] = {"prefill", "decode", "router"};

struct Role {
  std::string name;
  int replicas = 1;
  int size = 1;
  api::Json rollout;  // rollingUpdateConfiguration, or null for none
};

struct DsCase {
  std::vector<Role> roles;
  int slices = 1;
  int startup_max = 10;
  bool crashes = false;
  bool node_loss = false;
  ClientFaultCase client_faults;
  bool AnyFault() const { return crashes || node_loss || client_faults.any(); }
  std::string Describe() const {
    std::string out = fmt::format("slices {}", slices);
    for (const Role& r : roles) {
      out += fmt::format(" {} x{} size {} {}", r.name, r.replicas, r.size,
                         r.rollout.is_null() ? "default" : r.rollout.dump());
    }
    return out + fmt::format(" crashes {} nodeLoss {} startup 1-{}s{}", crashes, node_loss,
                             startup_max, client_faults.Describe());
  }
};

DsCase Draw(Rng rng) {
  DsCase c;
  const int roles = static_cast<int>(rng.UniformInt(2, 3));
  for (int i = 0; i < roles; ++i) {
    Role r{kRoleNames[i], static_cast<int>(rng.UniformInt(1, 4)),
           static_cast<int>(rng.UniformInt(1, 2)), nullptr};
    if (rng.Bernoulli(0.7)) {
      int surge = static_cast<int>(rng.UniformInt(0, 2));
      int unavailable = static_cast<int>(rng.UniformInt(0, 2));
      if (surge == 0 && unavailable == 0) surge = 1;  // the webhook refuses both 0
      r.rollout = {{"maxSurge", surge}, {"maxUnavailable", unavailable}};
    }
    c.roles.push_back(r);
  }
  c.slices = rng.Bernoulli(0.3) ? 2 : 1;
  c.startup_max = static_cast<int>(rng.UniformInt(2, 20));
  c.crashes = rng.Bernoulli(0.3);
  c.node_loss = rng.Bernoulli(0.2);
  c.client_faults = sweep::DrawClientFaults(rng.Derive("client-faults"));
  return c;
}

api::Json DsObject(const DsCase& c, const std::string& image) {
  api::Json roles = api::Json::array();
  for (const Role& r : c.roles) {
    api::Json container = {{"name", "server"}, {"image", image}};
    container["resources"]["limits"]["nvidia.com/gpu"] = "2";
    api::Json spec = {{"replicas", r.replicas}};
    spec["leaderWorkerTemplate"]["size"] = r.size;
    spec["leaderWorkerTemplate"]["workerTemplate"]["spec"]["containers"] = {container};
    if (!r.rollout.is_null()) spec["rolloutStrategy"]["rollingUpdateConfiguration"] = r.rollout;
    roles.push_back({{"name", r.name}, {"spec", spec}});
  }
  api::Json ds = {{"apiVersion", "disaggregatedset.x-k8s.io/v1"}, {"kind", "DisaggregatedSet"}};
  ds["metadata"] = {{"name", "pd"}, {"namespace", "default"}};
  ds["spec"] = {{"slices", c.slices}, {"roles", roles}};
  return ds;
}

class DsSweepRun {
 public:
  DsSweepRun(std::uint64_t seed, DsCase c)
      : seed_(seed),
        case_(std::move(c)),
        rng_(Rng(seed).Derive("faults")),
        world_(Options(seed, case_)),
        checker_(&world_.user(), "pd") {
    world_.loop().SetInstantTaskLimit(sweep::kInstantTaskLimit);
  }

  std::string Run() {
    if (Status s = world_.Start(); !s.ok()) return "start: " + s.ToString();
    auto created = world_.Create(disaggregatedset::kDisaggregatedSets,
                                 DsObject(case_, "vllm/vllm-openai:v0.6.0"));
    if (!created.ok()) return "create: " + created.status().ToString();
    if (!RunChecked(kConvergenceBound)) return "never converged after create: " + why_;
    checker_.RolloutStarted();
    api::Json patch = DsObject(case_, "vllm/vllm-openai:v0.6.1");
    patch.erase("metadata");
    auto changed = world_.MergePatch(disaggregatedset::kDisaggregatedSets, "pd", patch);
    if (!changed.ok()) return "template change: " + changed.status().ToString();
    InjectFaults();
    if (!RunChecked(kConvergenceBound)) return "rollout never converged: " + why_ + State();
    return "";
  }

  // What a failed run left: the set's status and its LeaderWorkerSets.
  std::string State() const {
    std::string out;
    for (const api::Json& lws :
         world_.List(client::kLeaderWorkerSets, {{api::kDsNameLabel, "pd"}})) {
      out += fmt::format("\n  {} replicas {} status {}", lws["metadata"]["name"].dump(),
                         lws["spec"].value("replicas", api::Json()).dump(), lws["status"].dump());
    }
    if (auto* m = const_cast<LwsWorld&>(world_).ds_manager()) {
      for (const api::LeaderWorkerSet* l : m->caches().lws.List()) {
        out += fmt::format("\n  cached {} rv {} ready {}", l->metadata.name,
                           l->metadata.resource_version, l->status.ready_replicas);
      }
      for (const api::DisaggregatedSet* d : m->caches().sets.List()) {
        out += fmt::format("\n  cached set rv {} status {}", d->metadata.resource_version,
                           api::Encode(d->status).dump());
      }
    }
    for (const api::Json& ds : world_.List(disaggregatedset::kDisaggregatedSets)) {
      out += "\n  set meta " + ds["metadata"].dump();
      out += "\n  set status " + ds["status"].dump();
    }
    return out;
  }

  const DsRolloutChecker& checker() const { return checker_; }

 private:
  static WorldOptions Options(std::uint64_t seed, const DsCase& c) {
    WorldOptions o;
    // Room for every role's surge at once: 24 nodes of 8 GPUs, 2 GPUs a pod.
    o.cluster = GpuCluster(24, 8);
    o.cluster.pools[0].startup = {cluster::Distribution::Kind::kUniform, 1.0,
                                  static_cast<double>(c.startup_max)};
    o.seed = seed;
    o.disaggregatedset = true;
    o.faulty_controller_client = c.client_faults.client();
    o.faulty_statefulset_client = c.client_faults.statefulset;
    return o;
  }

  void InjectFaults() {
    if (!case_.AnyFault()) return;
    fault_end_ = world_.loop().Now() + kFaultWindow;
    for (int i = 0; case_.crashes && i < 4; ++i) {
      world_.loop().After(std::chrono::seconds(rng_.UniformInt(1, 200)), [this] { Crash(); });
    }
    if (case_.node_loss) sweep::LoseANode(world_, rng_, 24);
    sweep::InjectClientFaults(case_.client_faults, world_, Rng(seed_).Derive("client-fault-times"),
                              fault_end_);
  }

  void Crash() {
    auto pods = world_.Pods({{api::kDsNameLabel, "pd"}});
    if (pods.empty()) return;
    const api::Pod& pod = pods[rng_.UniformInt(0, static_cast<std::int64_t>(pods.size()) - 1)];
    (void)world_.cluster().kubelets().CrashContainer("default", pod.metadata.name);
  }

  bool RunChecked(Duration bound) {
    return sweep::RunCheckedUntil(
        world_, fault_end_, bound, 1s, [this] { checker_.Check(); },
        [this](std::string* why) { return checker_.Converged(why); }, &why_);
  }

  std::uint64_t seed_;
  DsCase case_;
  Rng rng_;
  LwsWorld world_;
  DsRolloutChecker checker_;
  Time fault_end_{};
  std::string why_;
};

TEST(DisaggregatedSetSweep, RandomTopologiesKeepTheInvariantsAndConverge) {
  int runs = 0, faulted = 0;
  for (std::uint64_t seed : sweep::Seeds("LWS_DS_SWEEP_COUNT", 12)) {
    DsCase c = Draw(Rng(seed).Derive("disaggregatedset"));
    DsSweepRun run(seed, c);
    const std::string failure = run.Run();
    const std::string replay = fmt::format(
        "replay: LWS_SWEEP_SEEDS={} ./build/src/scenario/scenario_sweep_test "
        "--gtest_filter='DisaggregatedSetSweep.*'",
        seed);
    EXPECT_EQ(failure, "") << "seed " << seed << " (" << c.Describe() << ")\n" << replay;
    const auto& violations = run.checker().violations();
    EXPECT_TRUE(violations.empty()) << "seed " << seed << " (" << c.Describe() << ")\n"
                                    << fmt::format("{}", fmt::join(violations, "\n")) << "\n"
                                    << replay;
    ++runs;
    faulted += c.AnyFault();
  }
  std::printf("%d DisaggregatedSet runs, %d with faults\n", runs, faulted);
}

}  // namespace
}  // namespace lws::scenario
