// File: simulate/sweep.h
//
// Every (strategy, seed) run of a scenario, in parallel: each run is its own single-threaded
// world (DESIGN.md 2.3 and 6), so `jobs` only decides how many run at once, never the result.
// A shard (index i of n) runs the seeds at positions i, i + n, ... of the list; merged shards
// equal the whole sweep (report.h).
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "simulate/report.h"

namespace lws::simulate {

struct SweepOptions {
  std::vector<std::uint64_t> seeds;
  std::size_t jobs = 1;
  std::size_t shard_index = 0;
  std::size_t shard_count = 1;
  // Keep the timeline of each strategy's first seed (for the HTML report and the SVG).
  bool timelines = false;
  // Called after each run (from the thread that finished it, under a lock): runs done, total.
  std::function<void(std::size_t, std::size_t)> progress;
};

// The report, or the first run's error in (strategy, seed) order.
Result<Report> Sweep(const Scenario& scenario, const SweepOptions& options);

}  // namespace lws::simulate
