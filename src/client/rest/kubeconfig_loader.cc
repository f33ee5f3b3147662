#include "client/rest/kubeconfig_loader.h"

#include <set>

#include "base/file.h"
#include "client/rest/exec_plugin.h"
#include "client/rest/in_cluster.h"
#include "client/rest/rest_util.h"

namespace lws::rest {
namespace {

std::vector<std::string> SplitList(const std::string& list) {
  std::vector<std::string> out;
  std::set<std::string> seen;
  std::size_t begin = 0;
  while (begin <= list.size()) {
    std::size_t end = list.find(':', begin);
    if (end == std::string::npos) end = list.size();
    std::string item = list.substr(begin, end - begin);
    // Empty entries ("a::b") are skipped and repeats dropped, as client-go's deduplicate does.
    if (!item.empty() && seen.insert(item).second) out.push_back(item);
    begin = end + 1;
  }
  return out;
}

std::string Prefix(const std::map<std::string, std::string>& origin, const std::string& name) {
  auto it = origin.find(name);
  return it == origin.end() ? "kubeconfig: " : "kubeconfig " + it->second + ": ";
}

// PEM bytes from inline data or from a file; naming both is ambiguous and kubectl rejects it.
Result<std::string> DataOrFile(const std::string& data, const std::string& file,
                               const std::string& field, const std::string& owner) {
  if (!data.empty() && !file.empty()) {
    return Status::BadRequest(field + "-data and " + field + " are both specified for " + owner);
  }
  if (file.empty()) return data;
  Result<std::string> read = ReadFile(file);
  if (!read.ok()) {
    return Status(read.status().code(), "unable to read " + field + " " + file + " for " + owner +
                                            ": " + read.status().message());
  }
  return read;
}

Status ResolveCluster(const KubeCluster& cluster, const std::string& name, RestConfig& out) {
  const std::string owner = "cluster \"" + name + "\"";
  if (cluster.server.empty()) return Status::BadRequest("no server found for " + owner);
  out.server = cluster.server;
  while (out.server.size() > 1 && out.server.back() == '/') out.server.pop_back();
  ASSIGN_OR_RETURN(out.tls.ca_pem,
                   DataOrFile(cluster.certificate_authority_data, cluster.certificate_authority,
                              "certificate-authority", owner));
  // Verification off and a CA given contradict each other; kubectl refuses to guess.
  if (cluster.insecure_skip_tls_verify && !out.tls.ca_pem.empty()) {
    return Status::BadRequest(
        "specifying a root certificates file with the insecure flag is "
        "not allowed for " +
        owner);
  }
  out.tls.insecure = cluster.insecure_skip_tls_verify;
  out.tls.server_name = cluster.tls_server_name;
  return Status::Ok();
}

// kubectl's rule: token (or tokenFile), basic auth and exec are alternatives; a client
// certificate may accompany any of them.
Status CheckOneAuthMethod(const KubeUser& user, const std::string& owner) {
  std::vector<std::string> methods;
  if (!user.token.empty() || !user.token_file.empty()) methods.push_back("token");
  if (!user.username.empty() || !user.password.empty()) methods.push_back("basicAuth");
  if (user.exec.has_value()) methods.push_back("exec");
  if (methods.size() <= 1) return Status::Ok();
  std::string list;
  for (const std::string& m : methods) list += (list.empty() ? "" : " ") + m;
  return Status::BadRequest("more than one authentication method found for " + owner + "; found [" +
                            list + "], only one is allowed");
}

Status ResolveUser(const KubeUser& user, const std::string& name, RestConfig& out) {
  const std::string owner = "user \"" + name + "\"";
  if (user.has_auth_provider) {
    return Status::BadRequest("auth-provider for " + owner +
                              " is not supported; configure an exec credential plugin instead");
  }
  RETURN_IF_ERROR(CheckOneAuthMethod(user, owner));
  if (user.exec.has_value()) {
    Status exec = ValidateExecConfig(*user.exec);
    if (!exec.ok()) return Status(exec.code(), owner + ": " + exec.message());
  }
  ASSIGN_OR_RETURN(out.tls.client_cert_pem,
                   DataOrFile(user.client_certificate_data, user.client_certificate,
                              "client-certificate", owner));
  ASSIGN_OR_RETURN(out.tls.client_key_pem,
                   DataOrFile(user.client_key_data, user.client_key, "client-key", owner));
  if (out.tls.client_cert_pem.empty() != out.tls.client_key_pem.empty()) {
    return Status::BadRequest("client-certificate and client-key must both be specified for " +
                              owner + " to use the clientCert authentication method");
  }
  out.credentials =
      Credentials{user.token, user.token_file, user.username, user.password, user.exec};
  return Status::Ok();
}

std::string SelectedContext(const Kubeconfig& config, const std::string& context) {
  return context.empty() ? config.current_context : context;
}

}  // namespace

std::vector<std::string> KubeconfigPrecedence(const LoadOptions& options, const Environment& env) {
  if (!options.kubeconfig_path.empty()) return {options.kubeconfig_path};
  std::string list = env.Get("KUBECONFIG");
  if (!list.empty()) return SplitList(list);
  if (env.home.empty()) return {};
  std::string home_file = env.home + "/.kube/config";
  if (!FileExists(home_file)) return {};
  return {home_file};
}

Result<Kubeconfig> LoadMergedKubeconfig(const LoadOptions& options, const Environment& env) {
  std::vector<std::string> files = KubeconfigPrecedence(options, env);
  Kubeconfig merged;
  bool any = false;
  for (const std::string& file : files) {
    Result<Kubeconfig> one = LoadKubeconfigFile(file);
    // Only an explicitly named file must exist; KUBECONFIG entries may be missing.
    if (!one.ok() && one.status().code() == Code::kNotFound && options.kubeconfig_path.empty()) {
      continue;
    }
    if (!one.ok()) return one.status();
    MergeKubeconfig(merged, *one);
    any = true;
  }
  if (!any) return Status::NotFound("no kubeconfig file found");
  return merged;
}

Result<RestConfig> ResolveContext(const Kubeconfig& config, const std::string& context) {
  std::string name = SelectedContext(config, context);
  if (name.empty()) {
    return Status::BadRequest("kubeconfig: no current-context is set; pass --context");
  }
  auto ctx = config.contexts.find(name);
  if (ctx == config.contexts.end()) {
    return Status::NotFound("kubeconfig: context \"" + name + "\" does not exist");
  }
  const std::string prefix = Prefix(config.context_origin, name);
  auto cluster = config.clusters.find(ctx->second.cluster);
  if (cluster == config.clusters.end()) {
    return Status::NotFound(prefix + "cluster \"" + ctx->second.cluster + "\" of context \"" +
                            name + "\" does not exist");
  }
  RestConfig out;
  Status s = ResolveCluster(cluster->second, cluster->first, out);
  if (!s.ok()) return Status(s.code(), Prefix(config.cluster_origin, cluster->first) + s.message());
  if (!ctx->second.user.empty()) {
    auto user = config.users.find(ctx->second.user);
    if (user == config.users.end()) {
      return Status::NotFound(prefix + "user \"" + ctx->second.user + "\" of context \"" + name +
                              "\" does not exist");
    }
    s = ResolveUser(user->second, user->first, out);
    if (!s.ok()) return Status(s.code(), Prefix(config.user_origin, user->first) + s.message());
  }
  if (!ctx->second.namespace_name.empty()) out.default_namespace = ctx->second.namespace_name;
  out.source = prefix + "context " + name;
  return out;
}

Result<RestConfig> LoadRestConfig(const LoadOptions& options, const Environment& env) {
  Result<Kubeconfig> merged = LoadMergedKubeconfig(options, env);
  if (merged.ok()) return ResolveContext(*merged, options.context);
  if (merged.status().code() != Code::kNotFound || !options.kubeconfig_path.empty()) {
    return merged.status();
  }
  if (!InClusterEnvironment(env)) {
    return Status::NotFound(
        "no configuration found: pass --kubeconfig, set KUBECONFIG, create ~/.kube/config, or run "
        "in a pod with a service account");
  }
  return InClusterConfig(env, options.service_account_dir);
}

}  // namespace lws::rest
