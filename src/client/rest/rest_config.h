// File: client/rest/rest_config.h
//
// What a REST client needs to reach one API server, after a kubeconfig context or the in-cluster
// service account has been resolved: the server URL, TLS material as PEM bytes (files already
// read, so the transport never touches the kubeconfig), the credentials to authenticate each
// request with, and the namespace to use when a command names none. Credentials stay
// unresolved where they change over time (a token file that is rotated, an exec plugin whose
// token expires); CredentialSource (credential_source.h) turns them into a header per request.
//
// Environment carries the process environment and home directory as values, so that loading
// (kubeconfig_loader.h, in_cluster.h) is a function of its inputs and tests need no real env.
#pragma once

#include <compare>
#include <map>
#include <optional>
#include <string>

#include "client/rest/kubeconfig.h"

namespace lws::rest {

// Where a pod's service account credentials are mounted.
inline constexpr char kServiceAccountDir[] = "/var/run/secrets/kubernetes.io/serviceaccount";

struct TlsConfig {
  std::string ca_pem;           // empty: the system roots
  std::string client_cert_pem;  // static client certificate (exec plugins may supply one later)
  std::string client_key_pem;
  bool insecure = false;    // insecure-skip-tls-verify: no server certificate check
  std::string server_name;  // SNI and verification name when it differs from the host
  auto operator<=>(const TlsConfig&) const = default;  // RequestPool keys on it
  bool operator==(const TlsConfig&) const = default;
};

// At most one of token/token_file, username/password or exec is set (checked when resolving).
struct Credentials {
  std::string token;
  std::string token_file;  // re-read periodically: kubelet rotates projected tokens
  std::string username;
  std::string password;
  std::optional<ExecConfig> exec;
  bool operator==(const Credentials&) const = default;
};

struct RestConfig {
  std::string server;  // "https://host:port", no trailing slash
  TlsConfig tls;
  Credentials credentials;
  std::string default_namespace = "default";
  // Human-readable origin for log lines: "kubeconfig /x/config, context prod" or "in-cluster".
  std::string source;
  bool operator==(const RestConfig&) const = default;
};

struct Environment {
  std::map<std::string, std::string> vars;
  std::string home;  // "" when unknown: ~/.kube/config is then not consulted

  // The variable's value, "" when unset (kubectl does not tell unset from empty either).
  std::string Get(const std::string& name) const;
  // The calling process's environment and $HOME. Only cmd/ wiring should call this.
  static Environment FromProcess();
};

}  // namespace lws::rest
