#include "apiserver/discovery.h"

#include <algorithm>
#include <array>
#include <set>

#include "apiserver/media_type.h"
#include "apiserver/status_json.h"

namespace lws::apiserver {

namespace {

using api::ResourceInfo;
using api::ResourceRegistry;

// Every stored resource supports the full verb set (kubectl hides resources without verbs);
// the reviews only create.
const std::vector<std::string> kResourceVerbs = {"create", "delete", "deletecollection", "get",
                                                 "list",   "patch",  "update",           "watch"};
const std::vector<std::string> kSubresourceVerbs = {"get", "patch", "update"};
const std::vector<std::string> kCreateOnlyVerbs = {"create"};

const std::vector<std::string>& VerbsOf(const ResourceInfo& r) {
  return r.create_only ? kCreateOnlyVerbs : kResourceVerbs;
}

// Built-in groups in the order the real API server lists them (its group priorities); groups
// not named here (custom resources) follow by name.
constexpr std::array<std::string_view, 11> kBuiltinGroupOrder = {"apps",
                                                                 "events.k8s.io",
                                                                 "authentication.k8s.io",
                                                                 "authorization.k8s.io",
                                                                 "batch",
                                                                 "policy",
                                                                 "rbac.authorization.k8s.io",
                                                                 "admissionregistration.k8s.io",
                                                                 "apiextensions.k8s.io",
                                                                 "scheduling.k8s.io",
                                                                 "coordination.k8s.io"};

// A subresource as discovery lists it: "<resource>/<name>" answering with group/version/kind.
struct Subresource {
  std::string name;
  std::string group;
  std::string version;
  std::string kind;
  std::vector<std::string> verbs;
};

// Subresources of `r`: status and scale from the registry, plus the two the server serves for
// fixed built-ins (kubectl-compat.md section 2 and issue 3): pods/binding, pods/eviction and
// namespaces/finalize.
std::vector<Subresource> SubresourcesOf(const ResourceInfo& r) {
  std::vector<Subresource> out;
  const bool core = r.group.empty() && r.version == "v1";
  if (core && r.resource == "pods") {
    out.push_back({"binding", "", "v1", "Binding", {"create"}});
    out.push_back({"eviction", "policy", "v1", "Eviction", {"create"}});
  }
  if (core && r.resource == "serviceaccounts") {
    out.push_back({"token", "authentication.k8s.io", "v1", "TokenRequest", {"create"}});
  }
  if (core && r.resource == "namespaces") {
    out.push_back({"finalize", "", "v1", "Namespace", {"update"}});
  }
  if (r.scale.has_value())
    out.push_back({"scale", "autoscaling", "v1", "Scale", kSubresourceVerbs});
  if (r.has_status) out.push_back({"status", r.group, r.version, r.kind, kSubresourceVerbs});
  std::sort(out.begin(), out.end(),
            [](const Subresource& a, const Subresource& b) { return a.name < b.name; });
  return out;
}

std::vector<const ResourceInfo*> ResourcesOf(const ResourceRegistry& registry,
                                             std::string_view group, std::string_view version) {
  std::vector<const ResourceInfo*> out;
  for (const ResourceInfo* r : registry.All()) {
    if (r->group == group && r->version == version) out.push_back(r);
  }
  std::sort(out.begin(), out.end(),
            [](const ResourceInfo* a, const ResourceInfo* b) { return a->resource < b->resource; });
  return out;
}

std::string GroupVersion(std::string_view group, std::string_view version) {
  return group.empty() ? std::string(version) : std::string(group) + "/" + std::string(version);
}

Json GroupVersionForDiscovery(std::string_view group, std::string_view version) {
  return Json{{"groupVersion", GroupVersion(group, version)}, {"version", version}};
}

// metav1.APIGroup without kind/apiVersion (as it appears inside an APIGroupList).
Json GroupEntry(const ResourceRegistry& registry, const std::string& group) {
  Json versions = Json::array();
  std::vector<std::string> names = VersionsInDiscoveryOrder(registry, group);
  for (const std::string& v : names) versions.push_back(GroupVersionForDiscovery(group, v));
  return Json{{"name", group},
              {"versions", std::move(versions)},
              {"preferredVersion", GroupVersionForDiscovery(group, names.front())}};
}

Json ApiResource(const ResourceInfo& r) {
  Json out = {{"name", r.resource},
              {"singularName", r.singular},
              {"namespaced", r.namespaced},
              {"kind", r.kind},
              {"verbs", VerbsOf(r)}};
  if (!r.short_names.empty()) out["shortNames"] = r.short_names;
  if (!r.categories.empty()) out["categories"] = r.categories;
  return out;
}

Json ApiSubresource(const ResourceInfo& r, const Subresource& s) {
  Json out = {{"name", r.resource + "/" + s.name},
              {"singularName", ""},
              {"namespaced", r.namespaced},
              {"kind", s.kind},
              {"verbs", s.verbs}};
  // APIResource names group and version only when they differ from the list's (scale).
  if (s.group != r.group || s.version != r.version) {
    out["group"] = s.group;
    out["version"] = s.version;
  }
  return out;
}

Json ResponseKind(std::string_view group, std::string_view version, std::string_view kind) {
  return Json{{"group", group}, {"version", version}, {"kind", kind}};
}

Json DiscoveryResource(const ResourceInfo& r) {
  Json out = {{"resource", r.resource},
              {"responseKind", ResponseKind(r.group, r.version, r.kind)},
              {"scope", r.namespaced ? "Namespaced" : "Cluster"},
              {"singularResource", r.singular},
              {"verbs", VerbsOf(r)}};
  if (!r.short_names.empty()) out["shortNames"] = r.short_names;
  if (!r.categories.empty()) out["categories"] = r.categories;
  Json subresources = Json::array();
  for (const Subresource& s : SubresourcesOf(r)) {
    subresources.push_back({{"subresource", s.name},
                            {"responseKind", ResponseKind(s.group, s.version, s.kind)},
                            {"verbs", s.verbs}});
  }
  if (!subresources.empty()) out["subresources"] = std::move(subresources);
  return out;
}

Json DiscoveryGroup(const ResourceRegistry& registry, const std::string& group) {
  Json metadata = {{"creationTimestamp", nullptr}};
  if (!group.empty()) metadata["name"] = group;
  Json versions = Json::array();
  for (const std::string& v : VersionsInDiscoveryOrder(registry, group)) {
    Json resources = Json::array();
    for (const ResourceInfo* r : ResourcesOf(registry, group, v)) {
      resources.push_back(DiscoveryResource(*r));
    }
    // "Stale" would make client-go report the group/version as failed (section 2.1).
    versions.push_back(
        {{"version", v}, {"resources", std::move(resources)}, {"freshness", "Current"}});
  }
  return Json{{"metadata", std::move(metadata)}, {"versions", std::move(versions)}};
}

// Splits "v<major>[alpha|beta<minor>]"; returns false for versions of another shape.
bool ParseKubeVersion(std::string_view v, int* major, int* stability, int* minor) {
  auto digits = [](std::string_view s, int* out) {
    if (s.empty() || s.size() > 9) return false;
    int value = 0;
    for (char c : s) {
      if (c < '0' || c > '9') return false;
      value = value * 10 + (c - '0');
    }
    *out = value;
    return true;
  };
  if (v.size() < 2 || v[0] != 'v') return false;
  v.remove_prefix(1);
  std::size_t letters = v.find_first_not_of("0123456789");
  if (!digits(v.substr(0, letters), major)) return false;
  if (letters == std::string_view::npos) {
    *stability = 2;
    *minor = 0;
    return true;
  }
  std::string_view rest = v.substr(letters);
  for (auto [word, level] : {std::pair<std::string_view, int>{"beta", 1}, {"alpha", 0}}) {
    if (rest.substr(0, word.size()) == word) {
      *stability = level;
      return digits(rest.substr(word.size()), minor);
    }
  }
  return false;
}

}  // namespace

bool VersionSortsBefore(std::string_view a, std::string_view b) {
  int a_major, a_stability, a_minor, b_major, b_stability, b_minor;
  bool a_kube = ParseKubeVersion(a, &a_major, &a_stability, &a_minor);
  bool b_kube = ParseKubeVersion(b, &b_major, &b_stability, &b_minor);
  if (a_kube != b_kube) return a_kube;
  if (!a_kube) return a < b;
  if (a_stability != b_stability) return a_stability > b_stability;
  if (a_major != b_major) return a_major > b_major;
  return a_minor > b_minor;
}

std::vector<std::string> GroupsInDiscoveryOrder(const ResourceRegistry& registry) {
  std::set<std::string> groups;
  for (const ResourceInfo* r : registry.All()) groups.insert(r->group);
  auto rank = [](const std::string& g) {
    if (g.empty()) return -1;
    auto it = std::find(kBuiltinGroupOrder.begin(), kBuiltinGroupOrder.end(), g);
    return it == kBuiltinGroupOrder.end() ? static_cast<int>(kBuiltinGroupOrder.size())
                                          : static_cast<int>(it - kBuiltinGroupOrder.begin());
  };
  std::vector<std::string> out(groups.begin(), groups.end());
  std::stable_sort(out.begin(), out.end(),
                   [&](const std::string& a, const std::string& b) { return rank(a) < rank(b); });
  return out;
}

std::vector<std::string> VersionsInDiscoveryOrder(const ResourceRegistry& registry,
                                                  std::string_view group) {
  std::set<std::string> versions;
  for (const ResourceInfo* r : registry.All()) {
    if (r->group == group) versions.insert(r->version);
  }
  std::vector<std::string> out(versions.begin(), versions.end());
  std::sort(out.begin(), out.end(),
            [](const std::string& a, const std::string& b) { return VersionSortsBefore(a, b); });
  return out;
}

Json VersionDocument() {
  return Json{{"major", "1"},
              {"minor", "32"},
              {"gitVersion", "v1.32.0"},
              {"gitCommit", "0000000000000000000000000000000000000000"},
              {"gitTreeState", "clean"},
              {"buildDate", "2024-12-11T00:00:00Z"},
              {"goVersion", "go1.23.4"},
              {"compiler", "gc"},
              {"platform", "linux/amd64"}};
}

Json CoreVersions(const ResourceRegistry& registry, std::string_view server_address) {
  return Json{{"kind", "APIVersions"},
              {"versions", VersionsInDiscoveryOrder(registry, "")},
              {"serverAddressByClientCIDRs",
               Json::array({{{"clientCIDR", "0.0.0.0/0"}, {"serverAddress", server_address}}})}};
}

Json GroupList(const ResourceRegistry& registry) {
  Json groups = Json::array();
  for (const std::string& g : GroupsInDiscoveryOrder(registry)) {
    if (!g.empty()) groups.push_back(GroupEntry(registry, g));
  }
  return Json{{"kind", "APIGroupList"}, {"apiVersion", "v1"}, {"groups", std::move(groups)}};
}

Result<Json> Group(const ResourceRegistry& registry, std::string_view group) {
  std::string name(group);
  if (name.empty() || VersionsInDiscoveryOrder(registry, name).empty()) return UnknownPathError();
  Json out = GroupEntry(registry, name);
  out["kind"] = "APIGroup";
  out["apiVersion"] = "v1";
  return out;
}

Result<Json> ResourceList(const ResourceRegistry& registry, std::string_view group,
                          std::string_view version) {
  std::vector<const ResourceInfo*> resources = ResourcesOf(registry, group, version);
  if (resources.empty()) return UnknownPathError();
  Json list = Json::array();
  for (const ResourceInfo* r : resources) {
    // Sorted by name, "pods" before "pods/binding" before "pods/status", as the real server.
    list.push_back(ApiResource(*r));
    for (const Subresource& s : SubresourcesOf(*r)) list.push_back(ApiSubresource(*r, s));
  }
  return Json{{"kind", "APIResourceList"},
              {"apiVersion", "v1"},
              {"groupVersion", GroupVersion(group, version)},
              {"resources", std::move(list)}};
}

Json AggregatedDiscovery(const ResourceRegistry& registry, bool core, AggregatedVersion version) {
  Json items = Json::array();
  for (const std::string& g : GroupsInDiscoveryOrder(registry)) {
    if (g.empty() == core) items.push_back(DiscoveryGroup(registry, g));
  }
  return Json{{"kind", "APIGroupDiscoveryList"},
              {"apiVersion", version == AggregatedVersion::kV2 ? "apidiscovery.k8s.io/v2"
                                                               : "apidiscovery.k8s.io/v2beta1"},
              {"metadata", Json::object()},
              {"items", std::move(items)}};
}

DiscoveryRepresentation NegotiateDiscovery(std::string_view accept) {
  DiscoveryRepresentation json{false, AggregatedVersion::kV2, std::string(kJsonContentType)};
  for (const MediaRange& range : ParseAccept(accept)) {
    if (!range.Accepts("application", "json")) continue;
    std::string as = range.Param("as");
    if (as.empty()) return json;
    if (as != "APIGroupDiscoveryList" || range.Param("g") != "apidiscovery.k8s.io") continue;
    std::string v = range.Param("v");
    if (v == "v2")
      return {true, AggregatedVersion::kV2, std::string(kAggregatedDiscoveryV2ContentType)};
    if (v == "v2beta1") {
      return {true, AggregatedVersion::kV2Beta1,
              std::string(kAggregatedDiscoveryV2Beta1ContentType)};
    }
  }
  return json;
}

}  // namespace lws::apiserver
