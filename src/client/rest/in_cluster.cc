#include "client/rest/in_cluster.h"

#include <unistd.h>

#include <cstdlib>

#include "base/file.h"
#include "client/rest/rest_util.h"

extern char** environ;

namespace lws::rest {
namespace {

// Go's net.JoinHostPort: a host containing ':' is an IPv6 literal and needs brackets.
std::string JoinHostPort(const std::string& host, const std::string& port) {
  if (host.find(':') != std::string::npos) return "[" + host + "]:" + port;
  return host + ":" + port;
}

std::string TrimSpace(std::string s) {
  const char* ws = " \t\r\n";
  std::size_t begin = s.find_first_not_of(ws);
  if (begin == std::string::npos) return "";
  return s.substr(begin, s.find_last_not_of(ws) - begin + 1);
}

// POD_NAMESPACE wins over the mounted file: it lets a pod override the namespace it runs in.
std::string InClusterNamespace(const Environment& env, const std::string& dir) {
  std::string ns = env.Get("POD_NAMESPACE");
  if (!ns.empty()) return ns;
  Result<std::string> file = ReadFile(dir + "/namespace");
  if (file.ok()) {
    ns = TrimSpace(*file);
    if (!ns.empty()) return ns;
  }
  return "default";
}

}  // namespace

std::string Environment::Get(const std::string& name) const {
  auto it = vars.find(name);
  return it == vars.end() ? "" : it->second;
}

Environment Environment::FromProcess() {
  Environment env;
  for (char** e = environ; e != nullptr && *e != nullptr; ++e) {
    std::string entry(*e);
    std::size_t eq = entry.find('=');
    if (eq == std::string::npos) continue;
    env.vars.emplace(entry.substr(0, eq), entry.substr(eq + 1));
  }
  env.home = env.Get("HOME");
  return env;
}

bool InClusterEnvironment(const Environment& env) {
  return !env.Get("KUBERNETES_SERVICE_HOST").empty() && !env.Get("KUBERNETES_SERVICE_PORT").empty();
}

Result<RestConfig> InClusterConfig(const Environment& env, const std::string& service_account_dir) {
  if (!InClusterEnvironment(env)) {
    return Status::NotFound(
        "unable to load in-cluster configuration, KUBERNETES_SERVICE_HOST and "
        "KUBERNETES_SERVICE_PORT must be defined");
  }
  RestConfig config;
  config.server = "https://" + JoinHostPort(env.Get("KUBERNETES_SERVICE_HOST"),
                                            env.Get("KUBERNETES_SERVICE_PORT"));
  config.credentials.token_file = service_account_dir + "/token";
  Result<std::string> token = ReadFile(config.credentials.token_file);
  if (!token.ok()) {
    return Status(token.status().code(),
                  "in-cluster service account token: " + token.status().message());
  }
  Result<std::string> ca = ReadFile(service_account_dir + "/ca.crt");
  if (!ca.ok()) {
    return Status(ca.status().code(), "in-cluster CA certificate: " + ca.status().message());
  }
  config.tls.ca_pem = std::move(ca).value();
  config.default_namespace = InClusterNamespace(env, service_account_dir);
  config.source = "in-cluster (" + service_account_dir + ")";
  return config;
}

}  // namespace lws::rest
