// Row functions of the built-in printers other than pods': printers.go's print<Kind> over the
// v1 JSON of an object, with the server-side defaults the internal objects would carry
// (Service type ClusterIP, port protocol TCP, Secret type Opaque, StatefulSet replicas 1).
#include <algorithm>
#include <cctype>
#include <set>

#include "api/codec.h"
#include "api/field.h"
#include "api/selector.h"
#include "apiserver/table_printers.h"

namespace lws::apiserver::table_internal {

namespace {

std::string OrNone(std::string s) { return s.empty() ? "<none>" : s; }

std::string Join(const std::vector<std::string>& parts, std::string_view sep) {
  std::string out;
  for (const std::string& p : parts) {
    if (!out.empty()) out += sep;
    out += p;
  }
  return out;
}

std::vector<std::string> Strings(const Json& array) {
  std::vector<std::string> out;
  for (const Json& v : array) {
    if (v.is_string()) out.push_back(v.get<std::string>());
  }
  return out;
}

Json Count(const Json& object, std::string_view field) {
  const Json* v = At(object, {field});
  return v != nullptr && (v->is_object() || v->is_array()) ? v->size() : 0;
}

// getServiceExternalIP with wide output.
std::string ServiceExternalIp(const Json& svc, const std::string& type) {
  std::vector<std::string> external = Strings(ArrayAt(svc, {"spec", "externalIPs"}));
  if (type == "ClusterIP" || type == "NodePort") return OrNone(Join(external, ","));
  if (type == "LoadBalancer") {
    std::set<std::string> ingress;
    for (const Json& i : ArrayAt(svc, {"status", "loadBalancer", "ingress"})) {
      std::string ip = StringAt(i, {"ip"});
      std::string host = StringAt(i, {"hostname"});
      if (!ip.empty()) {
        ingress.insert(ip);
      } else if (!host.empty()) {
        ingress.insert(host);
      }
    }
    std::vector<std::string> all(ingress.begin(), ingress.end());
    all.insert(all.end(), external.begin(), external.end());
    return all.empty() ? "<pending>" : Join(all, ",");
  }
  if (type == "ExternalName") return StringAt(svc, {"spec", "externalName"});
  return "<unknown>";
}

std::string ServicePorts(const Json& svc) {
  std::vector<std::string> pieces;
  for (const Json& p : ArrayAt(svc, {"spec", "ports"})) {
    std::string protocol = StringAt(p, {"protocol"});
    if (protocol.empty()) protocol = "TCP";  // the server defaults ports' protocol
    std::string piece = std::to_string(IntAt(p, {"port"}));
    std::int64_t node_port = IntAt(p, {"nodePort"});
    if (node_port > 0) piece += ":" + std::to_string(node_port);
    pieces.push_back(piece + "/" + protocol);
  }
  return OrNone(Join(pieces, ","));
}

std::string NodeAddress(const Json& node, std::string_view type) {
  for (const Json& a : ArrayAt(node, {"status", "addresses"})) {
    if (StringAt(a, {"type"}) == type) return StringAt(a, {"address"});
  }
  return "<none>";
}

std::string TrimSpace(std::string s) {
  auto space = [](unsigned char c) { return std::isspace(c) != 0; };
  s.erase(s.begin(), std::find_if_not(s.begin(), s.end(), space));
  s.erase(std::find_if_not(s.rbegin(), s.rend(), space).base(), s.end());
  return s;
}

std::string Lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// helper.GetAccessModesAsString: each mode once, in a fixed order.
std::string AccessModes(const Json& modes) {
  std::vector<std::string> present = Strings(modes);
  auto has = [&](const char* m) {
    return std::find(present.begin(), present.end(), m) != present.end();
  };
  std::vector<std::string> out;
  if (has("ReadWriteOnce")) out.push_back("RWO");
  if (has("ReadOnlyMany")) out.push_back("ROX");
  if (has("ReadWriteMany")) out.push_back("RWX");
  if (has("ReadWriteOncePod")) out.push_back("RWOP");
  return Join(out, ",");
}

// spec.replicas, defaulted to 1 by the server.
std::int64_t DesiredReplicas(const Json& object) {
  const Json* replicas = At(object, {"spec", "replicas"});
  return replicas != nullptr && replicas->is_number() ? IntAt(object, {"spec", "replicas"}) : 1;
}

}  // namespace

Row Cells(std::initializer_list<Json> cells) {
  Row row;
  row.cells = Json::array();
  for (const Json& c : cells) row.cells.push_back(c);
  return row;
}

// layoutContainerCells: container names and images, comma separated.
std::pair<std::string, std::string> ContainerCells(const Json& containers) {
  std::vector<std::string> names, images;
  for (const Json& c : containers) {
    names.push_back(StringAt(c, {"name"}));
    images.push_back(StringAt(c, {"image"}));
  }
  return {Join(names, ","), Join(images, ",")};
}

// metav1.LabelSelectorAsSelector(spec.selector).String(); an undecodable selector prints "".
std::string SelectorCell(const Json& object) {
  api::LabelSelector typed;
  const Json* s = At(object, {"spec", "selector"});
  if (s == nullptr || !api::DecodeInto(*s, &typed).empty()) return "";
  Result<api::Selector> parsed = api::Selector::FromLabelSelector(&typed);
  return parsed.ok() ? parsed->String() : "";
}

Row StatefulSetRow(const Json& sts, Time now) {
  // spec.replicas defaults to 1 (kubectl-compat.md section 9.10).
  const std::int64_t desired = DesiredReplicas(sts);
  auto [names, images] = ContainerCells(ArrayAt(sts, {"spec", "template", "spec", "containers"}));
  return Cells(
      {NameOf(sts),
       std::to_string(IntAt(sts, {"status", "readyReplicas"})) + "/" + std::to_string(desired),
       AgeOf(sts, now), names, images});
}

Row ServiceRow(const Json& svc, Time now) {
  std::string type = StringAt(svc, {"spec", "type"});
  if (type.empty()) type = "ClusterIP";  // defaulted by the server
  std::vector<std::string> cluster_ips = Strings(ArrayAt(svc, {"spec", "clusterIPs"}));
  std::string cluster_ip =
      cluster_ips.empty() ? StringAt(svc, {"spec", "clusterIP"}) : cluster_ips[0];
  const Json* selector = At(svc, {"spec", "selector"});
  return Cells({NameOf(svc), type, OrNone(cluster_ip), ServiceExternalIp(svc, type),
                ServicePorts(svc), AgeOf(svc, now),
                FormatLabels(selector != nullptr ? *selector : Json())});
}

Row NodeRow(const Json& node, Time now) {
  // The last Ready condition wins, as printers.go's condition map does.
  std::string ready;
  for (const Json& c : ArrayAt(node, {"status", "conditions"})) {
    if (StringAt(c, {"type"}) == "Ready")
      ready = StringAt(c, {"status"}) == "True" ? "Ready" : "NotReady";
  }
  std::string status = ready.empty() ? "Unknown" : ready;
  const Json* unschedulable = At(node, {"spec", "unschedulable"});
  if (unschedulable != nullptr && unschedulable->is_boolean() && unschedulable->get<bool>()) {
    status += ",SchedulingDisabled";
  }
  // findNodeRoles: node-role.kubernetes.io/<role> keys and kubernetes.io/role values.
  std::set<std::string> roles;
  const Json* labels = At(node, {"metadata", "labels"});
  if (labels != nullptr && labels->is_object()) {
    constexpr std::string_view kPrefix = "node-role.kubernetes.io/";
    for (const auto& [key, value] : labels->items()) {
      if (key.rfind(kPrefix, 0) == 0 && key.size() > kPrefix.size()) {
        roles.insert(key.substr(kPrefix.size()));
      } else if (key == "kubernetes.io/role" && value.is_string() &&
                 !value.get<std::string>().empty()) {
        roles.insert(value.get<std::string>());
      }
    }
  }
  auto unknown_if_empty = [](std::string s) { return s.empty() ? std::string("<unknown>") : s; };
  return Cells(
      {NameOf(node), status, OrNone(Join({roles.begin(), roles.end()}, ",")), AgeOf(node, now),
       StringAt(node, {"status", "nodeInfo", "kubeletVersion"}), NodeAddress(node, "InternalIP"),
       NodeAddress(node, "ExternalIP"),
       unknown_if_empty(StringAt(node, {"status", "nodeInfo", "osImage"})),
       unknown_if_empty(StringAt(node, {"status", "nodeInfo", "kernelVersion"})),
       unknown_if_empty(StringAt(node, {"status", "nodeInfo", "containerRuntimeVersion"}))});
}

Row NamespaceRow(const Json& ns, Time now) {
  return Cells({NameOf(ns), StringAt(ns, {"status", "phase"}), AgeOf(ns, now)});
}

// printEvent over a core/v1 Event (events.k8s.io events are mapped to one first).
Row CoreEventRow(const Json& event, Time now) {
  std::string first = TimestampAge(StringAt(event, {"firstTimestamp"}), now);
  if (StringAt(event, {"firstTimestamp"}).empty())
    first = TimestampAge(StringAt(event, {"eventTime"}), now);
  std::string last = StringAt(event, {"lastTimestamp"}).empty()
                         ? first
                         : TimestampAge(StringAt(event, {"lastTimestamp"}), now);
  std::int64_t count = IntAt(event, {"count"});
  const Json* series = At(event, {"series"});
  if (series != nullptr && series->is_object()) {
    last = TimestampAge(StringAt(*series, {"lastObservedTime"}), now);
    count = IntAt(*series, {"count"});
  } else if (count == 0) {
    count = 1;  // singleton events of the new API carry no count
  }
  std::string kind = Lower(StringAt(event, {"involvedObject", "kind"}));
  std::string name = StringAt(event, {"involvedObject", "name"});
  std::string target = name.empty() ? kind : kind + "/" + name;
  std::string component = StringAt(event, {"source", "component"});
  if (component.empty()) component = StringAt(event, {"reportingComponent"});
  std::string host = StringAt(event, {"source", "host"});
  if (host.empty()) host = StringAt(event, {"reportingInstance"});
  std::string source = host.empty() ? component : component + ", " + host;
  return Cells({last, StringAt(event, {"type"}), StringAt(event, {"reason"}), target,
                StringAt(event, {"involvedObject", "fieldPath"}), source,
                TrimSpace(StringAt(event, {"message"})), first, count, NameOf(event)});
}

// The internal Event an events.k8s.io/v1 Event converts to, for CoreEventRow.
Row EventsV1Row(const Json& event, Time now) {
  Json core = Json::object();
  for (const char* same : {"metadata", "reason", "type", "eventTime", "series", "action"}) {
    if (const Json* v = At(event, {same})) core[same] = *v;
  }
  const std::pair<const char*, const char*> renamed[] = {
      {"regarding", "involvedObject"},
      {"note", "message"},
      {"deprecatedSource", "source"},
      {"deprecatedFirstTimestamp", "firstTimestamp"},
      {"deprecatedLastTimestamp", "lastTimestamp"},
      {"deprecatedCount", "count"},
      {"reportingController", "reportingComponent"},
      {"reportingInstance", "reportingInstance"}};
  for (const auto& [from, to] : renamed) {
    if (const Json* v = At(event, {from})) core[to] = *v;
  }
  return CoreEventRow(core, now);
}

Row ControllerRevisionRow(const Json& rev, Time now) {
  std::string controller = "<none>";
  for (const Json& ref : ArrayAt(rev, {"metadata", "ownerReferences"})) {
    const Json* is_controller = At(ref, {"controller"});
    if (is_controller == nullptr || !is_controller->is_boolean() || !is_controller->get<bool>())
      continue;
    std::string api_version = StringAt(ref, {"apiVersion"});
    std::size_t slash = api_version.find('/');
    std::string group = slash == std::string::npos ? "" : api_version.substr(0, slash);
    std::string kind = StringAt(ref, {"kind"});
    // formatResourceName: lower-cased GroupKind.String() ("statefulset.apps") + "/" + name.
    std::string group_kind = group.empty() ? kind : kind + "." + group;
    std::string name = StringAt(ref, {"name"});
    controller = group_kind.empty() ? name : Lower(group_kind) + "/" + name;
    break;
  }
  return Cells({NameOf(rev), controller, IntAt(rev, {"revision"}), AgeOf(rev, now)});
}

Row LeaseRow(const Json& lease, Time now) {
  return Cells({NameOf(lease), StringAt(lease, {"spec", "holderIdentity"}), AgeOf(lease, now)});
}

// printPodDisruptionBudget: an unset bound is "N/A".
Row PodDisruptionBudgetRow(const Json& pdb, Time now) {
  auto bound = [&](std::string_view key) -> Json {
    const Json* value = At(pdb, {"spec", key});
    if (value == nullptr || value->is_null()) return "N/A";
    return value->is_string() ? *value : Json(value->dump());
  };
  return Cells({NameOf(pdb), bound("minAvailable"), bound("maxUnavailable"),
                IntAt(pdb, {"status", "disruptionsAllowed"}), AgeOf(pdb, now)});
}

Row PriorityClassRow(const Json& pc, Time now) {
  const Json* global = At(pc, {"globalDefault"});
  const bool global_default = global != nullptr && global->is_boolean() && global->get<bool>();
  return Cells({NameOf(pc), IntAt(pc, {"value"}), global_default, AgeOf(pc, now),
                StringAt(pc, {"preemptionPolicy"})});
}

Row ConfigMapRow(const Json& cm, Time now) {
  std::int64_t data =
      Count(cm, "data").get<std::int64_t>() + Count(cm, "binaryData").get<std::int64_t>();
  return Cells({NameOf(cm), data, AgeOf(cm, now)});
}

// printResourceQuota: "<resource>: <used>/<hard>" per status.hard entry in name order, those
// named limits.* in the Limit column, the rest in Request.
Row ResourceQuotaRow(const Json& quota, Time now) {
  const Json& status = api::ChildOrNull(quota, "status");
  const Json& hard = api::ChildOrNull(status, "hard");
  const Json& used = api::ChildOrNull(status, "used");
  std::string request;
  std::string limit;
  if (hard.is_object()) {
    for (const auto& [resource, amount] : hard.items()) {  // nlohmann keeps keys sorted
      std::string& column = resource.starts_with("limits.") ? limit : request;
      const Json& in_use = api::ChildOrNull(used, resource);
      if (!column.empty()) column += ", ";
      column += resource + ": " + (in_use.is_string() ? in_use.get<std::string>() : "0") + "/" +
                (amount.is_string() ? amount.get<std::string>() : amount.dump());
    }
  }
  return Cells({NameOf(quota), AgeOf(quota, now), request, limit});
}

Row SecretRow(const Json& secret, Time now) {
  std::string type = StringAt(secret, {"type"});
  if (type.empty()) type = "Opaque";  // defaulted by the server
  return Cells({NameOf(secret), type, Count(secret, "data"), AgeOf(secret, now)});
}

Row ServiceAccountRow(const Json& sa, Time now) {
  return Cells({NameOf(sa), Count(sa, "secrets"), AgeOf(sa, now)});
}

Row PersistentVolumeClaimRow(const Json& pvc, Time now) {
  std::string phase = StringAt(pvc, {"status", "phase"});
  if (At(pvc, {"metadata", "deletionTimestamp"}) != nullptr &&
      !StringAt(pvc, {"metadata", "deletionTimestamp"}).empty()) {
    phase = "Terminating";
  }
  std::string volume = StringAt(pvc, {"spec", "volumeName"});
  std::string capacity, access_modes;
  if (!volume.empty()) {
    access_modes = AccessModes(ArrayAt(pvc, {"status", "accessModes"}));
    capacity = StringAt(pvc, {"status", "capacity", "storage"});
  }
  // GetPersistentVolumeClaimClass: the beta annotation wins over spec.storageClassName.
  std::string storage_class = StringAt(pvc, {"spec", "storageClassName"});
  const Json* beta =
      At(pvc, {"metadata", "annotations", "volume.beta.kubernetes.io/storage-class"});
  if (beta != nullptr && beta->is_string()) storage_class = beta->get<std::string>();
  std::string attributes_class = StringAt(pvc, {"spec", "volumeAttributesClassName"});
  std::string volume_mode = StringAt(pvc, {"spec", "volumeMode"});
  return Cells({NameOf(pvc), phase, volume, capacity, access_modes, storage_class,
                attributes_class.empty() ? "<unset>" : attributes_class, AgeOf(pvc, now),
                volume_mode.empty() ? "<unset>" : volume_mode});
}

Row DeploymentRow(const Json& deploy, Time now) {
  auto [names, images] =
      ContainerCells(ArrayAt(deploy, {"spec", "template", "spec", "containers"}));
  return Cells({NameOf(deploy),
                std::to_string(IntAt(deploy, {"status", "readyReplicas"})) + "/" +
                    std::to_string(DesiredReplicas(deploy)),
                IntAt(deploy, {"status", "updatedReplicas"}),
                IntAt(deploy, {"status", "availableReplicas"}), AgeOf(deploy, now), names, images,
                SelectorCell(deploy)});
}

Row ReplicaSetRow(const Json& set, Time now) {
  auto [names, images] = ContainerCells(ArrayAt(set, {"spec", "template", "spec", "containers"}));
  return Cells({NameOf(set), DesiredReplicas(set), IntAt(set, {"status", "replicas"}),
                IntAt(set, {"status", "readyReplicas"}), AgeOf(set, now), names, images,
                SelectorCell(set)});
}

// printRoleBinding / printClusterRoleBinding: the role as Kind/name, then (wide) the subjects
// by kind; service accounts as namespace:name.
Row RoleBindingRow(const Json& binding, Time now) {
  std::vector<std::string> users, groups, service_accounts;
  for (const Json& subject : ArrayAt(binding, {"subjects"})) {
    std::string kind = StringAt(subject, {"kind"});
    std::string name = StringAt(subject, {"name"});
    if (kind == "User") users.push_back(name);
    if (kind == "Group") groups.push_back(name);
    if (kind == "ServiceAccount")
      service_accounts.push_back(StringAt(subject, {"namespace"}) + ":" + name);
  }
  return Cells(
      {NameOf(binding),
       StringAt(binding, {"roleRef", "kind"}) + "/" + StringAt(binding, {"roleRef", "name"}),
       AgeOf(binding, now), Join(users, ", "), Join(groups, ", "), Join(service_accounts, ", ")});
}

Row WebhookConfigurationRow(const Json& config, Time now) {
  return Cells({NameOf(config), Count(config, "webhooks"), AgeOf(config, now)});
}

}  // namespace lws::apiserver::table_internal
