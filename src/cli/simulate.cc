#include "cli/simulate.h"

#include <fmt/format.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <iostream>
#include <thread>

#include "api/go_duration.h"
#include "api/yaml.h"
#include "base/clock.h"
#include "base/file.h"
#include "cli/kube_connect.h"
#include "client/resource.h"
#include "client/rest/rest_client.h"
#include "simulate/from_cluster.h"
#include "simulate/html_report.h"
#include "simulate/sweep.h"

namespace lws::cli {
namespace {

constexpr int kBadInput = 2;
constexpr int kNotCompleted = 3;

Status ParseShard(const std::string& text, std::size_t* index, std::size_t* count) {
  std::size_t slash = text.find('/');
  try {
    if (slash == std::string::npos) throw std::invalid_argument("");
    *index = std::stoul(text.substr(0, slash));
    *count = std::stoul(text.substr(slash + 1));
  } catch (const std::exception&) {
    return Status::BadRequest("--shard must be I/N, e.g. 0/4, not \"" + text + "\"");
  }
  if (*count == 0 || *index >= *count) {
    return Status::BadRequest("--shard " + text + ": I must be below N");
  }
  return Status::Ok();
}

int Print(const simulate::Report& report, const std::string& output, std::ostream& out) {
  const api::Json json = simulate::ReportJson(report);
  if (output == "json") {
    out << json.dump(2) << "\n";
  } else if (output == "yaml") {
    out << api::EmitYaml(json);
  } else {
    out << simulate::ReportTable(report);
  }
  for (const simulate::StrategyResults& s : report.strategies) {
    for (const simulate::RunResult& r : s.runs) {
      if (!r.metrics.completed) return kNotCompleted;
    }
  }
  return 0;
}

// "12/200 runs, 3.1 runs/s, about 1m2s left" on one terminal line, at most once a second.
class Progress {
 public:
  // Real elapsed time (the runs' own time is virtual): base's monotonic clock.
  explicit Progress(std::ostream& err, bool on) : err_(err), on_(on), start_(MonotonicNow()) {}
  void operator()(std::size_t done, std::size_t total) {
    if (!on_) return;
    const MonotonicTime now = MonotonicNow();
    if (done < total && now - last_ < std::chrono::seconds(1)) return;
    last_ = now;
    const double elapsed = std::chrono::duration<double>(now - start_).count();
    const double rate = elapsed > 0 ? done / elapsed : 0;
    const double left = rate > 0 ? (total - done) / rate : 0;
    err_ << fmt::format("\r{}/{} runs, {:.1f} runs/s, about {:.0f}s left   ", done, total, rate,
                        left);
    if (done == total) err_ << "\n";
    err_.flush();
  }

