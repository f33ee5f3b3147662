// File: simulate/report.h
//
// The results of a sweep, per strategy, over seeds: every run's numbers and their summary, as a
// terminal table, or JSON/YAML with a stable schema (docs/simulate.md, "The report"):
//
//   {"apiVersion": "lws-cpp.dev/v1alpha1", "kind": "SimulationReport", "scenario": "...",
//    "lws": "...", "horizonSeconds": 21600,
//    "strategies": [{"name": "...",
//                    "summary": {"runs": 100, "completed": 97, "completionRate": 0.97,
//                                "durationSeconds": {"p50": 312.0, "p95": 401.5, "worst": 21600.0},
//                                ...},
//                    "runs": [{"seed": 1, "completed": true, "durationSeconds": 305.0, ...}]}]}
//
// Summaries: p50 is the median; p95 and worst are taken on the bad side of each number (the
// largest durations, lost hours, accelerators; the smallest minimum of ready groups). Runs are
// sorted by seed and numbers rounded to milliseconds (hours to 1e-6), so the same runs give the
// same bytes however they were computed: in any order, in parallel, or as merged shards.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "simulate/run.h"

namespace lws::simulate {

struct StrategyResults {
  std::string name;
  std::vector<RunResult> runs;
};

struct Report {
  std::string scenario;
  std::string lws;
  double horizon_s = 0;
  std::vector<StrategyResults> strategies;  // in the scenario's order
};

api::Json ReportJson(const Report& report);
// The inverse, for merging shards (runs only: summaries are recomputed). 400 on another schema.
Result<Report> ReportFromJson(const api::Json& json);
// Shards of one sweep (same scenario, strategies in the same order) as one report.
Result<Report> MergeReports(std::vector<Report> shards);
// The terminal table: one row per strategy.
std::string ReportTable(const Report& report);

}  // namespace lws::simulate
