// File: cli/controller_flags.h
//
// The flags of `lws controller`, upstream's cmd/main.go flags (spec 21.1) plus the client's
// --kubeconfig/--context and a few switches for running the operator on a workstation against
// `lws up --no-controller`. Flags that the configuration file can also set are recorded only when
// given (config::ExplicitFlags), so `--config` plus a default-valued flag never hides the file.
//
//   ControllerCommandOptions options;
//   AddControllerFlags(command, &options);
//   ... parse ...
//   ASSIGN_OR_RETURN(config::Configuration cfg, ResolveConfiguration(options.flags));
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "base/result.h"
#include "config/configuration.h"
#include "config/flags.h"

namespace CLI {
class App;
}

namespace lws::cli {

struct ControllerCommandOptions {
  config::ExplicitFlags flags;
  std::string kubeconfig;  // --kubeconfig: "" follows KUBECONFIG, in-cluster, ~/.kube/config
  std::string context;     // --context
  // --metrics-secure=false: /metrics over plain HTTP without the TokenReview filter.
  bool metrics_secure = true;
  // --webhook-cert-san: extra names or IPs in the self-managed serving certificate, for webhook
  // configurations that call the operator by URL (deploy/local/ uses https://127.0.0.1:9443).
  std::vector<std::string> webhook_cert_sans;
  // --namespace: the operator namespace when not running in a pod (default: the service
  // account's namespace file, else lws-system).
  std::string operator_namespace;
  // --identity: the leader election identity (default <hostname>_<uuid>).
  std::string identity;
  // --concurrent-lws-syncs / --concurrent-group-syncs: reconcile workers of the LeaderWorkerSet
  // and pod (group) controllers. One key is never reconciled twice at once; different keys
  // overlap their API calls (runtime/work_queue.h).
  int lws_workers = 2;
  int group_workers = 4;
};

// Registers the flags on `command`; the callbacks fill `options` as they are parsed. A duration
// or log level that does not parse is a CLI11 validation error naming the flag.
void AddControllerFlags(CLI::App* command, ControllerCommandOptions* options);

// The configuration the controller runs with: the --config file (strictly decoded, its path in
// every error) or the defaults, then the explicitly given flags over it, then validation
// (an Invalid status listing every field error).
Result<config::Configuration> ResolveConfiguration(const config::ExplicitFlags& flags);

}  // namespace lws::cli
