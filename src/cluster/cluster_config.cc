#include "cluster/cluster_config.h"

#include <fmt/format.h>

#include <cmath>
#include <fstream>
#include <set>
#include <sstream>

#include "api/name_validation.h"
#include "api/quantity.h"
#include "api/yaml.h"
#include "cluster/config_decoder.h"

namespace lws::cluster {

namespace internal {

namespace {

Distribution DecodeStartup(const Json& value, const FieldPath& path, Decoder* d) {
  Distribution out{Distribution::Kind::kLogNormal, 30, 0.3};
  if (!d->IsObject(value, path)) return out;
  d->Unknown(value, path, {"distribution", "value", "min", "max", "median", "sigma"});
  std::string kind = value.contains("distribution")
                         ? d->String(value["distribution"], path.Child("distribution"))
                         : "lognormal";
  auto seconds = [&](const char* key, double fallback) {
    if (!value.contains(key)) return fallback;
    return std::chrono::duration<double>(d->Time(value[key], path.Child(key))).count();
  };
  if (kind == "fixed") {
    out = {Distribution::Kind::kFixed, seconds("value", 30), 0};
  } else if (kind == "uniform") {
    out = {Distribution::Kind::kUniform, seconds("min", 10), seconds("max", 40)};
    if (out.b < out.a)
      d->errors.push_back(
          api::Invalid(path.Child("max"), value.value("max", Json()), "must not be less than min"));
  } else if (kind == "lognormal") {
    out.a = seconds("median", 30);
    if (value.contains("sigma")) {
      const Json& sigma = value["sigma"];
      if (sigma.is_number() && sigma.get<double>() >= 0 && sigma.get<double>() <= 5) {
        out.b = sigma.get<double>();
      } else {
        d->errors.push_back(
            api::Invalid(path.Child("sigma"), sigma, "must be a number between 0 and 5"));
      }
    }
    if (out.a <= 0)
      d->errors.push_back(
          api::Invalid(path.Child("median"), value.value("median", Json()), "must be positive"));
  } else {
    d->errors.push_back(
        api::NotSupported(path.Child("distribution"), kind, {"fixed", "lognormal", "uniform"}));
  }
  return out;
}

void DecodeQuantities(const NodePoolSpec& pool, const Json& value, const FieldPath& path,
                      Decoder* d) {
  for (const auto& [name, text] : pool.allocatable) {
    if (!api::Quantity::Parse(text).ok()) {
      d->errors.push_back(api::Invalid(path.Key(name), value[name],
                                       "must be a Kubernetes quantity such as \"8\" or \"1Ti\""));
    }
  }
  if (!pool.allocatable.count("pods")) {
    d->errors.push_back(
        api::Required(path.Key("pods"), "the scheduler needs the number of pods a node takes"));
  }
}

}  // namespace

NodePoolSpec DecodePool(const Json& value, const FieldPath& path, Decoder* d) {
  NodePoolSpec pool;
  if (!d->IsObject(value, path)) return pool;
  d->Unknown(value, path,
             {"name", "nodes", "minNodes", "maxNodes", "allocatable", "labels", "taints", "zones",
              "nodesPerRack", "nodesPerNvlinkDomain", "provisioningDelay", "scaleDownDelay",
              "startup", "termination", "crashProbability"});
  if (!value.contains("name"))
    d->errors.push_back(api::Required(path.Child("name"), ""));
  else
    pool.name = d->String(value["name"], path.Child("name"));
  for (const std::string& problem : api::IsDNS1123Label(pool.name)) {
    if (!pool.name.empty())
      d->errors.push_back(api::Invalid(path.Child("name"), pool.name, problem));
  }
  if (value.contains("nodes")) pool.initial_nodes = d->Count(value["nodes"], path.Child("nodes"));
  pool.min_nodes = value.contains("minNodes") ? d->Count(value["minNodes"], path.Child("minNodes"))
                                              : pool.initial_nodes;
  pool.max_nodes = value.contains("maxNodes") ? d->Count(value["maxNodes"], path.Child("maxNodes"))
                                              : pool.initial_nodes;
  if (pool.max_nodes < pool.initial_nodes) {
    d->errors.push_back(
        api::Invalid(path.Child("maxNodes"), pool.max_nodes,
                     fmt::format("must be at least nodes ({})", pool.initial_nodes)));
  }
  if (pool.min_nodes > pool.initial_nodes) {
    d->errors.push_back(
        api::Invalid(path.Child("minNodes"), pool.min_nodes,
                     fmt::format("must be at most nodes ({})", pool.initial_nodes)));
  }
  if (!value.contains("allocatable"))
    d->errors.push_back(api::Required(path.Child("allocatable"), ""));
  else
    pool.allocatable = d->StringMap(value["allocatable"], path.Child("allocatable"));
  DecodeQuantities(pool, value.value("allocatable", Json::object()), path.Child("allocatable"), d);
  if (value.contains("labels")) pool.labels = d->StringMap(value["labels"], path.Child("labels"));
  if (value.contains("taints")) {
    const Json& taints = value["taints"];
    if (!taints.is_array())
      d->errors.push_back(api::TypeInvalid(path.Child("taints"), taints, "must be a list"));
    for (std::size_t i = 0; taints.is_array() && i < taints.size(); ++i) {
      FieldPath at = path.Child("taints").Index(i);
      if (!d->IsObject(taints[i], at)) continue;
      std::string effect = api::StringMember(taints[i], "effect");
      if (effect != "NoSchedule" && effect != "PreferNoSchedule" && effect != "NoExecute") {
        d->errors.push_back(api::NotSupported(at.Child("effect"), effect,
                                              {"NoExecute", "NoSchedule", "PreferNoSchedule"}));
      }
      if (api::StringMember(taints[i], "key").empty())
        d->errors.push_back(api::Required(at.Child("key"), ""));
      pool.taints.push_back(taints[i]);
    }
  }
  if (value.contains("zones")) {
    const Json& zones = value["zones"];
    if (!zones.is_array())
      d->errors.push_back(api::TypeInvalid(path.Child("zones"), zones, "must be a list"));
    for (std::size_t i = 0; zones.is_array() && i < zones.size(); ++i) {
      pool.zones.push_back(d->String(zones[i], path.Child("zones").Index(i)));
    }
  }
  if (value.contains("nodesPerRack"))
    pool.nodes_per_rack = d->Count(value["nodesPerRack"], path.Child("nodesPerRack"));
  if (value.contains("nodesPerNvlinkDomain")) {
    pool.nodes_per_nvlink_domain =
        d->Count(value["nodesPerNvlinkDomain"], path.Child("nodesPerNvlinkDomain"));
  }
  if (value.contains("provisioningDelay"))
    pool.provisioning_delay = d->Time(value["provisioningDelay"], path.Child("provisioningDelay"));
  if (value.contains("scaleDownDelay"))
    pool.scale_down_delay = d->Time(value["scaleDownDelay"], path.Child("scaleDownDelay"));
  if (value.contains("startup"))
    pool.startup = DecodeStartup(value["startup"], path.Child("startup"), d);
  if (value.contains("termination"))
    pool.termination = d->Time(value["termination"], path.Child("termination"));
  if (value.contains("crashProbability")) {
    const Json& p = value["crashProbability"];
    if (p.is_number() && p.get<double>() >= 0 && p.get<double>() <= 1)
      pool.crash_probability = p.get<double>();
    else
      d->errors.push_back(
          api::Invalid(path.Child("crashProbability"), p, "must be a number between 0 and 1"));
  }
  return pool;
}

}  // namespace internal

}  // namespace lws::cluster
