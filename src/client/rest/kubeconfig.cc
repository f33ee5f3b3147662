#include "client/rest/kubeconfig.h"

#include <utility>

#include "api/base64.h"
#include "api/yaml.h"
#include "base/file.h"
#include "client/rest/rest_util.h"

namespace lws::rest {
namespace {

using api::FieldPath;
using api::Json;

std::string_view JsonTypeName(const Json& v) {
  if (v.is_object()) return "object";
  if (v.is_array()) return "array";
  if (v.is_string()) return "string";
  if (v.is_boolean()) return "boolean";
  if (v.is_number()) return "number";
  return "null";
}

// Reads fields out of the decoded YAML; every error carries the file name and the field path.
class FieldReader {
 public:
  explicit FieldReader(std::string file) : file_(std::move(file)), dir_(DirName(file_)) {}

  Status Error(const FieldPath& path, std::string_view reason) const {
    std::string where = path.empty() ? "" : path.String() + ": ";
    return Status::BadRequest("kubeconfig " + file_ + ": " + where + std::string(reason));
  }

  // Null or absent leaves `out` unchanged, as Go's decoder leaves a zero value.
  Status String(const Json& obj, std::string_view key, const FieldPath& parent,
                std::string& out) const {
    const Json* v = Find(obj, key);
    if (v == nullptr) return Status::Ok();
    if (!v->is_string()) return TypeError(*v, "a string", parent.Child(key));
    out = v->get<std::string>();
    return Status::Ok();
  }

  Status Bool(const Json& obj, std::string_view key, const FieldPath& parent, bool& out) const {
    const Json* v = Find(obj, key);
    if (v == nullptr) return Status::Ok();
    if (!v->is_boolean()) return TypeError(*v, "a boolean", parent.Child(key));
    out = v->get<bool>();
    return Status::Ok();
  }

  // A relative path is made relative to the kubeconfig file's directory.
  Status Path(const Json& obj, std::string_view key, const FieldPath& parent,
              std::string& out) const {
    RETURN_IF_ERROR(String(obj, key, parent, out));
    out = ResolvePath(dir_, out);
    return Status::Ok();
  }

  Status Base64(const Json& obj, std::string_view key, const FieldPath& parent,
                std::string& out) const {
    std::string encoded;
    RETURN_IF_ERROR(String(obj, key, parent, encoded));
    Result<std::string> decoded = api::Base64Decode(encoded);
    if (!decoded.ok()) return Error(parent.Child(key), decoded.status().message());
    out = std::move(decoded).value();
    return Status::Ok();
  }

  Status StringList(const Json& obj, std::string_view key, const FieldPath& parent,
                    std::vector<std::string>& out) const {
    const Json* v = Find(obj, key);
    if (v == nullptr) return Status::Ok();
    if (!v->is_array()) return TypeError(*v, "a list", parent.Child(key));
    for (std::size_t i = 0; i < v->size(); ++i) {
      if (!(*v)[i].is_string()) return TypeError((*v)[i], "a string", parent.Child(key).Index(i));
      out.push_back((*v)[i].get<std::string>());
    }
    return Status::Ok();
  }

  // The object under `key`, or nullptr when absent or null; an error when it is not an object.
  Result<const Json*> Object(const Json& obj, std::string_view key, const FieldPath& parent) const {
    const Json* v = Find(obj, key);
    if (v == nullptr) return static_cast<const Json*>(nullptr);
    if (!v->is_object()) return TypeError(*v, "an object", parent.Child(key));
    return v;
  }

  Status TypeError(const Json& v, std::string_view want, const FieldPath& path) const {
    return Error(path, "expected " + std::string(want) + ", got " + std::string(JsonTypeName(v)));
  }

  const std::string& dir() const { return dir_; }

 private:
  static const Json* Find(const Json& obj, std::string_view key) {
    auto it = obj.find(std::string(key));
    if (it == obj.end() || it->is_null()) return nullptr;
    return &*it;
  }

