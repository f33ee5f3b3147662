// File: client/rest/kubeconfig.h
//
// The kubeconfig file (`apiVersion: v1`, `kind: Config`) as typed structs. Parsing follows
// client-go's clientcmd: named lists become maps keyed by name (a repeated name is an error),
// unknown fields are ignored (the decoder is not strict), a wrong type is an error, an empty file
// is an empty config, and relative file references (certificate-authority, client-certificate,
// client-key, tokenFile, and an exec command containing '/') are resolved against the directory
// of the kubeconfig file, as kubectl does. *-data fields are base64 in the file and hold the
// decoded bytes here.
//
// Every error names the file and the field path:
//   "kubeconfig /x/config: users[1].user.client-certificate-data: illegal base64 data at
//    input byte 4"
//
// Parsing checks only shape; which combinations make sense (one auth method per user, a CA file
// and insecure-skip-tls-verify together, ...) is checked when a context is resolved into a
// RestConfig (kubeconfig_loader.h), because kubectl also only rejects the context it uses.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "api/field.h"
#include "base/result.h"

namespace lws::rest {

struct ExecEnvVar {
  std::string name;
  std::string value;
  bool operator==(const ExecEnvVar&) const = default;
};

// users[].user.exec: a credential plugin (client.authentication.k8s.io).
struct ExecConfig {
  std::string api_version;  // client.authentication.k8s.io/v1 or /v1beta1
  std::string command;
  std::vector<std::string> args;
  std::vector<ExecEnvVar> env;  // added to the calling process's environment
  std::string install_hint;     // printed when the command cannot be found or fails
  bool provide_cluster_info = false;
  std::string interactive_mode;  // Never, IfAvailable, Always ("" on v1beta1 means IfAvailable)
  bool operator==(const ExecConfig&) const = default;
};

struct KubeCluster {
  std::string server;
  std::string certificate_authority;       // file path, resolved
  std::string certificate_authority_data;  // decoded PEM bytes
  bool insecure_skip_tls_verify = false;
  std::string tls_server_name;
  std::string proxy_url;  // accepted; the transport does not use proxies
  bool operator==(const KubeCluster&) const = default;
};

struct KubeUser {
  std::string token;
  std::string token_file;               // resolved path
  std::string client_certificate;       // resolved path
  std::string client_certificate_data;  // decoded PEM bytes
  std::string client_key;               // resolved path
  std::string client_key_data;          // decoded PEM bytes
  std::string username;
  std::string password;
  std::optional<ExecConfig> exec;
  bool has_auth_provider = false;  // legacy auth-provider stanza: parsed, not supported
  bool operator==(const KubeUser&) const = default;
};

struct KubeContext {
  std::string cluster;
  std::string user;
  std::string namespace_name;
  bool operator==(const KubeContext&) const = default;
};

struct Kubeconfig {
  std::map<std::string, KubeCluster> clusters;
  std::map<std::string, KubeUser> users;
  std::map<std::string, KubeContext> contexts;
  std::string current_context;
  api::Json preferences = api::Json::object();  // kept as read; nothing in the client uses it
  // Where each entry came from (file path), so error messages can name the file after a merge.
  std::map<std::string, std::string> cluster_origin;
  std::map<std::string, std::string> user_origin;
  std::map<std::string, std::string> context_origin;
  bool operator==(const Kubeconfig&) const = default;
};

// Parses kubeconfig text read from `path` (used for messages and to resolve relative paths).
// Errors: BadRequest "kubeconfig <path>: <field>: <reason>" or "kubeconfig <path>: yaml: ...".
Result<Kubeconfig> ParseKubeconfig(std::string_view text, const std::string& path);

// Reads and parses one file; a missing file is NotFound "open <path>: no such file or directory".
Result<Kubeconfig> LoadKubeconfigFile(const std::string& path);

// Merges `next` into `into` with client-go's rules for a KUBECONFIG list: the first file to define
// a cluster, user or context name wins (the later entry is dropped whole, not merged field by
// field), and the first non-empty current-context and preferences win.
void MergeKubeconfig(Kubeconfig& into, const Kubeconfig& next);

}  // namespace lws::rest
