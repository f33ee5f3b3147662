// Service spec rules of pkg/apis/core/validation (ValidateService, ValidateServiceUpdate) and the
// IP family checks of the service registry, for a single-stack IPv4 cluster, over JSON.
#include <algorithm>
#include <set>
#include <string>
#include <tuple>

#include "api/builtin_internal.h"
#include "api/builtin_json.h"
#include "api/name_validation.h"

namespace lws::api {

using builtin::Array;
using builtin::IsUnset;
using builtin::Member;
using builtin::Object;

namespace {

std::vector<std::string> Strings(const Json* array) {
  std::vector<std::string> out;
  if (array == nullptr || !array->is_array()) return out;
  for (const auto& v : *array) out.push_back(v.is_string() ? v.get<std::string>() : v.dump());
  return out;
}

bool IsHeadless(const Json& spec) {
  const auto ips = Strings(Array(spec, "clusterIPs"));
  return ips.size() == 1 && ips[0] == "None";
}

bool Selectorless(const Json& spec) {
  const Json* selector = Member(spec, "selector");
  return IsUnset(selector) || (selector->is_object() && selector->empty());
}

void CheckIn(const std::string& value, const FieldPath& path, const std::vector<std::string>& valid,
             bool required, ErrorList* errs) {
  if (value.empty()) {
    if (required) errs->push_back(Required(path, ""));
  } else if (std::find(valid.begin(), valid.end(), value) == valid.end()) {
    errs->push_back(NotSupported(path, value, valid));
  }
}

void ValidatePort(const Json& port, bool require_name, std::set<std::string>* names,
                  const FieldPath& path, ErrorList* errs) {
  const std::string name = StringMember(port, "name");
  if (require_name && name.empty()) {
    errs->push_back(Required(path.Child("name"), ""));
  } else if (!name.empty()) {
    for (const auto& p : IsDNS1123Label(name))
      errs->push_back(Invalid(path.Child("name"), name, p));
    if (!names->insert(name).second) {
      errs->push_back(
          FieldError(FieldErrorType::kDuplicate, path.Child("name").String(), name, ""));
    }
  }
  const std::int64_t number = builtin::IntValue(Member(port, "port"));
  for (const auto& p : IsValidPortNum(number))
    errs->push_back(Invalid(path.Child("port"), number, p));
  CheckIn(StringMember(port, "protocol"), path.Child("protocol"), {"SCTP", "TCP", "UDP"}, true,
          errs);
  const Json* target = Member(port, "targetPort");
  if (target != nullptr && target->is_string()) {
    const std::string name_value = target->get<std::string>();
    for (const auto& p : IsValidPortName(name_value))
      errs->push_back(Invalid(path.Child("targetPort"), name_value, p));
  } else {
    const std::int64_t value = builtin::IntValue(target);
    for (const auto& p : IsValidPortNum(value))
      errs->push_back(Invalid(path.Child("targetPort"), value, p));
  }
}

// %#v of the core.ServicePort key upstream uses to find duplicate (protocol, port) pairs.
std::string GoServicePortKey(const std::string& protocol, std::int64_t port) {
  return "core.ServicePort{Name:\"\", Protocol:" + GoQuote(protocol) +
         ", AppProtocol:(*string)(nil), Port:" + std::to_string(port) +
         ", TargetPort:intstr.IntOrString{Type:0, IntVal:0, StrVal:\"\"}, NodePort:0}";
}

void ValidatePorts(const Json& spec, const std::string& type, const FieldPath& path,
                   ErrorList* errs) {
  const Json* ports = Array(spec, "ports");
  const std::size_t count = ports != nullptr ? ports->size() : 0;
  std::set<std::string> names;
  for (std::size_t i = 0; i < count; ++i) {
    if ((*ports)[i].is_object()) ValidatePort((*ports)[i], count > 1, &names, path.Index(i), errs);
  }
  if (const Json* selector = Object(spec, "selector"))
    AppendErrors(errs, ValidateLabelMap(*selector, FieldPath("spec").Child("selector")));
  std::set<std::pair<std::string, std::int64_t>> node_ports;
  std::set<std::pair<std::string, std::int64_t>> seen;
  for (std::size_t i = 0; i < count; ++i) {
    const Json& port = (*ports)[i];
    const std::string protocol = StringMember(port, "protocol");
    const std::int64_t node_port = builtin::IntValue(Member(port, "nodePort"));
    if (type == "ClusterIP" && node_port != 0) {
      errs->push_back(
          Forbidden(path.Index(i).Child("nodePort"), "may not be used when `type` is 'ClusterIP'"));
    }
    if (node_port != 0 && !node_ports.insert({protocol, node_port}).second) {
      errs->push_back(FieldError(FieldErrorType::kDuplicate,
                                 path.Index(i).Child("nodePort").String(), node_port, ""));
    }
    const std::int64_t number = builtin::IntValue(Member(port, "port"));
    if (!seen.insert({protocol, number}).second) {
      FieldError dup(FieldErrorType::kDuplicate, path.Index(i).String(), Json(), "");
      dup.rendered_value = GoServicePortKey(protocol, number);
      errs->push_back(std::move(dup));
    }
  }
}

void ValidateTypeSpecific(const Json& spec, const std::string& type, const FieldPath& path,
                          ErrorList* errs) {
  if ((type == "LoadBalancer" || type == "NodePort") && IsHeadless(spec)) {
    errs->push_back(Invalid(path.Child("clusterIPs").Index(0), "None",
                            "may not be set to 'None' for " + type + " services"));
  }
  if (type != "ExternalName") return;
  const Json* ips = Array(spec, "clusterIPs");
  if (ips != nullptr && !ips->empty()) {
    errs->push_back(
        Forbidden(path.Child("clusterIPs"), "may not be set for ExternalName services"));
  }
  const Json* families = Array(spec, "ipFamilies");
  if (families != nullptr && !families->empty()) {
    errs->push_back(
        Forbidden(path.Child("ipFamilies"), "may not be set for ExternalName services"));
  }
  if (!IsUnset(Member(spec, "ipFamilyPolicy"))) {
    errs->push_back(
        Forbidden(path.Child("ipFamilyPolicy"), "may not be set for ExternalName services"));
  }
  std::string cname = StringMember(spec, "externalName");
  if (!cname.empty() && cname.back() == '.') cname.pop_back();
  if (cname.empty()) {
    errs->push_back(Required(path.Child("externalName"), ""));
  } else {
    for (const auto& p : IsDNS1123Subdomain(cname))
      errs->push_back(Invalid(path.Child("externalName"), cname, p));
  }
}

// The registry's initIPFamilyFields checks on a single-stack IPv4 cluster.
void ValidateIPFamilies(const Json& spec, const std::string& type, const FieldPath& path,
                        ErrorList* errs) {
  if (type == "ExternalName") return;
  const std::string policy = StringMember(spec, "ipFamilyPolicy");
  CheckIn(policy, path.Child("ipFamilyPolicy"),
          {"PreferDualStack", "RequireDualStack", "SingleStack"}, false, errs);
  if (IsHeadless(spec) && Selectorless(spec)) return;  // may name both families anywhere
  if (policy == "RequireDualStack") {
    errs->push_back(Invalid(path.Child("ipFamilyPolicy"), policy,
                            "this cluster is not configured for dual-stack services"));
  }
  const auto families = Strings(Array(spec, "ipFamilies"));
  for (std::size_t i = 0; i < families.size(); ++i) {
    if (families[i] != "IPv4") {
      errs->push_back(Invalid(path.Child("ipFamilies").Index(i), families[i],
                              "not configured on this cluster"));
    }
  }
}

void ValidateTrafficPolicies(const Json& spec, const std::string& type, const FieldPath& path,
                             ErrorList* errs) {
  if (!IsUnset(Member(spec, "allocateLoadBalancerNodePorts")) && type != "LoadBalancer") {
    errs->push_back(Forbidden(path.Child("allocateLoadBalancerNodePorts"),
                              "may only be used when `type` is 'LoadBalancer'"));
  }
  const Json* external_ips = Array(spec, "externalIPs");
  const bool accessible =
      type == "LoadBalancer" || type == "NodePort" ||
      (type == "ClusterIP" && external_ips != nullptr && !external_ips->empty());
  const std::string external = StringMember(spec, "externalTrafficPolicy");
  if (!accessible && !external.empty()) {
    errs->push_back(Invalid(path.Child("externalTrafficPolicy"), external,
                            "may only be set for externally-accessible services"));
  } else if (accessible) {
    CheckIn(external, path.Child("externalTrafficPolicy"), {"Cluster", "Local"}, true, errs);
  }
  const std::string internal = StringMember(spec, "internalTrafficPolicy");
  const bool needs_internal = type == "NodePort" || type == "LoadBalancer" || type == "ClusterIP";
  CheckIn(internal, path.Child("internalTrafficPolicy"), {"Cluster", "Local"}, needs_internal,
          errs);
}

}  // namespace

ErrorList ValidateServiceSpec(const Json& spec, const FieldPath& path) {
  ErrorList errs;
  const std::string type = StringMember(spec, "type");
  const Json* ports = Array(spec, "ports");
  if ((ports == nullptr || ports->empty()) && !IsHeadless(spec) && type != "ExternalName") {
    errs.push_back(Required(path.Child("ports"), ""));
  }
  ValidateTypeSpecific(spec, type, path, &errs);
  ValidatePorts(spec, type, path.Child("ports"), &errs);
  const std::string affinity = StringMember(spec, "sessionAffinity");
  CheckIn(affinity, path.Child("sessionAffinity"), {"ClientIP", "None"}, true, &errs);
  ValidateIPFamilies(spec, type, path, &errs);
  CheckIn(type, path.Child("type"), {"ClusterIP", "ExternalName", "LoadBalancer", "NodePort"}, true,
          &errs);
  ValidateTrafficPolicies(spec, type, path, &errs);
  return errs;
}

// validateUpgradeDowngradeClusterIPs: the primary cluster IP never changes once set.
ErrorList ValidateServiceSpecUpdate(const Json& spec, const Json& old_spec) {
  ErrorList errs;
  if (StringMember(spec, "type") == "ExternalName" ||
      StringMember(old_spec, "type") == "ExternalName")
    return errs;
  if (IsHeadless(spec) && IsHeadless(old_spec)) return errs;
  const auto now = Strings(Array(spec, "clusterIPs"));
  const auto before = Strings(Array(old_spec, "clusterIPs"));
  const FieldPath path = FieldPath("spec").Child("clusterIPs");
  auto invalid = [&](std::size_t i, std::string detail) {
    FieldError e = Invalid(path.Index(i), Json(), std::move(detail));
    e.rendered_value = GoStringSlice(now, EmptySlice::kNil);
    errs.push_back(std::move(e));
  };
  if (now.size() == before.size()) {
    for (std::size_t i = 0; i < before.size(); ++i) {
      if (before[i] != now[i]) invalid(i, "may not change once set");
    }
  } else if (before.size() > now.size()) {
    if (now.empty()) invalid(0, "primary clusterIP can not be unset");
    if (!now.empty() && now[0] != before[0]) invalid(0, "may not change once set");
    if (now.size() == 1 && StringMember(spec, "ipFamilyPolicy") != "SingleStack") {
      invalid(
          0,
          "`ipFamilyPolicy` must be set to 'SingleStack' when releasing the secondary clusterIP");
    }
  } else if (!before.empty() && now[0] != before[0]) {
    invalid(0, "may not change once set");
  }
  return errs;
}

}  // namespace lws::api
