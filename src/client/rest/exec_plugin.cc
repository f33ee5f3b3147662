#include "client/rest/exec_plugin.h"

#include <map>
#include <nlohmann/json.hpp>

#include "api/base64.h"
#include "client/rest/process.h"
#include "client/rest/rest_util.h"

namespace lws::rest {
namespace {

using api::Json;

Status PluginError(std::string message) { return {Code::kUnauthorized, std::move(message)}; }

// The status field `key` as a string; absent or null is "".
Result<std::string> StatusString(const Json& status, const char* key) {
  auto it = status.find(key);
  if (it == status.end() || it->is_null()) return std::string();
  if (!it->is_string()) {
    return PluginError(std::string("exec plugin returned a non-string status.") + key);
  }
  return it->get<std::string>();
}

Result<std::optional<Time>> Expiration(const Json& status) {
  ASSIGN_OR_RETURN(std::string text, StatusString(status, "expirationTimestamp"));
  if (text.empty()) return std::optional<Time>();
  Result<Time> t = ParseRfc3339(text);
  if (!t.ok()) {
    return PluginError("exec plugin returned an invalid expirationTimestamp \"" + text + "\"");
  }
  return std::optional<Time>(*t);
}

Result<Json> ParseJson(std::string_view output) {
  try {
    return Json::parse(output);
  } catch (const Json::exception& e) {
    return PluginError(std::string("decoding stdout: ") + e.what());
  }
}

// A string member of an object, "" when absent or of another type.
std::string StringMember(const Json& object, const char* key) {
  auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : "";
}

Status CheckTypeMeta(const Json& doc, const ExecConfig& exec) {
  if (!doc.is_object()) return PluginError("decoding stdout: not a JSON object");
  std::string api_version = StringMember(doc, "apiVersion");
  std::string kind = StringMember(doc, "kind");
  if (api_version != exec.api_version) {
    return PluginError("exec plugin is configured to use API version " + exec.api_version +
                       ", plugin returned version " + (api_version.empty() ? "\"\"" : api_version));
  }
  if (kind != "ExecCredential") {
    return PluginError("exec plugin returned kind \"" + kind + "\", want ExecCredential");
  }
  return Status::Ok();
}

Json ClusterJson(const ExecClusterInfo& c) {
  // Go omits empty fields (omitempty); server is always written.
  Json j = {{"server", c.server}};
  if (!c.tls_server_name.empty()) j["tls-server-name"] = c.tls_server_name;
  if (c.insecure_skip_tls_verify) j["insecure-skip-tls-verify"] = true;
  if (!c.certificate_authority_data.empty()) {
    j["certificate-authority-data"] = api::Base64Encode(c.certificate_authority_data);
  }
  if (!c.proxy_url.empty()) j["proxy-url"] = c.proxy_url;
  return j;
}

std::string VarName(const std::string& entry) { return entry.substr(0, entry.find('=')); }

// The failure message for a plugin that ran but did not exit 0.
std::string ExitMessage(const ExecConfig& exec, const ProcessResult& run) {
  std::string m = "exec: executable " + exec.command + " failed with " +
                  (run.term_signal != 0 ? "signal " + std::to_string(run.term_signal)
                                        : "exit code " + std::to_string(run.exit_code));
  if (!run.stderr_text.empty()) m += "\nstderr: " + run.stderr_text;
  while (!m.empty() && m.back() == '\n') m.pop_back();
  if (!exec.install_hint.empty()) m += "\n\n" + exec.install_hint;
  return m;
}

}  // namespace

Status ValidateExecConfig(const ExecConfig& exec) {
  if (exec.command.empty()) return Status::BadRequest("exec plugin: command must be specified");
  if (exec.api_version != kExecApiV1 && exec.api_version != kExecApiV1Beta1) {
    return Status::BadRequest("exec plugin: invalid apiVersion \"" + exec.api_version + "\"");
  }
  for (const ExecEnvVar& var : exec.env) {
    if (var.name.empty()) {
      return Status::BadRequest("exec plugin: env variable name must be specified");
    }
  }
  const std::string& mode = exec.interactive_mode;
  if (mode.empty() && exec.api_version == kExecApiV1) {
    return Status::BadRequest("exec plugin: interactiveMode must be specified for " +
                              std::string(kExecApiV1));
  }
  if (!mode.empty() && mode != "Never" && mode != "IfAvailable" && mode != "Always") {
    return Status::BadRequest("exec plugin: invalid interactiveMode \"" + mode + "\"");
  }
  // The client runs unattended (a controller, a test): no terminal to prompt on.
  if (mode == "Always") {
    return Status::BadRequest(
        "exec plugin cannot support interactive mode: standard input is not a terminal");
  }
  return Status::Ok();
}

std::string ExecInfoJson(const ExecConfig& exec, const ExecClusterInfo* cluster) {
  Json spec = {{"interactive", false}};
  if (exec.provide_cluster_info && cluster != nullptr) spec["cluster"] = ClusterJson(*cluster);
  Json doc = {{"apiVersion", exec.api_version}, {"kind", "ExecCredential"}, {"spec", spec}};
  return doc.dump(-1, ' ', false, Json::error_handler_t::replace);
}

Result<ExecCredential> ParseExecCredential(std::string_view output, const ExecConfig& exec) {
  ASSIGN_OR_RETURN(Json doc, ParseJson(output));
  RETURN_IF_ERROR(CheckTypeMeta(doc, exec));
  auto status = doc.find("status");
  if (status == doc.end() || status->is_null()) {
    return PluginError("exec plugin didn't return a status field");
  }
  if (!status->is_object()) return PluginError("exec plugin returned a non-object status");
  ExecCredential cred;
  ASSIGN_OR_RETURN(cred.token, StatusString(*status, "token"));
  ASSIGN_OR_RETURN(cred.client_cert_pem, StatusString(*status, "clientCertificateData"));
  ASSIGN_OR_RETURN(cred.client_key_pem, StatusString(*status, "clientKeyData"));
  if (cred.token.empty() && cred.client_cert_pem.empty() && cred.client_key_pem.empty()) {
    return PluginError("exec plugin didn't return a token or cert/key pair");
  }
  if (cred.client_cert_pem.empty() != cred.client_key_pem.empty()) {
    return PluginError("exec plugin returned only certificate or key, not both");
  }
  ASSIGN_OR_RETURN(cred.expiration, Expiration(*status));
  return cred;
}

std::vector<std::string> ExecEnvironment(const std::vector<std::string>& base,
                                         const ExecConfig& exec, const ExecClusterInfo* cluster) {
  // execve keeps duplicate names and getenv returns the first, so overriding means replacing.
  std::vector<std::string> env;
  std::map<std::string, std::size_t> index;
  auto set = [&](const std::string& entry) {
    auto [it, added] = index.emplace(VarName(entry), env.size());
    if (added)
      env.push_back(entry);
    else
      env[it->second] = entry;
  };
  for (const std::string& entry : base) set(entry);
  for (const ExecEnvVar& var : exec.env) set(var.name + "=" + var.value);
  set("KUBERNETES_EXEC_INFO=" + ExecInfoJson(exec, cluster));
  return env;
}

Result<ExecCredential> RunExecPlugin(const ExecConfig& exec, const ExecClusterInfo& cluster,
                                     const ExecOptions& options) {
  RETURN_IF_ERROR(ValidateExecConfig(exec));
  std::vector<std::string> env = ExecEnvironment(
      options.base_env.has_value() ? *options.base_env : ProcessEnvironment(), exec, &cluster);
  Result<ProcessResult> run = RunProcess(exec.command, exec.args, env, options.timeout);
  if (!run.ok() && run.status().code() == Code::kNotFound) {
    std::string m = "exec: executable " + exec.command + " not found";
    if (!exec.install_hint.empty()) m += "\n\n" + exec.install_hint;
    return PluginError(m);
  }
  if (!run.ok()) return Status(run.status().code(), "exec: " + run.status().message());
  if (run->exit_code != 0 || run->term_signal != 0) return PluginError(ExitMessage(exec, *run));
  Result<ExecCredential> cred = ParseExecCredential(run->stdout_text, exec);
  if (!cred.ok() && !run->stderr_text.empty()) {
    return PluginError(cred.status().message() + "\nstderr: " + run->stderr_text);
  }
  return cred;
}

}  // namespace lws::rest
