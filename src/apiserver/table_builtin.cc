// Built-in printers: the column definitions of kubernetes
// pkg/printers/internalversion/printers.go for the resources the registry serves, wide
// (priority 1) columns included. Descriptions quote the API documentation: the literal ones of
// printers.go exactly, the SwaggerDoc ones by their first sentence. The row functions are in
// table_rows.cc (pods: table_pod.cc).
#include <map>

#include "apiserver/table_printers.h"

namespace lws::apiserver::table_internal {

const char kNameDescription[] =
    "Name must be unique within a namespace. Is required when creating resources, although some "
    "resources may allow a client to request the generation of an appropriate name "
    "automatically. Name is primarily intended for creation idempotence and configuration "
    "definition. Cannot be updated. More info: "
    "https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names";
const char kCreationTimestampDescription[] =
    "CreationTimestamp is a timestamp representing the server time when this object was "
    "created. It is not guaranteed to be set in happens-before order across separate operations. "
    "Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\n"
    "Populated by the system. Read-only. Null for lists. More info: "
    "https://git.k8s.io/community/contributors/devel/sig-architecture/"
    "api-conventions.md#metadata";

namespace {

api::PrinterColumn Col(std::string name, std::string description, int priority = 0,
                       std::string type = "string") {
  api::PrinterColumn c;
  c.name = std::move(name);
  c.type = std::move(type);
  c.description = std::move(description);
  c.priority = priority;
  return c;
}

api::PrinterColumn NameCol(int priority = 0) {
  api::PrinterColumn c = Col("Name", kNameDescription, priority);
  c.format = "name";
  return c;
}

api::PrinterColumn AgeCol() { return Col("Age", kCreationTimestampDescription); }

const char kContainersDescription[] = "Names of each container in the template.";
const char kImagesDescription[] = "Images referenced by each container in the template.";

Printer PodPrinter() {
  return {
      {NameCol(), Col("Ready", "The aggregate readiness state of this pod for accepting traffic."),
       Col("Status", "The aggregate status of the containers in this pod."),
       Col("Restarts",
           "The number of times the containers in this pod have been restarted and when the "
           "last container in this pod has restarted."),
       AgeCol(),
       Col("IP",
           "podIP address allocated to the pod. Routable at least within the cluster. Empty "
           "if not yet allocated.",
           1),
       Col("Node",
           "NodeName is a request to schedule this pod onto a specific node. If it is "
           "non-empty, the scheduler simply schedules this pod onto that node, assuming that "
           "it fits resource requirements.",
           1),
       Col("Nominated Node",
           "nominatedNodeName is set only when this pod preempts other pods on the node, but "
           "it cannot be scheduled right away as preemption victims receive their graceful "
           "termination periods. This field does not guarantee that the pod will be scheduled "
           "on this node. Scheduler may decide to place the pod elsewhere if other nodes "
           "become available sooner. Scheduler may also decide to give the resources on this "
           "node to a higher priority pod that is created after preemption. As a result, this "
           "field may be different than PodSpec.nodeName when the pod is scheduled.",
           1),
       Col("Readiness Gates",
           "If specified, all readiness gates will be evaluated for pod readiness. A pod is "
           "ready when all its containers are ready AND all conditions specified in the "
           "readiness gates have status equal to \"True\" More info: "
           "https://git.k8s.io/enhancements/keps/sig-network/580-pod-readiness-gates",
           1)},
      PodRow};
}

Printer ServicePrinter() {
  return {
      {NameCol(), Col("Type", "type determines how the Service is exposed. Defaults to ClusterIP."),
       Col("Cluster-IP",
           "clusterIP is the IP address of the service and is usually assigned randomly."),
       Col("External-IP",
           "externalIPs is a list of IP addresses for which nodes in the cluster will also "
           "accept traffic for this service."),
       Col("Port(s)", "The list of ports that are exposed by this service."), AgeCol(),
       Col("Selector",
           "Route service traffic to pods with label keys and values matching this selector.", 1)},
      ServiceRow};
}

Printer NodePrinter() {
  const char addresses[] = "List of addresses reachable to the node.";
  return {
      {NameCol(), Col("Status", "The status of the node"), Col("Roles", "The roles of the node"),
       AgeCol(), Col("Version", "Kubelet Version reported by the node."),
       Col("Internal-IP", addresses, 1), Col("External-IP", addresses, 1),
       Col("OS-Image",
           "OS Image reported by the node from /etc/os-release (e.g. Debian GNU/Linux 7 "
           "(wheezy)).",
           1),
       Col("Kernel-Version",
           "Kernel Version reported by the node from 'uname -r' (e.g. 3.16.0-0.bpo.4-amd64).", 1),
       Col("Container-Runtime",
           "ContainerRuntime Version reported by the node through runtime remote API (e.g. "
           "containerd://1.4.2).",
           1)},
      NodeRow};
}

// core/v1 and events.k8s.io/v1 events print alike; only the row function differs.
Printer EventPrinter(RowFunction row) {
  return {
      {Col("Last Seen", "The time at which the most recent occurrence of this event was recorded."),
       Col("Type", "Type of this event (Normal, Warning), new types could be added in the future"),
       Col("Reason",
           "This should be a short, machine understandable string that gives the reason for "
           "the transition into the object's current status."),
       Col("Object", "The object that this event is about."),
       Col("Subobject",
           "If referring to a piece of an object instead of an entire object, this string "
           "should contain a valid JSON/Go field access statement, such as "
           "desiredState.manifest.containers[2].",
           1),
       Col("Source",
           "The component reporting this event. Should be a short machine understandable "
           "string.",
           1),
       Col("Message", "A human-readable description of the status of this operation."),
       Col("First Seen",
           "The time at which the event was first recorded. (Time of server receipt is in "
           "TypeMeta.)",
           1),
       Col("Count", "The number of times this event has occurred.", 1), NameCol(1)},
      row};
}

Printer PersistentVolumeClaimPrinter() {
  return {
      {NameCol(), Col("Status", "phase represents the current phase of PersistentVolumeClaim."),
       Col("Volume",
           "volumeName is the binding reference to the PersistentVolume backing this claim."),
       Col("Capacity", "capacity represents the actual resources of the underlying volume."),
       Col("Access Modes",
           "accessModes contains the actual access modes the volume backing the PVC has."),
       Col("StorageClass", "StorageClass of the pvc"),
       Col("VolumeAttributesClass", "VolumeAttributesClass of the pvc"), AgeCol(),
       Col("VolumeMode", "volumeMode defines what type of volume is required by the claim.", 1)},
      PersistentVolumeClaimRow};
}

std::map<std::string, Printer> BuildPrinters() {
  const char data_description[] =
      "Data contains the %s data. Each key must consist of alphanumeric characters, '-', '_' or "
      "'.'.";
  auto data = [&](const std::string& what) {
    std::string text = data_description;
    return text.replace(text.find("%s"), 2, what);
  };
  std::map<std::string, Printer> printers;
  printers["/pods"] = PodPrinter();
  printers["/services"] = ServicePrinter();
  printers["/nodes"] = NodePrinter();
  printers["/events"] = EventPrinter(CoreEventRow);
  printers["events.k8s.io/events"] = EventPrinter(EventsV1Row);
  printers["/persistentvolumeclaims"] = PersistentVolumeClaimPrinter();
  printers["apps/statefulsets"] = {
      {NameCol(), Col("Ready", "Number of the pod with ready state"), AgeCol(),
       Col("Containers", kContainersDescription, 1), Col("Images", kImagesDescription, 1)},
      StatefulSetRow};
  printers["/namespaces"] = {{NameCol(), Col("Status", "The status of the namespace"), AgeCol()},
                             NamespaceRow};
  printers["apps/controllerrevisions"] = {
      {NameCol(), Col("Controller", "Controller of the object"),
       Col("Revision", "Revision indicates the revision of the state represented by Data."),
       AgeCol()},
      ControllerRevisionRow};
  printers["coordination.k8s.io/leases"] = {
      {NameCol(),
       Col("Holder", "holderIdentity contains the identity of the holder of a current lease."),
       AgeCol()},
      LeaseRow};
  printers["scheduling.k8s.io/priorityclasses"] = {
      {NameCol(),
       Col("Value",
           "value represents the integer value of this priority class. This is the actual priority "
           "that pods receive when they have the name of this class in their pod spec.",
           0, "integer"),
       Col("Global-Default",
           "globalDefault specifies whether this PriorityClass should be considered as the default "
           "priority for pods that do not have any priority class. Only one PriorityClass can be "
           "marked as `globalDefault`. However, if more than one PriorityClasses exists with their "
           "`globalDefault` field set to true, the smallest value of such global default "
           "PriorityClasses will be used as the default priority.",
           0, "boolean"),
       AgeCol(),
       Col("PreemptionPolicy",
           "preemptionPolicy is the Policy for preempting pods with lower priority. One of Never, "
           "PreemptLowerPriority. Defaults to PreemptLowerPriority if unset.")},
      PriorityClassRow};
  printers["policy/poddisruptionbudgets"] = {
      {NameCol(), Col("Min Available", "The minimum number of pods that must be available."),
       Col("Max Unavailable", "The maximum number of pods that may be unavailable."),
       Col("Allowed Disruptions", "Calculated number of pods that may be disrupted at this time.",
           0, "integer"),
       AgeCol()},
      PodDisruptionBudgetRow};
  printers["/configmaps"] = {{NameCol(), Col("Data", data("configuration")), AgeCol()},
                             ConfigMapRow};
  printers["/resourcequotas"] = {
      {NameCol(), AgeCol(),
       Col("Request",
           "Request represents a minimum amount of cpu/memory that a container may consume."),
       Col("Limit",
           "Limits control the maximum amount of cpu/memory that a container may use independent "
           "of contention on the node.")},
      ResourceQuotaRow};
  printers["/secrets"] = {
      {NameCol(), Col("Type", "Used to facilitate programmatic handling of secret data."),
       Col("Data", data("secret")), AgeCol()},
      SecretRow};
  printers["/serviceaccounts"] = {
      {NameCol(),
       Col("Secrets",
           "Secrets is a list of the secrets in the same namespace that pods running using this "
           "ServiceAccount are allowed to use."),
       AgeCol()},
      ServiceAccountRow};
  printers["apps/deployments"] = {
      {NameCol(), Col("Ready", "Number of the pod with ready state"),
       Col("Up-to-date",
           "Total number of non-terminated pods targeted by this deployment that have the desired "
           "template spec."),
       Col("Available",
           "Total number of available pods (ready for at least minReadySeconds) targeted by this "
           "deployment."),
       AgeCol(), Col("Containers", kContainersDescription, 1), Col("Images", kImagesDescription, 1),
       Col("Selector", "Label selector for pods.", 1)},
      DeploymentRow};
  printers["apps/replicasets"] = {
      {NameCol(), Col("Desired", "Replicas is the number of desired pods.", 0, "integer"),
       Col("Current", "Replicas is the most recently observed number of non-terminating pods.", 0,
           "integer"),
       Col("Ready",
           "The number of non-terminating pods targeted by this ReplicaSet with a Ready "
           "Condition.",
           0, "integer"),
       AgeCol(), Col("Containers", kContainersDescription, 1), Col("Images", kImagesDescription, 1),
       Col("Selector", "Label selector for pods.", 1)},
      ReplicaSetRow};
  printers["batch/jobs"] = {
      {NameCol(), Col("Status", "Status of the job."),
       Col("Completions", "The number of pods which reached phase Succeeded."),
       Col("Duration", "Time required to complete the job."), AgeCol(),
       Col("Containers", kContainersDescription, 1), Col("Images", kImagesDescription, 1),
       Col("Selector", "A label query over pods that should match the pod count.", 1)},
      JobRow};
  printers["apps/daemonsets"] = {
      {NameCol(),
       Col("Desired",
           "The total number of nodes that should be running the daemon pod (including nodes "
           "correctly running the daemon pod).",
           0, "integer"),
       Col("Current",
           "The number of nodes that are running at least 1 daemon pod and are supposed to run "
           "the daemon pod.",
           0, "integer"),
       Col("Ready",
           "numberReady is the number of nodes that should be running the daemon pod and have one "
           "or more of the daemon pod running with a Ready Condition.",
           0, "integer"),
       Col("Up-to-date", "The total number of nodes that are running updated daemon pod", 0,
           "integer"),
       Col("Available",
           "The number of nodes that should be running the daemon pod and have one or more of the "
           "daemon pod running and available (ready for at least spec.minReadySeconds)",
           0, "integer"),
       Col("Node Selector",
           "NodeSelector is a selector which must be true for the pod to fit on a node."),
       AgeCol(), Col("Containers", kContainersDescription, 1), Col("Images", kImagesDescription, 1),
       Col("Selector", "A label query over pods that are managed by the daemon set.", 1)},
      DaemonSetRow};
  // Roles and ClusterRoles have no printer upstream: the default Name / Created At table.
  auto bindings = [&](const char* kind, const char* role_ref) {
    std::string k(kind);
    return Printer{{NameCol(), Col("Role", role_ref), AgeCol(),
                    Col("Users", "Users in the " + k, 1), Col("Groups", "Groups in the " + k, 1),
                    Col("ServiceAccounts", "ServiceAccounts in the " + k, 1)},
                   RoleBindingRow};
  };
  printers["rbac.authorization.k8s.io/rolebindings"] = bindings(
      "roleBinding",
      "RoleRef can reference a Role in the current namespace or a ClusterRole in the global "
      "namespace.");
  printers["rbac.authorization.k8s.io/clusterrolebindings"] = bindings(
      "clusterRoleBinding", "RoleRef can only reference a ClusterRole in the global namespace.");
  const Printer webhooks = {
      {NameCol(),
       Col("Webhooks", "Webhooks indicates the number of webhooks registered in this configuration",
           0, "integer"),
       AgeCol()},
      WebhookConfigurationRow};
  printers["admissionregistration.k8s.io/mutatingwebhookconfigurations"] = webhooks;
  printers["admissionregistration.k8s.io/validatingwebhookconfigurations"] = webhooks;
  return printers;
}

}  // namespace

const Printer* FindBuiltinPrinter(const api::ResourceInfo& resource) {
  static const std::map<std::string, Printer>* const printers =
      new std::map<std::string, Printer>(BuildPrinters());
  if (resource.version != "v1") return nullptr;
  auto it = printers->find(resource.group + "/" + resource.resource);
  return it == printers->end() ? nullptr : &it->second;
}

}  // namespace lws::apiserver::table_internal
