#include "apiserver/openapi.h"

#include <openssl/evp.h>

#include <cctype>

#include "apiserver/discovery.h"
#include "apiserver/status_json.h"

namespace lws::apiserver {

namespace {

using api::ResourceInfo;

constexpr std::string_view kPatchSchema = "io.k8s.apimachinery.pkg.apis.meta.v1.Patch";

Json QueryParameter(std::string_view name, std::string_view type, std::string_view description) {
  return Json{{"name", name},
              {"in", "query"},
              {"description", description},
              {"schema", {{"type", type}, {"uniqueItems", true}}}};
}

Json PathParameter(std::string_view name, std::string_view description) {
  return Json{{"name", name},
              {"in", "path"},
              {"description", description},
              {"required", true},
              {"schema", {{"type", "string"}, {"uniqueItems", true}}}};
}

// The query parameters of a PATCH; fieldValidation is what kubectl looks for.
Json PatchParameters() {
  return Json::array(
      {QueryParameter("dryRun", "string",
                      "When present, indicates that modifications should not be persisted. Valid "
                      "values are: - All: all dry run stages will be processed"),
       QueryParameter("fieldManager", "string",
                      "fieldManager is a name associated with the actor or entity that is making "
                      "these changes."),
       QueryParameter("fieldValidation", "string",
                      "fieldValidation instructs the server on how to handle objects in the "
                      "request (POST/PUT/PATCH) containing unknown or duplicate fields. Valid "
                      "values are: - Ignore - Warn - Strict"),
       QueryParameter("force", "boolean",
                      "Force is going to \"force\" Apply requests. It means user will re-acquire "
                      "conflicting fields owned by other people.")});
}

// "leaderworkerset.x-k8s.io" -> "LeaderworkersetXK8sIo"; "" -> "Core"; ".k8s.io" is dropped
// ("coordination.k8s.io" -> "Coordination"), as the real server's operation IDs.
std::string CamelGroup(std::string_view group) {
  if (group.empty()) return "Core";
  constexpr std::string_view kSuffix = ".k8s.io";
  if (group.size() > kSuffix.size() && group.substr(group.size() - kSuffix.size()) == kSuffix) {
    group.remove_suffix(kSuffix.size());
  }
  std::string out;
  bool upper = true;
  for (char c : group) {
    if (c == '.' || c == '-') {
      upper = true;
      continue;
    }
    out.push_back(upper ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c);
    upper = false;
  }
  return out;
}

std::string Capitalized(std::string_view s) {
  std::string out(s);
  if (!out.empty()) out[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(out[0])));
  return out;
}

std::string ObjectPath(const ResourceInfo& r) {
  std::string prefix = r.group.empty() ? "/api/" + r.version : "/apis/" + r.group + "/" + r.version;
  if (r.namespaced) prefix += "/namespaces/{namespace}";
  return prefix + "/" + r.resource + "/{name}";
}

Json PatchOperation(const ResourceInfo& r, bool has_schema) {
  Json body_schema = {{"$ref", "#/components/schemas/" + std::string(kPatchSchema)}};
  Json content = {{"application/apply-patch+yaml", {{"schema", body_schema}}},
                  {"application/json-patch+json", {{"schema", body_schema}}},
                  {"application/merge-patch+json", {{"schema", body_schema}}}};
  // Custom resources take no strategic merge patch (415, kubectl-compat.md section 0.8).
  if (!r.custom) content["application/strategic-merge-patch+json"] = {{"schema", body_schema}};
  Json ok = {{"description", "OK"}};
  Json created = {{"description", "Created"}};
  if (has_schema) {
    Json response = {
        {"application/json",
         {{"schema",
           {{"$ref", "#/components/schemas/" + OpenApiSchemaName(r.group, r.version, r.kind)}}}}}};
    ok["content"] = response;
    created["content"] = response;
  }
  return Json{{"description", "partially update the specified " + r.kind},
              {"operationId", "patch" + CamelGroup(r.group) + Capitalized(r.version) +
                                  (r.namespaced ? "Namespaced" : "") + r.kind},
              {"parameters", PatchParameters()},
              {"requestBody", {{"content", std::move(content)}, {"required", true}}},
              {"responses", {{"200", std::move(ok)}, {"201", std::move(created)}}},
              {"x-kubernetes-action", "patch"},
              {"x-kubernetes-group-version-kind",
               {{"group", r.group}, {"version", r.version}, {"kind", r.kind}}}};
}

Json PathItem(const ResourceInfo& r, bool has_schema) {
  Json parameters = Json::array({PathParameter("name", "name of the " + r.kind)});
  if (r.namespaced) {
    parameters.push_back(
        PathParameter("namespace", "object name and auth scope, such as for teams and projects"));
  }
  return Json{{"parameters", std::move(parameters)}, {"patch", PatchOperation(r, has_schema)}};
}

// The CRD's openAPIV3Schema, served as is plus the extension `kubectl explain` looks up.
Json CustomResourceSchema(const ResourceInfo& r) {
  Json schema = r.openapi_schema;
  schema["x-kubernetes-group-version-kind"] =
      Json::array({{{"group", r.group}, {"version", r.version}, {"kind", r.kind}}});
  return schema;
}

Json BuildDocument(const api::ResourceRegistry& registry, std::string_view group,
                   std::string_view version) {
  Json paths = Json::object();
  Json schemas = {{kPatchSchema,
                   {{"description",
                     "Patch is provided to give a concrete name and type to the Kubernetes PATCH "
                     "request body."},
                    {"type", "object"}}}};
  for (const ResourceInfo* r : registry.All()) {
    if (r->group != group || r->version != version) continue;
    bool has_schema = r->custom && r->openapi_schema.is_object();
    if (has_schema) {
      schemas[OpenApiSchemaName(r->group, r->version, r->kind)] = CustomResourceSchema(*r);
    }
    paths[ObjectPath(*r)] = PathItem(*r, has_schema);
  }
  return Json{{"openapi", "3.0.0"},
              {"info", {{"title", "Kubernetes"}, {"version", "v1.32.0"}}},
              {"paths", std::move(paths)},
              {"components", {{"schemas", std::move(schemas)}}}};
}

std::string DocumentPath(std::string_view group, std::string_view version) {
  return group.empty() ? "api/" + std::string(version)
                       : "apis/" + std::string(group) + "/" + std::string(version);
}

OpenApiDocument MakeDocument(const api::ResourceRegistry& registry, std::string_view group,
                             std::string_view version) {
  OpenApiDocument doc;
  doc.path = DocumentPath(group, version);
  doc.document = BuildDocument(registry, group, version);
  doc.hash = Sha512Hex(doc.document.dump());
  return doc;
}

}  // namespace

