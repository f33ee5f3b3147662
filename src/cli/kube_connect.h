// File: cli/kube_connect.h
//
// The commands that talk to any API server (`lws controller`, `lws rollout`, `lws simulate
// --from-cluster`) find it as kubectl does: --kubeconfig, else KUBECONFIG, else ~/.kube/config,
// else the in-cluster service account (client/rest/kubeconfig_loader.h), with --context choosing
// the context, and -n/--namespace overriding the context's namespace.
#pragma once

#include <memory>
#include <string>

#include "base/result.h"
#include "client/rest/rest_client.h"

namespace CLI {
class App;
}

namespace lws::cli {

struct KubeFlags {
  std::string kubeconfig;
  std::string context;
  std::string namespace_;  // "": the context's namespace, else "default"
};

// --kubeconfig and --context (and -n/--namespace when `with_namespace`), worded for `purpose`
// ("" or, for example, "With --from-cluster: ").
void AddKubeFlags(CLI::App* cmd, KubeFlags* flags, bool with_namespace,
                  const std::string& purpose = "");

struct KubeConnection {
  std::unique_ptr<rest::RestClient> client;
  std::string namespace_;  // the flag's, else the context's, else "default"
  std::string source;      // where the configuration came from, for log lines
};

// Builds the client; contacts nobody.
Result<KubeConnection> ConnectTo(const KubeFlags& flags, rest::RestClientOptions options);

}  // namespace lws::cli