 private:
  std::ostream& err_;
  bool on_;
  MonotonicTime start_;
  MonotonicTime last_{};
};

// What --from-cluster reads: the LWS or DisaggregatedSet, every node and every pod, through any
// API server.
Result<simulate::LiveCluster> ReadCluster(const SimulateOptions& options) {
  const bool set = !options.disaggregatedset.empty();
  const std::string& target = set ? options.disaggregatedset : options.lws;
  const std::size_t slash = target.find('/');
  if (slash == std::string::npos || slash == 0 || slash + 1 == target.size()) {
    return Status::BadRequest(fmt::format("--{} must be NAMESPACE/NAME, not \"{}\"",
                                          set ? "disaggregatedset" : "lws", target));
  }
  rest::RestClientOptions client_options;
  client_options.field_manager = "lws-simulate";
  client_options.qps = 50;
  client_options.burst = 100;
  ASSIGN_OR_RETURN(KubeConnection connection, ConnectTo(options.kube, client_options));
  const auto& client = connection.client;
  simulate::LiveCluster live;
  ASSIGN_OR_RETURN(store::ObjectPtr workload,
                   client->Get(set ? client::kDisaggregatedSets : client::kLeaderWorkerSets,
                               target.substr(0, slash), target.substr(slash + 1)));
  live.workload = workload->document();
  ASSIGN_OR_RETURN(store::ListResult nodes, client->List(client::kNodes, {}));
  for (const store::ObjectPtr& node : nodes.items) live.nodes.push_back(node->document());
  ASSIGN_OR_RETURN(store::ListResult pods, client->List(client::kPods, {}));
  for (const store::ObjectPtr& pod : pods.items) live.pods.push_back(pod->document());
  return live;
}

// The scenario of --from-cluster, as a document and parsed (the document is what runs).
Result<simulate::Scenario> ScenarioFromCluster(const SimulateOptions& options, std::ostream& err) {
  if (options.lws.empty() == options.disaggregatedset.empty() || options.change.empty()) {
    return Status::BadRequest(
        "--from-cluster needs one of --lws and --disaggregatedset NAMESPACE/NAME, and --change "
        "PATCH.yaml");
  }
  ASSIGN_OR_RETURN(std::string change_text, ReadFile(options.change));
  Result<api::Json> change = api::LoadYaml(change_text);
  if (!change.ok() || !change->is_object()) {
    return Status::BadRequest(options.change + ": a JSON merge patch object is needed" +
                              (change.ok() ? "" : ": " + change.status().message()));
  }
  simulate::FromClusterOptions from;
  from.change = *change;
  ASSIGN_OR_RETURN(from.horizon, api::ParseGoDuration(options.horizon));
  ASSIGN_OR_RETURN(simulate::LiveCluster live, ReadCluster(options));
  ASSIGN_OR_RETURN(api::Json document, simulate::ScenarioFromCluster(live, from));
  const std::string yaml = api::EmitYaml(document);
  if (!options.emit_scenario.empty()) {
    RETURN_IF_ERROR(WriteFileAtomically(options.emit_scenario, yaml, false));
    err << "lws simulate: wrote the scenario to " << options.emit_scenario << "\n";
  }
  return simulate::ParseScenario(yaml, "<from-cluster>", ".");
}

}  // namespace

int RunSimulate(const SimulateOptions& options, std::ostream& out, std::ostream& err) {
  Result<simulate::Scenario> scenario = options.from_cluster
                                            ? ScenarioFromCluster(options, err)
                                            : simulate::LoadScenario(options.scenario);
  if (!scenario.ok()) {
    err << "lws simulate: invalid scenario\n" << scenario.status().message() << "\n";
    return kBadInput;
  }
  if (Status checked = simulate::CheckScenario(*scenario, options.scenario); !checked.ok()) {
    err << "lws simulate: the scenario cannot run\n" << checked.message() << "\n";
    return kBadInput;
  }
  simulate::SweepOptions sweep;
  if (options.seed >= 0) {
    sweep.seeds = {static_cast<std::uint64_t>(options.seed)};
  } else {
    for (std::size_t i = 1; i <= options.seeds; ++i) sweep.seeds.push_back(i);
  }
  if (!options.shard.empty()) {
    if (Status s = ParseShard(options.shard, &sweep.shard_index, &sweep.shard_count); !s.ok()) {
      err << "lws simulate: " << s.message() << "\n";
      return kBadInput;
    }
  }
  sweep.jobs = options.jobs > 0 ? options.jobs : std::max(1u, std::thread::hardware_concurrency());
  sweep.timelines = !options.report.empty() || !options.timeline.empty();
  Progress progress(err, options.progress);
  sweep.progress = [&progress](std::size_t done, std::size_t total) { progress(done, total); };
  Result<simulate::Report> report = simulate::Sweep(*scenario, sweep);
  if (!report.ok()) {
    err << "lws simulate: " << report.status().message() << "\n";
    return 1;
  }
  if (!options.report.empty()) {
    if (Status s =
            WriteFileAtomically(options.report, simulate::HtmlReport(*scenario, *report), false);
        !s.ok()) {
      err << "lws simulate: " << s.message() << "\n";
      return 1;
    }
  }
  if (!options.timeline.empty()) {
    if (Status s = WriteFileAtomically(
            options.timeline, simulate::TimelineSvg(report->strategies.front().runs.front()),
            false);
        !s.ok()) {
      err << "lws simulate: " << s.message() << "\n";
      return 1;
    }
  }
  return Print(*report, options.output, out);
}

int RunSimulateMerge(const SimulateOptions& options, std::ostream& out, std::ostream& err) {
  std::vector<simulate::Report> shards;
  for (const std::string& file : options.merge) {
    Result<std::string> text = ReadFile(file);
    api::Json json = text.ok() ? api::Json::parse(*text, nullptr, false) : api::Json();
    Result<simulate::Report> shard = json.is_discarded() || !text.ok()
                                         ? Result<simulate::Report>(Status::BadRequest("not JSON"))
                                         : simulate::ReportFromJson(json);
    if (!shard.ok()) {
      err << "lws simulate merge: " << file << ": " << shard.status().message() << "\n";
      return kBadInput;
    }
    shards.push_back(std::move(*shard));
  }
  Result<simulate::Report> merged = simulate::MergeReports(std::move(shards));
  if (!merged.ok()) {
    err << "lws simulate merge: " << merged.status().message() << "\n";
    return kBadInput;
  }
  return Print(*merged, options.output, out);
}

void AddSimulateCommand(CLI::App& app, int* exit_code) {
  auto options = std::make_shared<SimulateOptions>();
  CLI::App* cmd = app.add_subcommand(
      "simulate",
      "What-if of a rollout on the simulated cluster, on virtual time (docs/simulate.md)");
  cmd->add_option("scenario", options->scenario, "Scenario file");
  cmd->add_option("--seeds", options->seeds, "Seeds 1..N per strategy")
      ->check(CLI::Range(1, 1000000));
  cmd->add_option("--seed", options->seed, "Run this seed alone")->check(CLI::NonNegativeNumber);
  cmd->add_option("--jobs,-j", options->jobs, "Runs at once (default: every core)");
  cmd->add_option("--shard", options->shard, "Run slice I of N of the seeds: I/N");
  cmd->add_option("-o,--output", options->output, "table, json or yaml")
      ->check(CLI::IsMember({"table", "json", "yaml"}));
  cmd->add_option("--report", options->report, "Write a self-contained HTML report");
  cmd->add_option("--timeline", options->timeline, "Write the first run's timeline as SVG");
  options->progress = ::isatty(STDERR_FILENO) != 0;  // a progress line only on a terminal
  cmd->add_flag("!--no-progress", options->progress, "No progress line on standard error");
  cmd->add_flag("--from-cluster", options->from_cluster,
                "Build the scenario from a live LWS or DisaggregatedSet (any API server; nothing "
                "is written)");
  AddKubeFlags(cmd, &options->kube, /*with_namespace=*/false, "With --from-cluster: ");
  cmd->add_option("--lws", options->lws,
                  "With --from-cluster: the LeaderWorkerSet, NAMESPACE/NAME");
  cmd->add_option("--disaggregatedset", options->disaggregatedset,
                  "With --from-cluster: the DisaggregatedSet, NAMESPACE/NAME (in place of --lws)");
  cmd->add_option("--change", options->change,
                  "With --from-cluster: a JSON merge patch of the LWS or set (YAML or JSON)");
  cmd->add_option("--horizon", options->horizon,
                  "With --from-cluster: how long the rollout may take");
  cmd->add_option("--emit-scenario", options->emit_scenario,
                  "With --from-cluster: write the scenario built");
  CLI::App* merge = cmd->add_subcommand("merge", "Combine the JSON of shards into one report");
  merge->add_option("files", options->merge, "Shard reports (-o json)")->required();
  merge->add_option("-o,--output", options->output, "table, json or yaml")
      ->check(CLI::IsMember({"table", "json", "yaml"}));
  cmd->callback([options, exit_code, cmd, merge] {
    if (merge->parsed()) {
      *exit_code = RunSimulateMerge(*options, std::cout, std::cerr);
      return;
    }
    if (options->scenario.empty() == !options->from_cluster) {
      std::cerr << "lws simulate: give a scenario file or --from-cluster (one of them)\n"
                << cmd->help();
      *exit_code = kBadInput;
      return;
    }
    *exit_code = RunSimulate(*options, std::cout, std::cerr);
  });
}

}  // namespace lws::cli
