// File: cli/simulate.h
//
// `lws simulate`: a what-if of a rollout, run on the simulated product on virtual time
// (docs/simulate.md).
//
//   lws simulate SCENARIO.yaml [--seeds N | --seed S] [--jobs J] [--shard I/N]
//                [-o table|json|yaml] [--report out.html] [--timeline out.svg]
//   lws simulate merge SHARD.document()...   [-o table|json|yaml]
//   lws simulate --from-cluster [--kubeconfig K] (--lws | --disaggregatedset) NS/NAME
//                --change PATCH.yaml
//                [--horizon 6h] [--emit-scenario out.yaml] [the sweep flags above]
//
// Exit codes: 0 every run completed, 3 some run did not complete within the horizon (the
// report says which), 2 bad input (scenario file, flags), 1 a run failed.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "cli/kube_connect.h"

namespace CLI {
class App;
}

namespace lws::cli {

struct SimulateOptions {
  std::string scenario;
  std::size_t seeds = 10;
  std::int64_t seed = -1;  // >= 0: just this seed
  std::size_t jobs = 0;    // 0: every core
  std::string shard;       // "I/N"
  std::string output = "table";
  std::string report;    // HTML file
  std::string timeline;  // SVG file
  bool progress = true;
  std::vector<std::string> merge;  // `merge` files
  bool from_cluster = false;
  KubeFlags kube;                // --kubeconfig, --context (no namespace: --lws names it)
  std::string lws;               // NS/NAME
  std::string disaggregatedset;  // NS/NAME, in place of lws
  std::string change;            // a merge patch file (YAML or JSON)
  std::string horizon = "6h";
  std::string emit_scenario;  // write the scenario built from the cluster
};

int RunSimulate(const SimulateOptions& options, std::ostream& out, std::ostream& err);
int RunSimulateMerge(const SimulateOptions& options, std::ostream& out, std::ostream& err);

void AddSimulateCommand(CLI::App& app, int* exit_code);

}  // namespace lws::cli
