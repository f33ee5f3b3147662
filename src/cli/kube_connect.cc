#include "cli/kube_connect.h"

#include <CLI/CLI.hpp>

#include "client/rest/kubeconfig_loader.h"

namespace lws::cli {

void AddKubeFlags(CLI::App* cmd, KubeFlags* flags, bool with_namespace,
                  const std::string& purpose) {
  cmd->add_option("--kubeconfig", flags->kubeconfig, purpose + "the kubeconfig file");
  cmd->add_option("--context", flags->context, purpose + "the kubeconfig context");
  if (with_namespace) {
    cmd->add_option("-n,--namespace", flags->namespace_,
                    purpose + "the namespace (default: the context's)");
  }
}

Result<KubeConnection> ConnectTo(const KubeFlags& flags, rest::RestClientOptions options) {
  rest::LoadOptions load;
  load.kubeconfig_path = flags.kubeconfig;
  load.context = flags.context;
  ASSIGN_OR_RETURN(rest::RestConfig config,
                   rest::LoadRestConfig(load, rest::Environment::FromProcess()));
  KubeConnection connection;
  connection.namespace_ = flags.namespace_.empty() ? config.default_namespace : flags.namespace_;
  connection.source = config.source;
  ASSIGN_OR_RETURN(connection.client, rest::RestClient::FromConfig(std::move(config), options));
  return connection;
}

}  // namespace lws::cli
