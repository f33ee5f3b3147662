// The scenario file (scenario_file.h).
#include "simulate/scenario_file.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>

#include "api/disaggregatedset_types.h"
#include "api/lws_types.h"
#include "api/yaml.h"
#include "apiserver/patch.h"
#include "base/file.h"
#include "cluster/cluster_config.h"
#include "cluster/config_decoder.h"

namespace lws::simulate {
namespace {

using api::FieldPath;
using cluster::internal::Decoder;

// workloads[i]: one inline object, or every document of a file.
void DecodeWorkload(const Json& value, const FieldPath& path, const std::string& dir, Decoder* d,
                    std::vector<Json>* out) {
  if (!d->IsObject(value, path)) return;
  d->Unknown(value, path, {"file", "object"});
  if (value.contains("file") == value.contains("object")) {
    d->errors.push_back(api::Invalid(path, nullptr, "must set exactly one of file, object"));
    return;
  }
  std::vector<Json> objects;
  if (value.contains("object")) {
    if (d->IsObject(value["object"], path.Child("object"))) objects.push_back(value["object"]);
  } else {
    const std::string file = d->String(value["file"], path.Child("file"));
    if (file.empty()) return;
    const std::string full = std::filesystem::path(file).is_absolute()
                                 ? file
                                 : (std::filesystem::path(dir) / file).string();
    Result<std::string> text = ReadFile(full);
    Result<std::vector<api::YamlDocument>> docs =
        text.ok() ? api::LoadYamlDocuments(*text)
                  : Result<std::vector<api::YamlDocument>>(text.status());
    if (!docs.ok()) {
      d->errors.push_back(
          api::Invalid(path.Child("file"), file, std::string(docs.status().message())));
      return;
    }
    for (api::YamlDocument& doc : *docs) objects.push_back(std::move(doc.value));
  }
  for (Json& object : objects) {
    if (!object.is_object() || NameOf(object).empty() ||
        api::StringMember(object, "kind").empty()) {
      d->errors.push_back(
          api::Invalid(path, nullptr, "every object needs apiVersion, kind and metadata.name"));
      continue;
    }
    const std::string ns = api::StringMember(object["metadata"], "namespace");
    if (!ns.empty() && ns != "default") {
      d->errors.push_back(
          api::Invalid(path, ns, "objects live in namespace default in a simulation"));
      continue;
    }
    object["metadata"]["namespace"] = "default";
    out->push_back(std::move(object));
  }
}

bool HasRollable(const std::vector<Json>& workloads) {
  return std::any_of(workloads.begin(), workloads.end(), IsRollable);
}

// The workload of this kind and name among the scenario's workloads or a strategy's.
const Json* FindWorkload(const Scenario& s, std::string_view kind, const std::string& name) {
  auto find = [&](const std::vector<Json>& workloads) -> const Json* {
    for (const Json& object : workloads) {
      if (IsRollable(object) && api::StringMember(object, "kind") == kind &&
          NameOf(object) == name) {
        return &object;
      }
    }
    return nullptr;
  };
  if (const Json* found = find(s.workloads)) return found;
  for (const Strategy& strategy : s.strategies) {
    if (const Json* found = find(strategy.workloads)) return found;
  }
  return nullptr;
}

// Whether some pool has (or its autoscaler can add) a node of this name.
bool IsPoolNode(const cluster::ClusterSpec& spec, const std::string& node) {
  for (const cluster::NodePoolSpec& pool : spec.pools) {
    const std::string prefix = pool.name + "-";
    if (node.size() <= prefix.size() || node.compare(0, prefix.size(), prefix) != 0) continue;
    const std::string index = node.substr(prefix.size());
    if (index.size() > 9 || (index.size() > 1 && index[0] == '0')) continue;
    if (!std::all_of(index.begin(), index.end(), [](char c) { return c >= '0' && c <= '9'; }))
      continue;
    if (std::stoi(index) < std::max(pool.max_nodes, pool.initial_nodes)) return true;
  }
  return false;
}

// A change of a workload: what `value` sets (exactly one of patch, image, replicas; replicas for
// an LWS only) into `change`.
void DecodeWorkloadChange(const Json& value, const FieldPath& path, Decoder* d, Change* change) {
  const bool lws = change->target_kind == api::kLwsKind;
  int what = 0;
  if (value.contains("patch")) {
    ++what;
    if (d->IsObject(value["patch"], path.Child("patch"))) change->patch = value["patch"];
    change->description = "patch";
  }
  if (value.contains("image")) {
    ++what;
    change->image = d->String(value["image"], path.Child("image"));
    change->description = "image " + change->image;
  }
  if (value.contains("replicas") && lws) {
    ++what;
    const int replicas = d->Count(value["replicas"], path.Child("replicas"));
    change->patch = {{"spec", {{"replicas", replicas}}}};
    change->description = "replicas " + std::to_string(replicas);
  }
  if (value.contains("replicas") && !lws) {
    d->errors.push_back(api::Forbidden(path.Child("replicas"),
                                       "a DisaggregatedSet's replicas are its roles': patch them"));
  } else if (what != 1) {
    d->errors.push_back(api::Invalid(path, nullptr,
                                     lws ? "a change of an LWS sets exactly one of patch, image, "
                                           "replicas"
                                         : "a change of a DisaggregatedSet sets exactly one of "
                                           "patch, image"));
  }
}

void DecodeChange(const Json& value, const FieldPath& path, Decoder* d, Scenario* s) {
  if (!d->IsObject(value, path)) return;
  d->Unknown(value, path,
             {"at", "lws", "disaggregatedset", "patch", "image", "replicas", "cordon", "uncordon",
              "drain"});
  Change change;
  if (!value.contains("at"))
    d->errors.push_back(api::Required(path.Child("at"), ""));
  else
    change.at = d->Time(value["at"], path.Child("at"));
  int forms = 0;
  for (auto [key, kind] :
       {std::pair{"cordon", Change::Kind::kCordon}, std::pair{"uncordon", Change::Kind::kUncordon},
        std::pair{"drain", Change::Kind::kDrain}}) {
    if (!value.contains(key)) continue;
    ++forms;
    change.kind = kind;
    change.target = d->String(value[key], path.Child(key));
    change.description = std::string(key) + " " + change.target;
    if (!change.target.empty() && !IsPoolNode(s->cluster, change.target)) {
      d->errors.push_back(api::Invalid(path.Child(key), change.target,
                                       "no node of this name can exist: nodes are named "
                                       "<pool>-<index>, with index below the pool's maxNodes"));
    }
  }
  for (auto [key, kind] :
       {std::pair{"lws", api::kLwsKind}, std::pair{"disaggregatedset", api::kDsKind}}) {
    if (!value.contains(key)) continue;
    ++forms;
    change.target_kind = std::string(kind);
    change.target = d->String(value[key], path.Child(key));
    if (FindWorkload(*s, kind, change.target) == nullptr) {
      d->errors.push_back(
          api::Invalid(path.Child(key), change.target,
                       fmt::format("no {} of this name among the workloads", kind)));
      return;
    }
    DecodeWorkloadChange(value, path, d, &change);
  }
  if (forms == 0 && value.contains("image")) {
    // Every LWS and DisaggregatedSet of the run's workloads, whichever the strategy brings.
    change.image = d->String(value["image"], path.Child("image"));
    change.description = "image " + change.image;
    ++forms;
  } else if (forms != 1) {
    d->errors.push_back(api::Invalid(path, nullptr,
                                     "must set exactly one of lws, disaggregatedset, cordon, "
                                     "uncordon, drain (or image alone: every workload's)"));
    return;
  }
  s->timeline.push_back(std::move(change));
}

// Each item of the list `key` of `doc` (absent: none) at `at`, decoded; false when it is not a
// list (reported).
template <typename F>
bool EachItem(const Json& doc, const char* key, const FieldPath& at, Decoder* d, F decode) {
  const Json list = doc.value(key, Json::array());
  if (!list.is_array()) {
    d->errors.push_back(api::TypeInvalid(at, list, "must be a list"));
    return false;
  }
  for (std::size_t i = 0; i < list.size(); ++i) decode(list[i], at.Index(i));
  return true;
}

template <typename F>
void EachItem(const Json& doc, const char* key, Decoder* d, F decode) {
  EachItem(doc, key, FieldPath(key), d, decode);
}

void DecodeStrategy(const Json& value, const FieldPath& path, const std::string& dir, Decoder* d,
                    Scenario* s) {
  if (!d->IsObject(value, path)) return;
  d->Unknown(value, path, {"name", "rolloutStrategy", "annotations", "patch", "workloads"});
  Strategy strategy;
  if (!value.contains("name"))
    d->errors.push_back(api::Required(path.Child("name"), ""));
  else
    strategy.name = d->String(value["name"], path.Child("name"));
  for (const Strategy& other : s->strategies) {
    if (other.name == strategy.name) {
      d->errors.push_back(api::FieldError(api::FieldErrorType::kDuplicate,
                                          path.Child("name").String(), strategy.name, ""));
    }
  }
  if (value.contains("rolloutStrategy") &&
      d->IsObject(value["rolloutStrategy"], path.Child("rolloutStrategy"))) {
    strategy.lws_patch["spec"]["rolloutStrategy"] = value["rolloutStrategy"];
  }
  if (value.contains("annotations")) {
    Json annotations = Json::object();
    for (const auto& [key, item] : d->StringMap(value["annotations"], path.Child("annotations"))) {
      annotations[key] = item;
    }
    strategy.lws_patch["metadata"]["annotations"] = std::move(annotations);
  }
  // A role of a DisaggregatedSet has an LWS's metadata and spec: the same two settings.
  strategy.role_patch = strategy.lws_patch;
  if (value.contains("patch") && d->IsObject(value["patch"], path.Child("patch"))) {
    // Any other override, as a JSON merge patch of the LWS (applied after the two above).
    Result<Json> merged = apiserver::ApplyMergePatch(strategy.lws_patch, value["patch"]);
    if (merged.ok()) strategy.lws_patch = std::move(*merged);
  }
  const FieldPath at = path.Child("workloads");
  if (value.contains("workloads") &&
      EachItem(value, "workloads", at, d,
               [&](const Json& v, const FieldPath& p) {
                 DecodeWorkload(v, p, dir, d, &strategy.workloads);
               }) &&
      !HasRollable(strategy.workloads)) {
    d->errors.push_back(api::Required(at, "at least one LeaderWorkerSet or DisaggregatedSet"));
  }
  s->strategies.push_back(std::move(strategy));
}

void DecodeLimits(const Json& value, const FieldPath& path, Decoder* d, Scenario* s) {
  if (!d->IsObject(value, path)) return;
  d->Unknown(value, path, {"horizon", "stall"});
  if (value.contains("horizon")) s->horizon = d->Time(value["horizon"], path.Child("horizon"));
  if (value.contains("stall")) s->stall = d->Time(value["stall"], path.Child("stall"));
  if (s->horizon <= Duration::zero()) {
    d->errors.push_back(
        api::Invalid(path.Child("horizon"), value.value("horizon", Json()), "must be positive"));
  }
}

}  // namespace

const std::vector<Json>& Scenario::WorkloadsOf(const Strategy& strategy) const {
  return strategy.workloads.empty() ? workloads : strategy.workloads;
}

Result<Json> WithStrategy(const Json& workload, const Strategy& strategy) {
  if (IsLws(workload)) return apiserver::ApplyMergePatch(workload, strategy.lws_patch);
  if (IsDisaggregatedSet(workload) && !strategy.role_patch.empty()) {
    return PatchRoles(workload, strategy.role_patch);
  }
  return workload;
}

std::vector<const Json*> Scenario::Leaderworkersets() const {
  std::vector<const Json*> out;
  for (const Json& object : workloads) {
    if (IsLws(object)) out.push_back(&object);
  }
  return out;
}

Result<Scenario> ParseScenario(std::string_view text, const std::string& file,
                               const std::string& dir) {
  Result<Json> doc = api::LoadYaml(text);
  if (!doc.ok()) return Status::BadRequest(file + ": " + std::string(doc.status().message()));
  Decoder d;
  Scenario s;
  if (!d.IsObject(*doc, FieldPath())) return cluster::internal::InvalidFile(file, d.errors);
  d.Unknown(*doc, FieldPath(),
            {"apiVersion", "kind", "metadata", "cluster", "workloads", "timeline", "strategies",
             "limits"});
  if (api::StringMember(*doc, "apiVersion") != kScenarioApiVersion) {
    d.errors.push_back(api::NotSupported(FieldPath("apiVersion"), doc->value("apiVersion", Json()),
                                         {kScenarioApiVersion}));
  }
  if (api::StringMember(*doc, "kind") != kScenarioKind) {
    d.errors.push_back(
        api::NotSupported(FieldPath("kind"), doc->value("kind", Json()), {kScenarioKind}));
  }
  s.name = api::StringMember(api::ChildOrNull(*doc, "metadata"), "name");
  if (s.name.empty()) s.name = std::filesystem::path(file).stem().string();
  if (!doc->contains("cluster")) {
    d.errors.push_back(api::Required(FieldPath("cluster"), "the node pools the workloads run on"));
  } else if (d.IsObject((*doc)["cluster"], FieldPath("cluster"))) {
    s.cluster =
        cluster::internal::DecodeClusterSection((*doc)["cluster"], FieldPath("cluster"), &d);
  }
  EachItem(*doc, "workloads", &d,
           [&](const Json& v, const FieldPath& p) { DecodeWorkload(v, p, dir, &d, &s.workloads); });
  EachItem(*doc, "strategies", &d,
           [&](const Json& v, const FieldPath& p) { DecodeStrategy(v, p, dir, &d, &s); });
  const bool every_strategy_brings_its_own =
      !s.strategies.empty() && std::all_of(s.strategies.begin(), s.strategies.end(),
                                           [](const Strategy& x) { return !x.workloads.empty(); });
  if (!HasRollable(s.workloads) && !every_strategy_brings_its_own) {
    d.errors.push_back(
        api::Required(FieldPath("workloads"), "at least one LeaderWorkerSet or DisaggregatedSet"));
  }
  // After the strategies: a change may name a workload only a strategy brings.
  EachItem(*doc, "timeline", &d,
           [&](const Json& v, const FieldPath& p) { DecodeChange(v, p, &d, &s); });
  if (doc->contains("limits")) DecodeLimits((*doc)["limits"], FieldPath("limits"), &d, &s);
  if (!d.errors.empty()) return cluster::internal::InvalidFile(file, d.errors);
  if (s.strategies.empty()) s.strategies.push_back({"as-written", Json::object()});
  std::stable_sort(s.timeline.begin(), s.timeline.end(),
                   [](const Change& a, const Change& b) { return a.at < b.at; });
  return s;
}

Result<Scenario> LoadScenario(const std::string& path) {
  Result<std::string> text = ReadFile(path);
  if (!text.ok())
    return Status(text.status().code(), "the scenario file: " + text.status().message());
  return ParseScenario(*text, path, std::filesystem::path(path).parent_path().string());
}

}  // namespace lws::simulate
