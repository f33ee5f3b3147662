// Defaulting of built-in kinds other than the pod spec itself (builtin_pod_defaults.cc). See
// builtin_defaults.h for the contract.
#include "api/builtin_defaults.h"

#include <string>
#include <vector>

#include "api/base64.h"
#include "api/builtin_internal.h"
#include "api/builtin_json.h"
#include "api/priority_class.h"

namespace lws::api {

using builtin::Array;
using builtin::DefaultString;
using builtin::DefaultValue;
using builtin::EnsureObject;
using builtin::ForEachObject;
using builtin::Is;
using builtin::IsUnset;
using builtin::Member;
using builtin::Object;

namespace {

constexpr std::int64_t kClientIPAffinitySeconds = 10800;
constexpr std::string_view kNamespaceNameLabel = "kubernetes.io/metadata.name";

void ApplyStatefulSetDefaults(Json* sts) {
  Json* spec = Object(sts, "spec");
  if (spec == nullptr) return;
  DefaultString(spec, "podManagementPolicy", "OrderedReady");
  if (Json* strategy = EnsureObject(spec, "updateStrategy")) {
    const Json* type = Member(strategy, "type");
    if (IsUnset(type) || (type->is_string() && type->get_ref<const std::string&>().empty())) {
      (*strategy)["type"] = "RollingUpdate";
      // Upstream creates rollingUpdate only here, when the type itself was defaulted; an
      // explicit RollingUpdate without rollingUpdate keeps it nil.
      DefaultValue(strategy, "rollingUpdate", Json::object());
    }
    if (StringMember(*strategy, "type") == "RollingUpdate") {
      DefaultValue(Object(strategy, "rollingUpdate"), "partition", 0);
    }
  }
  if (Json* retention = EnsureObject(spec, "persistentVolumeClaimRetentionPolicy")) {
    DefaultString(retention, "whenDeleted", "Retain");
    DefaultString(retention, "whenScaled", "Retain");
  }
  DefaultValue(spec, "replicas", 1);
  DefaultValue(spec, "revisionHistoryLimit", 10);
  ApplyPodTemplateSpecDefaults(Object(Object(spec, "template"), "spec"));
  ForEachObject(Array(spec, "volumeClaimTemplates"), [](Json& claim) {
    ApplyClaimSpecDefaults(EnsureObject(&claim, "spec"));
    // SetDefaults_PersistentVolumeClaim also runs on templates: they show status.phase Pending.
    DefaultString(EnsureObject(&claim, "status"), "phase", "Pending");
  });
}

bool IsExternallyAccessible(const Json& spec, const std::string& type) {
  if (type == "LoadBalancer" || type == "NodePort") return true;
  const Json* external_ips = Array(spec, "externalIPs");
  return type == "ClusterIP" && external_ips != nullptr && !external_ips->empty();
}

void DefaultServicePort(Json& port) {
  DefaultString(&port, "protocol", "TCP");
  const Json* number = Member(port, "port");
  if (number == nullptr || !number->is_number_integer()) return;
  const Json* target = Member(port, "targetPort");
  const bool unset = IsUnset(target) || (target->is_number() && builtin::IntValue(target) == 0) ||
                     (target->is_string() && target->get_ref<const std::string&>().empty());
  if (unset) port["targetPort"] = *number;
}

std::string FamilyOf(const std::string& ip) {
  return ip.find(':') != std::string::npos ? "IPv6" : "IPv4";
}

// The registry's initIPFamilyFields for a create on a single-stack IPv4 cluster, plus
// NormalizeClusterIPs (clusterIPs from a lone clusterIP). Allocation itself is the caller's.
void DefaultServiceIPFields(Json* spec) {
  const Json* cluster_ip = Member(*spec, "clusterIP");
  const Json* cluster_ips = Member(*spec, "clusterIPs");
  const bool no_ips = IsUnset(cluster_ips) || (cluster_ips->is_array() && cluster_ips->empty());
  if (cluster_ip != nullptr && cluster_ip->is_string() &&
      !cluster_ip->get_ref<const std::string&>().empty() && no_ips) {
    (*spec)["clusterIPs"] = Json::array({*cluster_ip});
  }
  const bool headless = StringMember(*spec, "clusterIP") == "None";
  const Json* selector = Member(*spec, "selector");
  const bool selectorless = IsUnset(selector) || (selector->is_object() && selector->empty());
  DefaultValue(spec, "ipFamilyPolicy",
               headless && selectorless ? "RequireDualStack" : "SingleStack");

  const Json* families = Member(*spec, "ipFamilies");
  if (!IsUnset(families) && !families->is_array()) return;
  Json inferred = IsUnset(families) ? Json::array() : *families;
  if (const Json* ips = Array(*spec, "clusterIPs")) {
    for (std::size_t i = inferred.size(); i < ips->size(); ++i) {
      const Json& ip = (*ips)[i];
      if (!ip.is_string() || ip.get_ref<const std::string&>() == "None") break;
      inferred.push_back(FamilyOf(ip.get<std::string>()));
    }
  }
  if (inferred.empty()) inferred.push_back("IPv4");
  // Headless and selectorless services may list both families even on a single-stack cluster.
  if (headless && selectorless && inferred.size() < 2 &&
      StringMember(*spec, "ipFamilyPolicy") != "SingleStack" && inferred[0].is_string()) {
    inferred.push_back(inferred[0] == "IPv4" ? "IPv6" : "IPv4");
  }
  (*spec)["ipFamilies"] = std::move(inferred);
}

void ApplyServiceDefaults(Json* service) {
  Json* spec = Object(service, "spec");
  if (spec == nullptr) return;
  DefaultString(spec, "sessionAffinity", "None");
  const std::string affinity = StringMember(*spec, "sessionAffinity");
  if (affinity == "None") {
    spec->erase("sessionAffinityConfig");
  } else if (affinity == "ClientIP") {
    const Json* config = Object(*spec, "sessionAffinityConfig");
    const Json* client_ip = config != nullptr ? Object(*config, "clientIP") : nullptr;
    if (client_ip == nullptr || IsUnset(Member(*client_ip, "timeoutSeconds"))) {
      (*spec)["sessionAffinityConfig"] = {
          {"clientIP", {{"timeoutSeconds", kClientIPAffinitySeconds}}}};
    }
  }
  DefaultString(spec, "type", "ClusterIP");
  const std::string type = StringMember(*spec, "type");
  ForEachObject(Array(spec, "ports"), DefaultServicePort);
  if (IsExternallyAccessible(*spec, type)) DefaultString(spec, "externalTrafficPolicy", "Cluster");
  if (type == "NodePort" || type == "LoadBalancer" || type == "ClusterIP") {
    DefaultValue(spec, "internalTrafficPolicy", "Cluster");
  }
  if (type == "LoadBalancer") DefaultValue(spec, "allocateLoadBalancerNodePorts", true);
  if (type != "ExternalName") DefaultServiceIPFields(spec);
}

void ApplyNamespaceDefaults(Json* ns) {
  Json* metadata = Object(ns, "metadata");
  const std::string name = metadata != nullptr ? StringMember(*metadata, "name") : "";
  if (!name.empty()) {
    if (Json* labels = EnsureObject(metadata, "labels")) {
      (*labels)[std::string(kNamespaceNameLabel)] = name;
    }
  }
  // The namespace strategy sets the finalizer on create; here only when absent, because an
  // update carries the stored list over (ApplyBuiltinUpdateCarryOver) and must keep it.
  DefaultValue(EnsureObject(ns, "spec"), "finalizers", Json::array({"kubernetes"}));
}
// SetDefaults_Deployment (apps/v1): RollingUpdate 25%/25% unless Recreate.
void ApplyDeploymentDefaults(Json* deployment) {
  Json* spec = Object(deployment, "spec");
  if (spec == nullptr) return;
  DefaultValue(spec, "replicas", 1);
  if (Json* strategy = EnsureObject(spec, "strategy")) {
    DefaultString(strategy, "type", "RollingUpdate");
    if (StringMember(*strategy, "type") == "RollingUpdate") {
      if (Json* rolling = EnsureObject(strategy, "rollingUpdate")) {
        DefaultValue(rolling, "maxUnavailable", "25%");
        DefaultValue(rolling, "maxSurge", "25%");
      }
    }
  }
  DefaultValue(spec, "revisionHistoryLimit", 10);
  DefaultValue(spec, "progressDeadlineSeconds", 600);
  ApplyPodTemplateSpecDefaults(Object(Object(spec, "template"), "spec"));
}

void ApplyReplicaSetDefaults(Json* set) {
  Json* spec = Object(set, "spec");
  if (spec == nullptr) return;
  DefaultValue(spec, "replicas", 1);
  ApplyPodTemplateSpecDefaults(Object(Object(spec, "template"), "spec"));
}

// v1 Secret conversion: stringData entries overwrite data entries and are not stored.
void ApplySecretDefaults(Json* secret) {
  DefaultString(secret, "type", "Opaque");
  const Json* string_data = Object(*secret, "stringData");
  if (string_data == nullptr) return;
  for (const auto& [key, value] : string_data->items()) {
    if (!value.is_string()) return;  // Not a map[string]string: left for the decoder.
  }
  Json* data = EnsureObject(secret, "data");
  // Looked up again: adding "data" may have moved "stringData" (base/flat_map.h).
  string_data = Object(*secret, "stringData");
  if (data == nullptr) return;
  for (const auto& [key, value] : string_data->items()) {
    (*data)[key] = Base64Encode(value.get_ref<const std::string&>());
  }
  secret->erase("stringData");
}

}  // namespace

void ApplyBuiltinDefaults(const ResourceInfo& info, Json* object) {
  if (object == nullptr || !object->is_object()) return;
  if (Is(info, "", "Pod")) {
    ApplyPodDefaults(object);
  } else if (Is(info, "apps", "StatefulSet")) {
    ApplyStatefulSetDefaults(object);
  } else if (Is(info, "apps", "Deployment")) {
    ApplyDeploymentDefaults(object);
  } else if (Is(info, "apps", "ReplicaSet")) {
    ApplyReplicaSetDefaults(object);
  } else if (Is(info, "apps", "DaemonSet")) {
    ApplyDaemonSetDefaults(object);
  } else if (Is(info, "batch", "Job")) {
    ApplyJobDefaults(object);
  } else if (Is(info, "", "Service")) {
    ApplyServiceDefaults(object);
  } else if (Is(info, "", "Namespace")) {
    ApplyNamespaceDefaults(object);
  } else if (Is(info, "", "PersistentVolumeClaim")) {
    ApplyClaimSpecDefaults(EnsureObject(object, "spec"));
  } else if (Is(info, "", "Secret")) {
    ApplySecretDefaults(object);
  } else if (Is(info, "scheduling.k8s.io", "PriorityClass")) {
    ApplyPriorityClassDefaults(object);
  }
}

void ApplyBuiltinUpdateCarryOver(const ResourceInfo& info, const Json& old, Json* object) {
  if (object == nullptr || !object->is_object()) return;
  if (Is(info, "", "Namespace")) {
    const Json* old_spec = Object(old, "spec");
    const Json* finalizers = old_spec != nullptr ? Member(*old_spec, "finalizers") : nullptr;
    if (Json* spec = EnsureObject(object, "spec")) {
      if (finalizers != nullptr) {
        (*spec)["finalizers"] = *finalizers;
      } else {
        spec->erase("finalizers");
      }
    }
    return;
  }
  if (!Is(info, "", "Service")) return;
  Json* spec = Object(object, "spec");
  const Json* old_spec = Object(old, "spec");
  if (spec == nullptr || old_spec == nullptr) return;
  auto empty = [](const Json* v) {
    return IsUnset(v) || (v->is_string() && v->get_ref<const std::string&>().empty()) ||
           (v->is_array() && v->empty());
  };
  for (const char* key : {"clusterIP", "clusterIPs", "ipFamilyPolicy", "ipFamilies"}) {
    const Json* stored = Member(*old_spec, key);
    if (empty(Member(spec, key)) && !empty(stored)) (*spec)[key] = *stored;
  }
}

std::string GoStringMap(const Json& map) {
  std::string out = "map[string]string{";
  bool first = true;
  if (map.is_object()) {
    for (const auto& [key, value] : map.items()) {  // nlohmann objects iterate in key order.
      if (!first) out += ", ";
      first = false;
      out +=
          GoQuote(key) + ":" + GoQuote(value.is_string() ? value.get<std::string>() : value.dump());
    }
  }
  return out + "}";
}

}  // namespace lws::api
