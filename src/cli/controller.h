// File: cli/controller.h
//
// `lws controller`: the operator, a drop-in for upstream's controller-manager (spec 21). Against
// any API server reachable through a kubeconfig or the pod's service account it runs, in order:
//
//   1. the configuration: --config file (strict) with explicitly given flags over it;
//   2. the REST client (QPS/burst of clientConnection), checked with GET /version;
//   3. /metrics (secure by default) and /healthz, /readyz;
//   4. webhook certificates: self-managed in a Secret with caBundle injection
//      (internalCertManagement.enable), else the files cert-manager mounts in webhook.certDir;
//   5. the admission webhook server on webhook.port, once certificates are in place;
//   6. leader election on the Lease; the leader starts the LWS and pod controllers.
//
// Every replica serves webhooks, metrics and probes; only the leader reconciles. SIGTERM or
// SIGINT stops taking work, lets the reconcile in flight finish, releases the Lease (so a
// standby takes over at once) and exits 0. Losing the Lease exits 1, as controller-runtime does:
// the pod restarts and campaigns again.
#pragma once

#include "cli/controller_flags.h"

namespace CLI {
class App;
}

namespace lws::cli {

// Runs until a shutdown signal or lost leadership. Returns the process exit code.
int RunController(const ControllerCommandOptions& options);

void AddControllerCommand(CLI::App& app, int* exit_code);

// The lws-controller executable: the same flags as `lws controller`, at the top level.
int ControllerMain(int argc, char** argv);

}  // namespace lws::cli
