// The top of the cluster file: apiVersion/kind, the capacity-change script, and durations.
#include <fmt/format.h>

#include <cctype>
#include <charconv>
#include <cmath>

#include "api/go_duration.h"
#include "api/yaml.h"
#include "base/file.h"
#include "cluster/config_decoder.h"

namespace lws::cluster {

namespace {

using internal::Decoder;
using internal::FieldPath;
using internal::Json;

// The zones and node names the pools will have, for checking the script's references.
struct Known {
  std::set<std::string> pools, zones, nodes;
};

Known KnownNames(const ClusterSpec& spec) {
  Known known;
  for (const NodePoolSpec& pool : spec.pools) {
    known.pools.insert(pool.name);
    known.zones.insert(pool.zones.begin(), pool.zones.end());
    for (int i = 0; i < pool.max_nodes; ++i) known.nodes.insert(NodeName(pool.name, i));
  }
  return known;
}

void DecodeChange(const Json& value, const FieldPath& path, const Known& known, Decoder* d,
                  ClusterSpec* spec) {
  if (!d->IsObject(value, path)) return;
  d->Unknown(value, path, {"at", "stockout", "for", "zoneDown", "zoneUp", "nodeDown", "nodeUp"});
  CapacityChange change;
  if (!value.contains("at"))
    d->errors.push_back(api::Required(path.Child("at"), ""));
  else
    change.at = d->Time(value["at"], path.Child("at"));
  using Kind = CapacityChange::Kind;
  struct Form {
    const char* key;
    Kind kind;
    const std::set<std::string>* names;
    std::string CapacityChange::*target;
    const char* unknown;
  };
  const Form forms[] = {
      {"stockout", Kind::kStockoutBegin, &known.pools, &CapacityChange::pool,
       "no node pool has this name"},
      {"zoneDown", Kind::kZoneDown, &known.zones, &CapacityChange::zone,
       "no node pool has this zone"},
      {"zoneUp", Kind::kZoneUp, &known.zones, &CapacityChange::zone, "no node pool has this zone"},
      {"nodeDown", Kind::kNodeDown, &known.nodes, &CapacityChange::node,
       "no node pool has a node of this name (<pool>-<index> below maxNodes)"},
      {"nodeUp", Kind::kNodeUp, &known.nodes, &CapacityChange::node,
       "no node pool has a node of this name (<pool>-<index> below maxNodes)"}};
  int found = 0;
  for (const Form& form : forms) {
    if (!value.contains(form.key)) continue;
    ++found;
    change.kind = form.kind;
    change.*form.target = d->String(value[form.key], path.Child(form.key));
    if (!form.names->count(change.*form.target)) {
      d->errors.push_back(api::Invalid(path.Child(form.key), value[form.key], form.unknown));
    }
  }
  if (found != 1) {
    d->errors.push_back(api::Invalid(
        path, nullptr, "must set exactly one of stockout, zoneDown, zoneUp, nodeDown, nodeUp"));
    return;
  }
  spec->changes.push_back(change);
  if (change.kind != Kind::kStockoutBegin) return;
  if (!value.contains("for")) {
    d->errors.push_back(api::Required(path.Child("for"), "a stockout needs its length"));
    return;
  }
  CapacityChange end = change;
  end.kind = Kind::kStockoutEnd;
  end.at = change.at + d->Time(value["for"], path.Child("for"));
  spec->changes.push_back(end);
}

}  // namespace

namespace internal {

Status InvalidFile(const std::string& file, const api::ErrorList& errors) {
  std::string message;
  std::vector<FieldCause> causes;
  for (const api::FieldError& e : errors) {
    message += (message.empty() ? "" : "\n") + file + ": " + e.Error();
    causes.push_back({std::string(e.CauseType()), e.Body(), e.field});
  }
  return Status::Invalid(std::move(message), std::move(causes));
}

ClusterSpec DecodeClusterSection(const Json& doc, const FieldPath& path, Decoder* d,
                                 const std::set<std::string>& extra_known) {
  ClusterSpec spec;
  std::set<std::string> known = {"nodePools", "capacityChanges", "gangScheduler", "otherTenants"};
  known.insert(extra_known.begin(), extra_known.end());
  d->Unknown(doc, path, known);
  const Json pools = doc.value("nodePools", Json());
  if (!pools.is_array() || pools.empty()) {
    d->errors.push_back(
        api::Required(path.Child("nodePools"), "a cluster needs at least one node pool"));
  }
  std::set<std::string> names;
  for (std::size_t i = 0; pools.is_array() && i < pools.size(); ++i) {
    spec.pools.push_back(DecodePool(pools[i], path.Child("nodePools").Index(i), d));
    if (!spec.pools.back().name.empty() && !names.insert(spec.pools.back().name).second) {
      d->errors.push_back(api::FieldError(api::FieldErrorType::kDuplicate,
                                          path.Child("nodePools").Index(i).Child("name").String(),
                                          spec.pools.back().name, ""));
    }
  }
  if (doc.contains("gangScheduler")) {
    const Json& gang = doc["gangScheduler"];
    if (gang != kVolcanoScheduler) {
      d->errors.push_back(
          api::NotSupported(path.Child("gangScheduler"), gang, {std::string(kVolcanoScheduler)}));
    } else {
      spec.gang_scheduler = kVolcanoScheduler;
    }
  }
  if (doc.contains("otherTenants")) {
    spec.other_tenants = DecodeOtherTenants(doc["otherTenants"], path.Child("otherTenants"), d);
    for (std::size_t i = 0; i < spec.other_tenants.arrivals.size(); ++i) {
      const std::string& pool = spec.other_tenants.arrivals[i].pool;
      if (!pool.empty() && spec.FindPool(pool) == nullptr) {
        d->errors.push_back(
            api::Invalid(path.Child("otherTenants").Child("arrivals").Index(i).Child("pool"), pool,
                         "no node pool has this name"));
      }
    }
  }
  const Json changes = doc.value("capacityChanges", Json::array());
  Known known_names = KnownNames(spec);
  for (std::size_t i = 0; changes.is_array() && i < changes.size(); ++i) {
    DecodeChange(changes[i], path.Child("capacityChanges").Index(i), known_names, d, &spec);
  }
  std::stable_sort(spec.changes.begin(), spec.changes.end(),
                   [](const CapacityChange& a, const CapacityChange& b) { return a.at < b.at; });
  return spec;
}

}  // namespace internal

Result<ClusterSpec> ParseClusterConfig(std::string_view text, const std::string& file) {
  Result<Json> doc = api::LoadYaml(text);
  if (!doc.ok()) return Status::BadRequest(file + ": " + std::string(doc.status().message()));
  Decoder d;
  if (!d.IsObject(*doc, FieldPath())) return internal::InvalidFile(file, d.errors);
  if (api::StringMember(*doc, "apiVersion") != kClusterConfigApiVersion) {
    d.errors.push_back(api::NotSupported(FieldPath("apiVersion"), doc->value("apiVersion", Json()),
                                         {kClusterConfigApiVersion}));
  }
  if (api::StringMember(*doc, "kind") != kClusterConfigKind) {
    d.errors.push_back(
        api::NotSupported(FieldPath("kind"), doc->value("kind", Json()), {kClusterConfigKind}));
  }
  ClusterSpec spec = internal::DecodeClusterSection(*doc, FieldPath(), &d, {"apiVersion", "kind"});
  if (!d.errors.empty()) return internal::InvalidFile(file, d.errors);
  return spec;
}

Result<ClusterSpec> LoadClusterConfig(const std::string& path) {
  Result<std::string> text = ReadFile(path);
  if (!text.ok())
    return Status(text.status().code(), "the cluster file: " + text.status().message());
  return ParseClusterConfig(*text, path);
}

Result<Duration> ParseGoDuration(std::string_view text) {
  // Go's grammar (api/go_duration.h); a cluster file has no use for negative or absurd spans.
  Result<Duration> parsed = api::ParseGoDuration(text);
  if (!parsed.ok() || *parsed < Duration::zero() || *parsed > std::chrono::hours(24 * 365 * 30)) {
    return Status::BadRequest(
        fmt::format("invalid duration \"{}\" (use a Go duration such as 90s, 10m, 1h30m)", text));
  }
  return parsed;
}

std::string FormatGoDuration(Duration d) {
  auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(d).count();
  if (ms == 0) return "0s";
  if (ms % 1000 != 0) return fmt::format("{}ms", ms);
  std::int64_t s = ms / 1000;
  std::string out;
  if (s >= 3600) out += fmt::format("{}h", s / 3600);
  if (s % 3600 >= 60) out += fmt::format("{}m", s % 3600 / 60);
  if (s % 60 || out.empty()) out += fmt::format("{}s", s % 60);
  return out;
}

}  // namespace lws::cluster
