// File: client/rest/exec_plugin.h
//
// Exec credential plugins (client.authentication.k8s.io v1 and v1beta1), the mechanism EKS, GKE
// and AKS use to hand out short-lived credentials: the client runs a command, passes it an
// ExecCredential request in the KUBERNETES_EXEC_INFO environment variable (with the cluster's
// connection details when provideClusterInfo is set), and reads back an ExecCredential whose
// status holds a bearer token or a client certificate and key, optionally with an expiry.
//
// The request and the answer are pure functions (ExecInfoJson, ParseExecCredential); only
// RunExecPlugin starts a process. Failures explain themselves: the exit code, the plugin's
// stderr and the kubeconfig's installHint are all in the message, because the person reading it
// usually has to install or log in to something to fix it.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/clock.h"
#include "base/result.h"
#include "client/rest/kubeconfig.h"

namespace lws::rest {

inline constexpr char kExecApiV1[] = "client.authentication.k8s.io/v1";
inline constexpr char kExecApiV1Beta1[] = "client.authentication.k8s.io/v1beta1";

// spec.cluster of the request, sent only when provideClusterInfo is set.
struct ExecClusterInfo {
  std::string server;
  std::string tls_server_name;
  bool insecure_skip_tls_verify = false;
  std::string certificate_authority_data;  // PEM bytes; base64 in the JSON
  std::string proxy_url;
};

struct ExecCredential {
  std::string token;
  std::string client_cert_pem;
  std::string client_key_pem;
  std::optional<Time> expiration;  // none: valid until the server rejects it
  bool operator==(const ExecCredential&) const = default;
};

struct ExecOptions {
  std::chrono::milliseconds timeout{std::chrono::seconds(30)};
  // The environment the plugin's env entries are added to; nullopt: this process's environment.
  std::optional<std::vector<std::string>> base_env;
};

// Checks what kubectl checks before running a plugin: a known apiVersion, a command, named env
// entries, and an interactiveMode this non-interactive client can honour (v1 requires one).
Status ValidateExecConfig(const ExecConfig& exec);

// The KUBERNETES_EXEC_INFO value: {"apiVersion":..,"kind":"ExecCredential","spec":{..}}.
std::string ExecInfoJson(const ExecConfig& exec, const ExecClusterInfo* cluster);

// Decodes and checks the plugin's stdout against the configured apiVersion.
Result<ExecCredential> ParseExecCredential(std::string_view output, const ExecConfig& exec);

// The environment the plugin runs with: `base` (entries overridden by name), then exec.env, then
// KUBERNETES_EXEC_INFO.
std::vector<std::string> ExecEnvironment(const std::vector<std::string>& base,
                                         const ExecConfig& exec, const ExecClusterInfo* cluster);

// Runs the plugin and parses its answer. `cluster` is used only when provideClusterInfo is set.
Result<ExecCredential> RunExecPlugin(const ExecConfig& exec, const ExecClusterInfo& cluster,
                                     const ExecOptions& options = {});

}  // namespace lws::rest
