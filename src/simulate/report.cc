// Sweep reports (report.h): JSON, merge, table.
#include "simulate/report.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>

#include "simulate/report_numbers.h"
#include "simulate/role_report.h"

namespace lws::simulate {
namespace {

using api::Json;

constexpr const char* kKind = "SimulationReport";

Json StallJson(const Stall& s) {
  Json reasons = Json::array();
  for (const auto& [message, count] : s.reasons)
    reasons.push_back({{"message", message}, {"count", count}});
  return {
      {"fromSeconds", Ms(s.from_s)},
      {"toSeconds", Ms(s.to_s)},
      {"waitingGroups", Json(std::vector<int>(s.waiting_groups.begin(), s.waiting_groups.end()))},
      {"reasons", std::move(reasons)}};
}

Json DrainJson(const DrainResult& d) {
  Json drain = {{"node", d.node},
                {"atSeconds", Ms(d.at_s)},
                {"pods", d.pods},
                {"evicted", d.evicted},
                {"refused", d.refused}};
  drain["finishedSeconds"] = d.finished_s ? Json(Ms(*d.finished_s)) : Json();
  if (!d.refusal.empty()) drain["lastRefusal"] = d.refusal;
  if (!d.error.empty()) drain["error"] = d.error;
  return drain;
}

DrainResult DrainFromJson(const Json& j) {
  DrainResult d;
  d.node = j.value("node", "");
  d.at_s = j.value("atSeconds", 0.0);
  d.pods = j.value("pods", 0);
  d.evicted = j.value("evicted", 0);
  d.refused = j.value("refused", std::int64_t{0});
  if (j.contains("finishedSeconds") && j["finishedSeconds"].is_number()) {
    d.finished_s = j["finishedSeconds"].get<double>();
  }
  d.refusal = j.value("lastRefusal", "");
  d.error = j.value("error", "");
  return d;
}

Json RunJson(const RunResult& r) {
  const RunMetrics& m = r.metrics;
  Json stalls = Json::array();
  for (const Stall& s : m.stalls) stalls.push_back(StallJson(s));
  Json run = {{"seed", r.seed},
              {"completed", m.completed},
              {"durationSeconds", Ms(m.duration_s)},
              {"strandedAcceleratorHours", Micro(m.stranded_accelerator_hours)},
              {"nodesProvisioned", m.nodes_provisioned},
              {"nodesReleased", m.nodes_released},
              {"recreations", m.recreations},
              {"crashes", m.crashes},
              {"preemptions", m.preemptions},
              {"stalls", std::move(stalls)}};
  AddServingNumbers(m, &run);
  if (!r.drains.empty()) {
    Json drains = Json::array();
    for (const DrainResult& d : r.drains) drains.push_back(DrainJson(d));
    run["drains"] = std::move(drains);
  }
  if (!r.roles.empty()) AddRoles(r, &run);
  return run;
}

RunResult RunFromJson(const Json& j) {
  RunResult r;
  r.seed = j.value("seed", std::uint64_t{0});
  RunMetrics& m = r.metrics;
  m.completed = j.value("completed", false);
  m.duration_s = j.value("durationSeconds", 0.0);
  ServingNumbersFromJson(j, &m);
  m.stranded_accelerator_hours = j.value("strandedAcceleratorHours", 0.0);
  m.nodes_provisioned = j.value("nodesProvisioned", 0);
  m.nodes_released = j.value("nodesReleased", 0);
  m.recreations = j.value("recreations", std::int64_t{0});
  m.crashes = j.value("crashes", std::int64_t{0});
  m.preemptions = j.value("preemptions", std::int64_t{0});
  for (const Json& s : j.value("stalls", Json::array())) {
    Stall stall;
    stall.from_s = s.value("fromSeconds", 0.0);
    stall.to_s = s.value("toSeconds", 0.0);
    for (const Json& g : s.value("waitingGroups", Json::array()))
      stall.waiting_groups.insert(g.get<int>());
    for (const Json& reason : s.value("reasons", Json::array())) {
      stall.reasons.emplace_back(reason.value("message", ""),
                                 reason.value("count", std::int64_t{0}));
    }
    m.stalls.push_back(std::move(stall));
  }
  for (const Json& d : j.value("drains", Json::array())) r.drains.push_back(DrainFromJson(d));
  RolesFromJson(j, &r);
  return r;
}

// Per drain of the timeline (the k-th of every run): how many runs saw it done, how long it
// took in those, how many evictions budgets refused, and why the unfinished ones waited.
Json DrainSummaries(const StrategyResults& s) {
  auto bigger = [](double a, double b) { return a > b; };
  Json summaries = Json::array();
  const std::size_t drains = s.runs.empty() ? 0 : s.runs.front().drains.size();
  for (std::size_t k = 0; k < drains; ++k) {
    std::vector<double> durations, refused;
    std::map<std::string, int> waiting;  // the last refusal (or error) of unfinished drains
    for (const RunResult& r : s.runs) {
      if (k >= r.drains.size()) continue;
      const DrainResult& d = r.drains[k];
      refused.push_back(static_cast<double>(d.refused));
      if (d.finished_s)
        durations.push_back(Ms(*d.finished_s));
      else
        ++waiting[!d.error.empty()    ? d.error
                  : d.refusal.empty() ? "evicted pods not gone"
                                      : d.refusal];
    }
    Json summary = {{"node", s.runs.front().drains[k].node},
                    {"atSeconds", Ms(s.runs.front().drains[k].at_s)},
                    {"finished", durations.size()},
                    {"durationSeconds", Spread(durations, bigger)},
                    {"refused", Spread(refused, bigger)}};
    Json unfinished = Json::array();
    for (const auto& [why, runs] : waiting) unfinished.push_back({{"reason", why}, {"runs", runs}});
    summary["unfinished"] = std::move(unfinished);
    summaries.push_back(std::move(summary));
  }
  return summaries;
}

Json Summary(const StrategyResults& s) {
  auto bigger = [](double a, double b) { return a > b; };
  auto smaller = [](double a, double b) { return a < b; };
  auto collect = [&](const std::function<double(const RunResult&)>& get) {
    std::vector<double> values;
    for (const RunResult& r : s.runs) values.push_back(get(r));
    return values;
  };
  int completed = 0;
  std::vector<double> first_ready;
  int stalled = 0;
  for (const RunResult& r : s.runs) {
    completed += r.metrics.completed;
    if (r.metrics.first_new_ready_s) first_ready.push_back(*r.metrics.first_new_ready_s);
    stalled += !r.metrics.stalls.empty();
  }
  const double n = static_cast<double>(std::max<std::size_t>(1, s.runs.size()));
  Json summary = {
      {"runs", s.runs.size()},
      {"completed", completed},
      {"completionRate", Round(completed / n, 1e-4)},
      {"runsWithStalls", stalled},
      {"durationSeconds",
       Spread(collect([](const RunResult& r) { return Ms(r.metrics.duration_s); }), bigger)},
      {"firstNewReadySeconds", Spread(first_ready, bigger)},
      {"minReadyGroups",
       Spread(collect([](const RunResult& r) { return double(r.metrics.min_ready); }), smaller)},
      {"belowFloorSeconds",
       Spread(collect([](const RunResult& r) { return Ms(r.metrics.below_floor_s); }), bigger)},
      {"belowReplicasSeconds",
       Spread(collect([](const RunResult& r) { return Ms(r.metrics.below_replicas_s); }), bigger)},
      {"groupHoursLost",
       Spread(collect([](const RunResult& r) { return Micro(r.metrics.group_hours_lost); }),
              bigger)},
      {"peakAccelerators",
       Spread(collect([](const RunResult& r) { return double(r.metrics.peak_accelerators); }),
              bigger)},
      {"surgeAcceleratorHours",
       Spread(collect([](const RunResult& r) { return Micro(r.metrics.surge_accelerator_hours); }),
              bigger)},
      {"strandedAcceleratorHours", Spread(collect([](const RunResult& r) {
                                            return Micro(r.metrics.stranded_accelerator_hours);
                                          }),
                                          bigger)},
      {"nodesProvisioned",
       Spread(collect([](const RunResult& r) { return double(r.metrics.nodes_provisioned); }),
              bigger)},
      {"nodesReleased",
       Spread(collect([](const RunResult& r) { return double(r.metrics.nodes_released); }),
              bigger)},
      {"recreations",
       Spread(collect([](const RunResult& r) { return double(r.metrics.recreations); }), bigger)},
      {"crashes",
       Spread(collect([](const RunResult& r) { return double(r.metrics.crashes); }), bigger)},
      {"preemptions",
       Spread(collect([](const RunResult& r) { return double(r.metrics.preemptions); }), bigger)},
      {"drains", DrainSummaries(s)}};
  AddRoleSummaries(s.runs, &summary);
  return summary;
}

}  // namespace

Json ReportJson(const Report& report) {
  Json strategies = Json::array();
  for (const StrategyResults& s : report.strategies) {
    std::vector<const RunResult*> runs;
    for (const RunResult& r : s.runs) runs.push_back(&r);
    std::sort(runs.begin(), runs.end(),
              [](const RunResult* a, const RunResult* b) { return a->seed < b->seed; });
    Json list = Json::array();
    for (const RunResult* r : runs) list.push_back(RunJson(*r));
    strategies.push_back({{"name", s.name}, {"summary", Summary(s)}, {"runs", std::move(list)}});
  }
  return {{"apiVersion", "lws-cpp.dev/v1alpha1"},
          {"kind", kKind},
          {"scenario", report.scenario},
          {"lws", report.lws},
          {"horizonSeconds", Ms(report.horizon_s)},
          {"strategies", std::move(strategies)}};
}

Result<Report> ReportFromJson(const Json& json) {
  if (!json.is_object() || api::StringMember(json, "kind") != kKind) {
    return Status::BadRequest("not a SimulationReport (kind must be SimulationReport)");
  }
  Report report;
  report.scenario = api::StringMember(json, "scenario");
  report.lws = api::StringMember(json, "lws");
  report.horizon_s = json.value("horizonSeconds", 0.0);
  for (const Json& s : json.value("strategies", Json::array())) {
    StrategyResults results;
    results.name = s.value("name", "");
    for (const Json& run : s.value("runs", Json::array())) {
      results.runs.push_back(RunFromJson(run));
      results.runs.back().strategy = results.name;
    }
    report.strategies.push_back(std::move(results));
  }
  return report;
}

Result<Report> MergeReports(std::vector<Report> shards) {
  if (shards.empty()) return Status::BadRequest("nothing to merge");
  Report merged = std::move(shards.front());
  for (std::size_t i = 1; i < shards.size(); ++i) {
    Report& shard = shards[i];
    if (shard.scenario != merged.scenario || shard.strategies.size() != merged.strategies.size()) {
      return Status::BadRequest(
          fmt::format("shard {} is of another sweep (scenario {}, {} strategies)", i + 1,
                      shard.scenario, shard.strategies.size()));
    }
    for (std::size_t k = 0; k < shard.strategies.size(); ++k) {
      if (shard.strategies[k].name != merged.strategies[k].name) {
        return Status::BadRequest(fmt::format("shard {}: strategy {} where {} was expected", i + 1,
                                              shard.strategies[k].name, merged.strategies[k].name));
      }
      for (RunResult& run : shard.strategies[k].runs) {
        for (const RunResult& have : merged.strategies[k].runs) {
          if (have.seed == run.seed) {
            return Status::BadRequest(
                fmt::format("seed {} of strategy {} is in two shards", run.seed, run.strategy));
          }
        }
        merged.strategies[k].runs.push_back(std::move(run));
      }
    }
  }
  return merged;
}

// True when some strategy's runs have a `metric` above 0: only then is its column shown
// (RECREATED, PREEMPTED), so tables of runs without them keep their width.
bool AnyRun(const Json& json, const char* metric) {
  for (const Json& s : json["strategies"]) {
    const Json& r = s["summary"][metric];
    if (r.is_object() && r["worst"].get<double>() > 0) return true;
  }
  return false;
}

// One line per drain of a strategy's runs, below the table: "drain gpu-0 at 10.0m (surge):
// done in 100% of runs, 1.5m/2.0m/2.1m, evictions refused 6/9 (p50/worst)", then why the
// unfinished drains waited.
std::string DrainLines(const Json& strategy,
                       const std::function<std::string(const Json&, const char*)>& secs) {
  std::string out;
  const double runs = std::max(1.0, strategy["summary"]["runs"].get<double>());
  for (const Json& d : strategy["summary"]["drains"]) {
    const Json& duration = d["durationSeconds"];
    out +=
        fmt::format("drain {} at {} ({}): done in {:.0f}% of runs", d["node"].get<std::string>(),
                    secs(Json{{"at", d["atSeconds"]}}, "at"), strategy["name"].get<std::string>(),
                    d["finished"].get<double>() * 100 / runs);
    if (duration.is_object()) {
      out += ", " + secs(duration, "p50") + "/" + secs(duration, "p95") + "/" +
             secs(duration, "worst");
    }
    out += fmt::format(", evictions refused {}/{} (p50/worst)\n", d["refused"]["p50"].get<double>(),
                       d["refused"]["worst"].get<double>());
    for (const Json& u : d["unfinished"]) {
      out += fmt::format("  not done in {} runs: {}\n", u["runs"].get<int>(),
                         u["reason"].get<std::string>());
    }
  }
  return out;
}

std::string ReportTable(const Report& report) {
  const Json json = ReportJson(report);
  const bool recreations = AnyRun(json, "recreations");
  const bool preemptions = AnyRun(json, "preemptions");
  const bool service = AnyService(json);
  std::string out =
      fmt::format("{:<18} {:>9} {:>22} {:>9} {:>11} {:>12} {:>8} {:>11} {:>14} {:>6} {:>6}",
                  "STRATEGY", "COMPLETED", "DURATION p50/p95/worst", "MIN READY", "BELOW FLOOR",
                  "GROUP-H LOST", "PEAK ACC", "SURGE ACC-H", "STRANDED ACC-H", "NODES+", "STALLS");
  if (recreations) out += fmt::format(" {:>9}", "RECREATED");
  if (preemptions) out += fmt::format(" {:>9}", "PREEMPTED");
  out += (service ? ServiceHeader() : "") + "\n";
  auto secs = [](const Json& spread, const char* at) {
    if (!spread.is_object()) return std::string("-");
    double s = spread[at].get<double>();
    return s >= 3600 ? fmt::format("{:.1f}h", s / 3600)
           : s >= 60 ? fmt::format("{:.1f}m", s / 60)
                     : fmt::format("{:.0f}s", s);
  };
  for (const Json& s : json["strategies"]) {
    const Json& m = s["summary"];
    const std::string duration = secs(m["durationSeconds"], "p50") + "/" +
                                 secs(m["durationSeconds"], "p95") + "/" +
                                 secs(m["durationSeconds"], "worst");
    if (m["runs"].get<std::size_t>() == 0) {
      out += fmt::format("{:<18} (no runs)\n", s["name"].get<std::string>());
      continue;
    }
    out += fmt::format(
        "{:<18} {:>8.0f}% {:>22} {:>9} {:>11} {:>12.2f} {:>8} {:>11.2f} {:>14.2f} {:>6} {:>6}",
        s["name"].get<std::string>(), m["completionRate"].get<double>() * 100, duration,
        fmt::format("{}/{}", m["minReadyGroups"]["p50"].get<double>(),
                    m["minReadyGroups"]["worst"].get<double>()),
        secs(m["belowFloorSeconds"], "p50"), m["groupHoursLost"]["p50"].get<double>(),
        m["peakAccelerators"]["p50"].get<double>(), m["surgeAcceleratorHours"]["p50"].get<double>(),
        m["strandedAcceleratorHours"]["p50"].get<double>(),
        m["nodesProvisioned"]["p50"].get<double>(), m["runsWithStalls"].get<int>());
    if (recreations) out += fmt::format(" {:>9}", m["recreations"]["p50"].get<double>());
    if (preemptions) out += fmt::format(" {:>9}", m["preemptions"]["p50"].get<double>());
    out += (service ? ServiceCells(m) : "") + "\n";
  }
  for (const Json& s : json["strategies"]) out += DrainLines(s, secs);
  for (const Json& s : json["strategies"]) out += RoleLines(s, secs);
  return out;
}

}  // namespace lws::simulate
