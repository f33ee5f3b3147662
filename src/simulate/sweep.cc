// Parallel sweeps (sweep.h).
#include "simulate/sweep.h"

#include <atomic>
#include <optional>
#include <thread>

#include "base/mutex.h"

namespace lws::simulate {

Result<Report> Sweep(const Scenario& scenario, const SweepOptions& options) {
  struct Task {
    std::size_t strategy;
    std::uint64_t seed;
    bool timeline;
    std::optional<Result<RunResult>> result;
  };
  std::vector<Task> tasks;
  for (std::size_t k = 0; k < scenario.strategies.size(); ++k) {
    for (std::size_t i = options.shard_index; i < options.seeds.size(); i += options.shard_count) {
      tasks.push_back(
          {k, options.seeds[i], options.timelines && i == options.shard_index, std::nullopt});
    }
  }
  Mutex mu;
  std::size_t done = 0;  // guarded by mu (GUARDED_BY does not apply to a local)
  auto run = [&](Task& task) {
    RunOptions run_options;
    run_options.timeline = task.timeline;
    Result<RunResult> result =
        RunScenario(scenario, scenario.strategies[task.strategy], task.seed, run_options);
    MutexLock lock(&mu);
    task.result = std::move(result);
    ++done;
    if (options.progress) options.progress(done, tasks.size());
  };
  // Each thread takes the next run not started; the worlds share nothing.
  std::atomic<std::size_t> next{0};
  auto work = [&] {
    for (std::size_t i = next++; i < tasks.size(); i = next++) run(tasks[i]);
  };
  const std::size_t threads =
      std::min(std::max<std::size_t>(options.jobs, 1), std::max<std::size_t>(tasks.size(), 1));
  std::vector<std::thread> pool;
  for (std::size_t i = 1; i < threads; ++i) pool.emplace_back(work);
  work();
  for (std::thread& thread : pool) thread.join();
  Report report;
  report.scenario = scenario.name;
  report.horizon_s = std::chrono::duration<double>(scenario.horizon).count();
  for (const Strategy& strategy : scenario.strategies)
    report.strategies.push_back({strategy.name, {}});
  for (Task& task : tasks) {
    if (!task.result || !task.result->ok()) {
      const Status failed = task.result ? task.result->status() : Status::Internal("run lost");
      return Status(failed.code(), "strategy " + scenario.strategies[task.strategy].name +
                                       ", seed " + std::to_string(task.seed) + ": " +
                                       failed.message());
    }
    // What the runs watched; strategies with workloads of their own name theirs too.
    const std::string& watched = (*task.result)->lws;
    if (report.lws.empty()) {
      report.lws = watched;
    } else if (("; " + report.lws + "; ").find("; " + watched + "; ") == std::string::npos) {
      report.lws += "; " + watched;
    }
    report.strategies[task.strategy].runs.push_back(std::move(**task.result));
  }
  return report;
}

}  // namespace lws::simulate
