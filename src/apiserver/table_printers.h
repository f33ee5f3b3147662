// File: apiserver/table_printers.h
//
// Internal to the table code (table*.cc): the row printers behind table.h and the small JSON
// readers they share. A printer is a column list plus a function from one object to its row;
// every function here is pure and never throws on malformed input (missing or mistyped fields
// read as empty).
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "api/resources.h"
#include "apiserver/jsonpath.h"
#include "apiserver/table.h"

namespace lws::apiserver::table_internal {

// One table row before the object is attached.
struct Row {
  Json cells = Json::array();
  Json conditions;  // metav1.TableRowCondition list, or null
};

using RowFunction = Row (*)(const Json& object, Time now);

struct Printer {
  std::vector<api::PrinterColumn> columns;
  RowFunction row = nullptr;
};

// ObjectMeta descriptions (metav1.ObjectMeta SwaggerDoc) used by every printer.
extern const char kNameDescription[];
extern const char kCreationTimestampDescription[];

// The built-in printer of `resource` (printers.go), or null when it has none.
const Printer* FindBuiltinPrinter(const api::ResourceInfo& resource);

// apiextensions' tableconvertor for a custom resource: Name plus the CRD's printer columns
// (Age when it declares none), their JSONPaths parsed once.
class CustomRowPrinter {
 public:
  explicit CustomRowPrinter(const api::ResourceInfo& resource);
  const std::vector<api::PrinterColumn>& columns() const { return columns_; }
  Row RowFor(const Json& object, Time now) const;

 private:
  std::vector<api::PrinterColumn> columns_;  // Name first
  std::vector<JsonPath> paths_;              // one per column after Name
};

// apiserver's default table convertor: Name and "Created At".
const Printer& DefaultPrinter();

// Row functions of the built-in printers: printPod in table_pod.cc, the others in
// table_rows.cc. EventsV1Row maps an events.k8s.io/v1 Event onto the core/v1 fields first.
Row PodRow(const Json& pod, Time now);
Row StatefulSetRow(const Json& sts, Time now);
Row ServiceRow(const Json& svc, Time now);
Row NodeRow(const Json& node, Time now);
Row NamespaceRow(const Json& ns, Time now);
Row CoreEventRow(const Json& event, Time now);
Row EventsV1Row(const Json& event, Time now);
Row ControllerRevisionRow(const Json& rev, Time now);
Row LeaseRow(const Json& lease, Time now);
Row PriorityClassRow(const Json& pc, Time now);
Row PodDisruptionBudgetRow(const Json& pdb, Time now);
Row ConfigMapRow(const Json& cm, Time now);
Row ResourceQuotaRow(const Json& quota, Time now);
Row SecretRow(const Json& secret, Time now);
Row ServiceAccountRow(const Json& sa, Time now);
Row PersistentVolumeClaimRow(const Json& pvc, Time now);
Row DeploymentRow(const Json& deploy, Time now);
Row ReplicaSetRow(const Json& set, Time now);
Row RoleBindingRow(const Json& binding, Time now);          // RoleBinding and ClusterRoleBinding
Row WebhookConfigurationRow(const Json& config, Time now);  // Mutating and Validating
Row JobRow(const Json& job, Time now);                      // printJob (table_workload_rows.cc)
Row DaemonSetRow(const Json& set, Time now);                // printDaemonSet

// Row helpers the row functions share: a row of `cells`; layoutContainerCells (container names
// and images, comma separated); metav1.LabelSelectorAsSelector(spec.selector).String().
Row Cells(std::initializer_list<Json> cells);
std::pair<std::string, std::string> ContainerCells(const Json& containers);
std::string SelectorCell(const Json& object);

// JSON readers: the value at `path` below `object` when every step is an object member.
const Json* At(const Json& object, std::initializer_list<std::string_view> path);
std::string StringAt(const Json& object, std::initializer_list<std::string_view> path);
std::int64_t IntAt(const Json& object, std::initializer_list<std::string_view> path);
// The array at `path`, or an empty array.
const Json& ArrayAt(const Json& object, std::initializer_list<std::string_view> path);
// The parsed time at `path`, or nullopt when absent or unreadable.
std::optional<Time> TimeAt(const Json& object, std::initializer_list<std::string_view> path);

// metadata.name and the Age of metadata.creationTimestamp.
std::string NameOf(const Json& object);
std::string AgeOf(const Json& object, Time now);
// labels.FormatLabels: "a=1,b=2" in key order, "<none>" when empty.
std::string FormatLabels(const Json& map);

}  // namespace lws::apiserver::table_internal
