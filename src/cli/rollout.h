// File: cli/rollout.h
//
// `lws rollout`, also `kubectl lws rollout` when the binary is installed as kubectl-lws (a
// kubectl plugin): the rollout commands kubectl has for Deployments, for a LeaderWorkerSet on any
// API server (docs/scarcity.md, "kubectl lws").
//
//   lws rollout status NAME [--watch=false] [--timeout 10m]   follow the rollout to its end
//   lws rollout history NAME [--revision N]                   the ControllerRevisions
//   lws rollout pause NAME | resume NAME                      lws-cpp.dev/paused
//   lws rollout undo NAME [--to-revision N]                   restore a revision's templates
// with --kubeconfig, --context and -n/--namespace as kubectl reads them.
//
// Exit codes: 0 done (status: the rollout completed, or one look with --watch=false), 1 an
// error (not found, a failed or stalled rollout, a timeout), 2 bad flags.
#pragma once

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <string>

#include "base/clock.h"
#include "cli/kube_connect.h"
#include "client/client.h"

namespace CLI {
class App;
}

namespace lws::cli {

struct RolloutOptions {
  KubeFlags kube;
  std::string verb;  // status, history, pause, resume, undo
  std::string name;
  bool watch = true;
  std::string timeout = "0s";    // status: 0 waits for ever
  std::int64_t revision = 0;     // history --revision
  std::int64_t to_revision = 0;  // undo --to-revision
};

// How `status` waits between looks (a real sleep; tests pass their own).
using Sleeper = std::function<void(Duration)>;

// One verb against `client`, in namespace `ns`.
int RunRollout(const RolloutOptions& options, const client::Client& client, const std::string& ns,
               std::ostream& out, std::ostream& err, const Sleeper& sleep);

void AddRolloutCommand(CLI::App& app, int* exit_code);

}  // namespace lws::cli