std::string OpenApiSchemaName(std::string_view group, std::string_view version,
                              std::string_view kind) {
  std::string reversed;
  while (!group.empty()) {
    std::size_t dot = group.rfind('.');
    std::string_view label = dot == std::string_view::npos ? group : group.substr(dot + 1);
    if (!reversed.empty()) reversed += ".";
    reversed += label;
    group = dot == std::string_view::npos ? std::string_view() : group.substr(0, dot);
  }
  std::string out = reversed.empty() ? std::string() : reversed + ".";
  return out + std::string(version) + "." + std::string(kind);
}

std::string Sha512Hex(std::string_view text) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  EVP_Digest(text.data(), text.size(), digest, &length, EVP_sha512(), nullptr);
  static const char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (unsigned int i = 0; i < length; ++i) {
    out.push_back(kHex[digest[i] >> 4]);
    out.push_back(kHex[digest[i] & 0xF]);
  }
  return out;
}

std::vector<OpenApiDocument> OpenApiDocuments(const api::ResourceRegistry& registry) {
  std::vector<OpenApiDocument> out;
  for (const std::string& group : GroupsInDiscoveryOrder(registry)) {
    for (const std::string& version : VersionsInDiscoveryOrder(registry, group)) {
      out.push_back(MakeDocument(registry, group, version));
    }
  }
  return out;
}

Result<OpenApiDocument> OpenApiDocumentFor(const api::ResourceRegistry& registry,
                                           std::string_view group, std::string_view version) {
  for (const std::string& v : VersionsInDiscoveryOrder(registry, group)) {
    if (v == version) return MakeDocument(registry, group, version);
  }
  return UnknownPathError();
}

Json OpenApiRoot(const std::vector<OpenApiDocument>& documents) {
  Json paths = Json::object();
  for (const OpenApiDocument& doc : documents) {
    paths[doc.path] = {{"serverRelativeURL", "/openapi/v3/" + doc.path + "?hash=" + doc.hash}};
  }
  return Json{{"paths", std::move(paths)}};
}

}  // namespace lws::apiserver