  std::string file_;
  std::string dir_;
};

Status ParseCluster(const FieldReader& r, const Json& obj, const FieldPath& p, KubeCluster& c) {
  RETURN_IF_ERROR(r.String(obj, "server", p, c.server));
  RETURN_IF_ERROR(r.Path(obj, "certificate-authority", p, c.certificate_authority));
  RETURN_IF_ERROR(r.Base64(obj, "certificate-authority-data", p, c.certificate_authority_data));
  RETURN_IF_ERROR(r.Bool(obj, "insecure-skip-tls-verify", p, c.insecure_skip_tls_verify));
  RETURN_IF_ERROR(r.String(obj, "tls-server-name", p, c.tls_server_name));
  return r.String(obj, "proxy-url", p, c.proxy_url);
}

Status ParseExecEnv(const FieldReader& r, const Json& obj, const FieldPath& p,
                    std::vector<ExecEnvVar>& out) {
  auto it = obj.find("env");
  if (it == obj.end() || it->is_null()) return Status::Ok();
  if (!it->is_array()) return r.TypeError(*it, "a list", p.Child("env"));
  for (std::size_t i = 0; i < it->size(); ++i) {
    const Json& item = (*it)[i];
    FieldPath ip = p.Child("env").Index(i);
    if (!item.is_object()) return r.TypeError(item, "an object", ip);
    ExecEnvVar var;
    RETURN_IF_ERROR(r.String(item, "name", ip, var.name));
    RETURN_IF_ERROR(r.String(item, "value", ip, var.value));
    out.push_back(std::move(var));
  }
  return Status::Ok();
}

Status ParseExec(const FieldReader& r, const Json& obj, const FieldPath& p, ExecConfig& e) {
  RETURN_IF_ERROR(r.String(obj, "apiVersion", p, e.api_version));
  RETURN_IF_ERROR(r.String(obj, "command", p, e.command));
  // Only a command with a directory part is relative to the file; a bare name is looked up on PATH.
  if (e.command.find('/') != std::string::npos) e.command = ResolvePath(r.dir(), e.command);
  RETURN_IF_ERROR(r.StringList(obj, "args", p, e.args));
  RETURN_IF_ERROR(ParseExecEnv(r, obj, p, e.env));
  RETURN_IF_ERROR(r.String(obj, "installHint", p, e.install_hint));
  RETURN_IF_ERROR(r.Bool(obj, "provideClusterInfo", p, e.provide_cluster_info));
  return r.String(obj, "interactiveMode", p, e.interactive_mode);
}

Status ParseUser(const FieldReader& r, const Json& obj, const FieldPath& p, KubeUser& u) {
  RETURN_IF_ERROR(r.String(obj, "token", p, u.token));
  RETURN_IF_ERROR(r.Path(obj, "tokenFile", p, u.token_file));
  RETURN_IF_ERROR(r.Path(obj, "client-certificate", p, u.client_certificate));
  RETURN_IF_ERROR(r.Base64(obj, "client-certificate-data", p, u.client_certificate_data));
  RETURN_IF_ERROR(r.Path(obj, "client-key", p, u.client_key));
  RETURN_IF_ERROR(r.Base64(obj, "client-key-data", p, u.client_key_data));
  RETURN_IF_ERROR(r.String(obj, "username", p, u.username));
  RETURN_IF_ERROR(r.String(obj, "password", p, u.password));
  ASSIGN_OR_RETURN(const Json* provider, r.Object(obj, "auth-provider", p));
  u.has_auth_provider = provider != nullptr;
  ASSIGN_OR_RETURN(const Json* exec, r.Object(obj, "exec", p));
  if (exec == nullptr) return Status::Ok();
  u.exec.emplace();
  return ParseExec(r, *exec, p.Child("exec"), *u.exec);
}

Status ParseContext(const FieldReader& r, const Json& obj, const FieldPath& p, KubeContext& c) {
  RETURN_IF_ERROR(r.String(obj, "cluster", p, c.cluster));
  RETURN_IF_ERROR(r.String(obj, "user", p, c.user));
  return r.String(obj, "namespace", p, c.namespace_name);
}

// A named list such as `users: [{name: x, user: {...}}]` into a map keyed by name.
template <class T, class ParseFn>
Status ParseNamedList(const FieldReader& r, const Json& root, std::string_view list_key,
                      std::string_view item_key, std::map<std::string, T>& out,
                      std::map<std::string, std::string>& origin, const std::string& file,
                      ParseFn parse) {
  auto it = root.find(std::string(list_key));
  if (it == root.end() || it->is_null()) return Status::Ok();
  FieldPath list_path(list_key);
  if (!it->is_array()) return r.TypeError(*it, "a list", list_path);
  for (std::size_t i = 0; i < it->size(); ++i) {
    const Json& entry = (*it)[i];
    FieldPath p = list_path.Index(i);
    if (!entry.is_object()) return r.TypeError(entry, "an object", p);
    std::string name;
    RETURN_IF_ERROR(r.String(entry, "name", p, name));
    if (out.count(name) != 0) return r.Error(p.Child("name"), "duplicate name \"" + name + "\"");
    T value;
    ASSIGN_OR_RETURN(const Json* body, r.Object(entry, item_key, p));
    if (body != nullptr) RETURN_IF_ERROR(parse(r, *body, p.Child(item_key), value));
    out.emplace(name, std::move(value));
    origin.emplace(name, file);
  }
  return Status::Ok();
}

Status CheckKind(const FieldReader& r, const Json& root) {
  std::string api_version;
  std::string kind;
  RETURN_IF_ERROR(r.String(root, "apiVersion", FieldPath(), api_version));
  RETURN_IF_ERROR(r.String(root, "kind", FieldPath(), kind));
  // client-go decodes with v1/Config as the default, so both may be left out.
  if (!api_version.empty() && api_version != "v1") {
    return r.Error(FieldPath("apiVersion"),
                   "unsupported value \"" + api_version + "\", want \"v1\"");
  }
  if (!kind.empty() && kind != "Config") {
    return r.Error(FieldPath("kind"), "unsupported value \"" + kind + "\", want \"Config\"");
  }
  return Status::Ok();
}

Status ParseRoot(const FieldReader& r, const Json& root, const std::string& path, Kubeconfig& k) {
  if (!root.is_object()) return r.TypeError(root, "an object", FieldPath());
  RETURN_IF_ERROR(CheckKind(r, root));
  RETURN_IF_ERROR(ParseNamedList(r, root, "clusters", "cluster", k.clusters, k.cluster_origin, path,
                                 ParseCluster));
  RETURN_IF_ERROR(
      ParseNamedList(r, root, "users", "user", k.users, k.user_origin, path, ParseUser));
  RETURN_IF_ERROR(ParseNamedList(r, root, "contexts", "context", k.contexts, k.context_origin, path,
                                 ParseContext));
  RETURN_IF_ERROR(r.String(root, "current-context", FieldPath(), k.current_context));
  ASSIGN_OR_RETURN(const Json* prefs, r.Object(root, "preferences", FieldPath()));
  if (prefs != nullptr) k.preferences = *prefs;
  return Status::Ok();
}

}  // namespace

Result<Kubeconfig> ParseKubeconfig(std::string_view text, const std::string& path) {
  FieldReader reader(path);
  Result<std::vector<api::YamlDocument>> docs = api::LoadYamlDocuments(text);
  if (!docs.ok()) return reader.Error(FieldPath(), docs.status().message());
  Kubeconfig config;
  // An empty file is an empty config, as client-go's Load treats zero bytes.
  if (docs->empty()) return config;
  if (docs->size() > 1) {
    return reader.Error(FieldPath(),
                        "expected one YAML document, found " + std::to_string(docs->size()));
  }
  RETURN_IF_ERROR(ParseRoot(reader, docs->front().value, path, config));
  return config;
}

Result<Kubeconfig> LoadKubeconfigFile(const std::string& path) {
  ASSIGN_OR_RETURN(std::string text, ReadFile(path));
  return ParseKubeconfig(text, path);
}

namespace {

// Adds the entries of `from` whose names `into` lacks, with their origins.
template <class T>
void MergeEntries(std::map<std::string, T>& into, std::map<std::string, std::string>& into_origin,
                  const std::map<std::string, T>& from,
                  const std::map<std::string, std::string>& from_origin) {
  for (const auto& [name, value] : from) {
    // std::map::emplace keeps an existing key, which is exactly "the first file wins".
    if (!into.emplace(name, value).second) continue;
    auto origin = from_origin.find(name);
    if (origin != from_origin.end()) into_origin[name] = origin->second;
  }
}

}  // namespace

void MergeKubeconfig(Kubeconfig& into, const Kubeconfig& next) {
  MergeEntries(into.clusters, into.cluster_origin, next.clusters, next.cluster_origin);
  MergeEntries(into.users, into.user_origin, next.users, next.user_origin);
  MergeEntries(into.contexts, into.context_origin, next.contexts, next.context_origin);
  if (into.current_context.empty()) into.current_context = next.current_context;
  if (into.preferences.empty()) into.preferences = next.preferences;
}

}  // namespace lws::rest
