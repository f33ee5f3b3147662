#include "apiserver/table.h"

#include <gtest/gtest.h>

#include "api/lws_crd.h"
#include "apiserver/golden_testing.h"

namespace lws::apiserver {
namespace {

using std::chrono::hours;
using std::chrono::milliseconds;
using std::chrono::minutes;
using std::chrono::seconds;
using testing::ExpectGolden;
using testing::Fixture;

const Time kNow = *ParseRfc3339("2025-06-01T12:00:00Z");

TEST(HumanDurationTest, MatchesApimachinery) {
  const std::pair<Duration, const char*> cases[] = {
      {-seconds(3), "<invalid>"},
      {-seconds(2), "<invalid>"},
      {-milliseconds(1500), "0s"},
      {seconds(0), "0s"},
      {seconds(59), "59s"},
      {seconds(119), "119s"},
      {seconds(120), "2m"},
      {seconds(330), "5m30s"},
      {seconds(599), "9m59s"},
      {minutes(10), "10m"},
      {minutes(179), "179m"},
      {minutes(180), "3h"},
      {minutes(185), "3h5m"},
      {minutes(479), "7h59m"},
      {hours(8), "8h"},
      {hours(47), "47h"},
      {hours(48), "2d"},
      {hours(51), "2d3h"},
      {hours(191), "7d23h"},
      {hours(192), "8d"},
      {hours(24 * 729), "729d"},
      {hours(24 * 730), "2y"},
      {hours(24 * 740), "2y10d"},
      {hours(24 * 365 * 8), "8y"},
      {hours(24 * 365 * 9 + 24 * 30), "9y"},
  };
  for (const auto& [d, want] : cases) {
    EXPECT_EQ(HumanDuration(d), want) << std::chrono::duration_cast<milliseconds>(d).count();
  }
}

TEST(TimestampAgeTest, UnsetOrUnreadableIsUnknown) {
  EXPECT_EQ(TimestampAge("2025-06-01T11:55:00Z", kNow), "5m");
  EXPECT_EQ(TimestampAge("2025-06-01T13:55:00+02:00", kNow), "5m");
  EXPECT_EQ(TimestampAge("", kNow), "<unknown>");
  EXPECT_EQ(TimestampAge("yesterday", kNow), "<unknown>");
  EXPECT_EQ(TimestampAge("2025-06-01T12:00:05Z", kNow), "<invalid>");
}

TEST(IncludeObjectTest, ParsesTheThreeValues) {
  EXPECT_EQ(*ParseIncludeObject(""), IncludeObject::kMetadata);
  EXPECT_EQ(*ParseIncludeObject("Metadata"), IncludeObject::kMetadata);
  EXPECT_EQ(*ParseIncludeObject("None"), IncludeObject::kNone);
  EXPECT_EQ(*ParseIncludeObject("Object"), IncludeObject::kObject);
  EXPECT_EQ(ParseIncludeObject("object").status().code(), Code::kBadRequest);
}

TEST(NegotiateTableTest, TableOnlyWhenAsked) {
  const char* kKubectl =
      "application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;"
      "g=meta.k8s.io,application/json";
  TableRepresentation t = NegotiateTable(kKubectl);
  EXPECT_TRUE(t.table);
  EXPECT_EQ(t.api_version, "meta.k8s.io/v1");
  EXPECT_EQ(t.content_type, "application/json;as=Table;v=v1;g=meta.k8s.io");
  TableRepresentation beta = NegotiateTable("application/json;as=Table;v=v1beta1;g=meta.k8s.io");
  EXPECT_TRUE(beta.table);
  EXPECT_EQ(beta.api_version, "meta.k8s.io/v1beta1");
  EXPECT_EQ(beta.content_type, "application/json;as=Table;v=v1beta1;g=meta.k8s.io");
  for (const char* plain :
       {"application/json", "application/json, */*", "",
        "application/vnd.kubernetes.protobuf,application/json",
        "application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io,application/json",
        "application/json;as=Table;v=v2;g=meta.k8s.io",
        "application/json,application/json;as=Table;v=v1;g=meta.k8s.io"}) {
    TableRepresentation r = NegotiateTable(plain);
    EXPECT_FALSE(r.table) << plain;
    EXPECT_EQ(r.content_type, "application/json") << plain;
  }
}

class TableTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(registry_.AddCustomResource(api::LwsCrd()).ok());
    options_.now = kNow;
  }
  const api::ResourceInfo& R(const std::string& group, const std::string& resource) {
    return *registry_.Find(group, "v1", resource);
  }
  api::ResourceRegistry registry_ = api::ResourceRegistry::WithBuiltins();
  TableOptions options_;
};

// Every field of every fixture populated: the whole Table document is the golden.
TEST_F(TableTest, FixtureTablesMatchGoldens) {
  const std::tuple<const char*, const char*, const char*> fixtures[] = {
      {"core.v1.Pod.json", "", "pods"},
      {"apps.v1.StatefulSet.json", "apps", "statefulsets"},
      {"core.v1.Service.json", "", "services"},
      {"core.v1.Node.json", "", "nodes"},
      {"core.v1.Namespace.json", "", "namespaces"},
      {"core.v1.Event.json", "", "events"},
      {"apps.v1.ControllerRevision.json", "apps", "controllerrevisions"},
      {"coordination.k8s.io.v1.Lease.json", "coordination.k8s.io", "leases"},
      {"core.v1.ServiceAccount.json", "", "serviceaccounts"},
  };
  for (const auto& [file, group, resource] : fixtures) {
    Json object = Fixture(file);
    ASSERT_TRUE(object.is_object()) << file;
    ExpectGolden(std::string("table_") + file,
                 TableForObject(R(group, resource), object, options_));
  }
}

TEST_F(TableTest, ListTableCarriesListMetadataAndOneRowPerItem) {
  Json list = Json::parse(R"({"kind":"ConfigMapList","apiVersion":"v1",
    "metadata":{"resourceVersion":"103","continue":"tok","remainingItemCount":4},
    "items":[
      {"metadata":{"name":"a","namespace":"ns","uid":"u1","creationTimestamp":"2025-06-01T11:00:00Z"},
       "data":{"x":"1","y":"2"},"binaryData":{"z":"AA=="}},
      {"metadata":{"name":"b","namespace":"ns","creationTimestamp":"2025-05-30T12:00:00Z"}}]})");
  Json table = TableForList(R("", "configmaps"), list, options_);
  EXPECT_EQ(table["kind"], "Table");
  EXPECT_EQ(table["apiVersion"], "meta.k8s.io/v1");
  EXPECT_EQ(table["metadata"], Json::parse(R"({"resourceVersion":"103","continue":"tok"})"));
  ASSERT_EQ(table["rows"].size(), 2u);
  EXPECT_EQ(table["rows"][0]["cells"], Json::parse(R"(["a",3,"60m"])"));
  EXPECT_EQ(table["rows"][1]["cells"], Json::parse(R"(["b",0,"2d"])"));
  EXPECT_EQ(table["rows"][0]["object"], Json::parse(R"({"kind":"PartialObjectMetadata",
      "apiVersion":"meta.k8s.io/v1","metadata":{"name":"a","namespace":"ns","uid":"u1",
      "creationTimestamp":"2025-06-01T11:00:00Z"}})"));
  EXPECT_EQ(TableForList(R("", "configmaps"), Json::parse(R"({"items":[]})"), options_)["rows"],
            Json::array());
}

TEST_F(TableTest, IncludeObjectAndHeaders) {
  Json secret = Json::parse(R"({"apiVersion":"v1","kind":"Secret","metadata":{"name":"s",
      "resourceVersion":"7","creationTimestamp":"2025-06-01T11:59:00Z"},"data":{"k":"dg=="}})");
  options_.include_object = IncludeObject::kObject;
  Json full = TableForObject(R("", "secrets"), secret, options_);
  EXPECT_EQ(full["rows"][0]["object"], secret);
  EXPECT_EQ(full["rows"][0]["cells"], Json::parse(R"(["s","Opaque",1,"60s"])"));
  EXPECT_EQ(full["metadata"], Json::parse(R"({"resourceVersion":"7"})"));
  options_.include_object = IncludeObject::kNone;
  options_.no_headers = true;
  options_.api_version = "meta.k8s.io/v1beta1";
  Json bare = TableForObject(R("", "secrets"), secret, options_);
  EXPECT_TRUE(bare["rows"][0]["object"].is_null());
  EXPECT_TRUE(bare["columnDefinitions"].is_null());
  EXPECT_EQ(bare["apiVersion"], "meta.k8s.io/v1beta1");
}

TEST_F(TableTest, WatchEventIsAOneRowTable) {
  Json lease = Json::parse(R"({"apiVersion":"coordination.k8s.io/v1","kind":"Lease",
      "metadata":{"name":"l","namespace":"kube-system","resourceVersion":"128",
      "creationTimestamp":"2025-06-01T11:00:00Z"},"spec":{"holderIdentity":"me"}})");
  Json first = TableWatchEvent("ADDED", R("coordination.k8s.io", "leases"), lease, options_);
  EXPECT_EQ(first["type"], "ADDED");
  EXPECT_EQ(first["object"]["metadata"]["resourceVersion"], "128");
  EXPECT_EQ(first["object"]["columnDefinitions"].size(), 3u);
  EXPECT_EQ(first["object"]["rows"][0]["cells"], Json::parse(R"(["l","me","60m"])"));
  options_.no_headers = true;
  Json later = TableWatchEvent("MODIFIED", R("coordination.k8s.io", "leases"), lease, options_);
  EXPECT_TRUE(later["object"]["columnDefinitions"].is_null());
  EXPECT_EQ(later["object"]["rows"].size(), 1u);
}

TEST_F(TableTest, EveryBuiltinResourceHasItsColumns) {
  const std::map<std::string, std::vector<std::string>> want = {
      {"pods",
       {"Name", "Ready", "Status", "Restarts", "Age", "IP", "Node", "Nominated Node",
        "Readiness Gates"}},
      {"statefulsets", {"Name", "Ready", "Age", "Containers", "Images"}},
      {"services", {"Name", "Type", "Cluster-IP", "External-IP", "Port(s)", "Age", "Selector"}},
      {"nodes",
       {"Name", "Status", "Roles", "Age", "Version", "Internal-IP", "External-IP", "OS-Image",
        "Kernel-Version", "Container-Runtime"}},
      {"namespaces", {"Name", "Status", "Age"}},
      {"events",
       {"Last Seen", "Type", "Reason", "Object", "Subobject", "Source", "Message", "First Seen",
        "Count", "Name"}},
      {"controllerrevisions", {"Name", "Controller", "Revision", "Age"}},
      {"leases", {"Name", "Holder", "Age"}},
      {"priorityclasses", {"Name", "Value", "Global-Default", "Age", "PreemptionPolicy"}},
      {"configmaps", {"Name", "Data", "Age"}},
      {"resourcequotas", {"Name", "Age", "Request", "Limit"}},
      {"secrets", {"Name", "Type", "Data", "Age"}},
      {"serviceaccounts", {"Name", "Secrets", "Age"}},
      {"persistentvolumeclaims",
       {"Name", "Status", "Volume", "Capacity", "Access Modes", "StorageClass",
        "VolumeAttributesClass", "Age", "VolumeMode"}},
      {"customresourcedefinitions", {"Name", "Created At"}},
      {"deployments",
       {"Name", "Ready", "Up-to-date", "Available", "Age", "Containers", "Images", "Selector"}},
      {"replicasets",
       {"Name", "Desired", "Current", "Ready", "Age", "Containers", "Images", "Selector"}},
      {"jobs",
       {"Name", "Status", "Completions", "Duration", "Age", "Containers", "Images", "Selector"}},
      {"daemonsets",
       {"Name", "Desired", "Current", "Ready", "Up-to-date", "Available", "Node Selector", "Age",
        "Containers", "Images", "Selector"}},
      {"poddisruptionbudgets",
       {"Name", "Min Available", "Max Unavailable", "Allowed Disruptions", "Age"}},
      {"clusterroles", {"Name", "Created At"}},
      {"roles", {"Name", "Created At"}},
      {"clusterrolebindings", {"Name", "Role", "Age", "Users", "Groups", "ServiceAccounts"}},
      {"rolebindings", {"Name", "Role", "Age", "Users", "Groups", "ServiceAccounts"}},
      {"mutatingwebhookconfigurations", {"Name", "Webhooks", "Age"}},
      {"validatingwebhookconfigurations", {"Name", "Webhooks", "Age"}},
      {"leaderworkersets", {"Name", "Ready", "Desired", "Up-to-date", "Age"}},
  };
  for (const api::ResourceInfo* r : registry_.All()) {
    if (r->create_only) continue;  // reviews are never listed, so never printed
    std::vector<std::string> names;
    for (const auto& c : TableColumns(*r)) names.push_back(c.name);
    ASSERT_TRUE(want.count(r->resource)) << r->resource;
    EXPECT_EQ(names, want.at(r->resource)) << r->GroupResource();
  }
  std::vector<int> wide;
  for (const auto& c : TableColumns(R("", "pods"))) wide.push_back(c.priority);
  EXPECT_EQ(wide, (std::vector<int>{0, 0, 0, 0, 0, 1, 1, 1, 1}));
}

TEST_F(TableTest, LeaderWorkerSetUsesItsPrinterColumns) {
  const auto& lws = R("leaderworkerset.x-k8s.io", "leaderworkersets");
  Json object = Json::parse(R"({"apiVersion":"leaderworkerset.x-k8s.io/v1","kind":"LeaderWorkerSet",
      "metadata":{"name":"l1","namespace":"default","resourceVersion":"103",
                  "creationTimestamp":"2025-06-01T11:59:51Z"},
      "spec":{"replicas":2},"status":{"readyReplicas":1}})");
  Json table = TableForObject(lws, object, options_);
  EXPECT_EQ(table["rows"][0]["cells"], Json::parse(R"(["l1",1,2,null,"9s"])"));
  ExpectGolden("table_leaderworkerset.json", table);
}

TEST_F(TableTest, CustomColumnsFormatByType) {
  Json crd = Json::parse(R"({"spec":{"group":"example.com","scope":"Cluster",
    "names":{"plural":"widgets","kind":"Widget"},
    "versions":[{"name":"v1","served":true,"additionalPrinterColumns":[
      {"name":"Int","type":"integer","jsonPath":".spec.f"},
      {"name":"Num","type":"number","jsonPath":".spec.i"},
      {"name":"Bool","type":"boolean","jsonPath":".spec.b"},
      {"name":"Str","type":"string","jsonPath":".spec.i"},
      {"name":"Obj","type":"string","jsonPath":".spec.o","priority":1,"description":"an object"},
      {"name":"Null","type":"string","jsonPath":".spec.n"},
      {"name":"Date","type":"date","jsonPath":".status.at"},
      {"name":"BadDate","type":"date","jsonPath":".spec.s"},
      {"name":"Mistyped","type":"integer","jsonPath":".spec.s"},
      {"name":"Ready","type":"string","jsonPath":".status.conditions[?(@.type==\"Ready\")].status"},
      {"name":"OutOfRange","type":"string","jsonPath":".status.conditions[3].status"}]}]}})");
  ASSERT_TRUE(registry_.AddCustomResource(crd).ok());
  const auto& widgets = *registry_.Find("example.com", "v1", "widgets");
  Json object = Json::parse(R"({"metadata":{"name":"w"},
      "spec":{"f":2.9,"i":3,"b":true,"o":{"k":"v","n":1},"n":null,"s":"soon"},
      "status":{"at":"2025-06-01T09:00:00Z","conditions":[{"type":"Ready","status":"True"}]}})");
  Json table = TableForObject(widgets, object, options_);
  EXPECT_EQ(table["rows"][0]["cells"], Json::parse(R"(
      ["w",2,3.0,true,"3","{\"k\":\"v\",\"n\":1}","<no value>","3h","<invalid>",null,"True",null])"));
  const Json& columns = table["columnDefinitions"];
  EXPECT_EQ(columns[1]["description"],
            "Custom resource definition column (in JSONPath format): .spec.f");
  EXPECT_EQ(columns[5]["description"], "an object");
  EXPECT_EQ(columns[5]["priority"], 1);
  EXPECT_EQ(columns[0]["format"], "name");
}

TEST_F(TableTest, CustomResourceWithoutColumnsShowsAge) {
  Json crd = Json::parse(R"({"spec":{"group":"example.com","scope":"Namespaced",
    "names":{"plural":"gadgets","kind":"Gadget"},"versions":[{"name":"v1","served":true}]}})");
  ASSERT_TRUE(registry_.AddCustomResource(crd).ok());
  const auto& gadgets = *registry_.Find("example.com", "v1", "gadgets");
  Json table = TableForObject(
      gadgets,
      Json::parse(R"({"metadata":{"name":"g","creationTimestamp":"2025-05-31T12:00:00Z"}})"),
      options_);
  EXPECT_EQ(table["rows"][0]["cells"], Json::parse(R"(["g","24h"])"));
  EXPECT_EQ(table["columnDefinitions"][1]["type"], "date");
  EXPECT_EQ(table["columnDefinitions"][1]["description"].get<std::string>().substr(0, 17),
            "CreationTimestamp");
}

TEST_F(TableTest, CustomResourceDefinitionsUseTheDefaultConvertor) {
  Json crd = api::LwsCrd();
  crd["metadata"]["creationTimestamp"] = "2025-01-02T03:04:05+01:00";
  Json table =
      TableForObject(R("apiextensions.k8s.io", "customresourcedefinitions"), crd, options_);
  EXPECT_EQ(table["rows"][0]["cells"],
            Json::parse(R"(["leaderworkersets.leaderworkerset.x-k8s.io","2025-01-02T02:04:05Z"])"));
  EXPECT_EQ(table["columnDefinitions"][1]["name"], "Created At");
}

TEST_F(TableTest, ServiceCells) {
  auto cells = [&](const std::string& spec, const std::string& status = "{}") {
    Json svc =
        Json::parse(R"({"metadata":{"name":"s","creationTimestamp":"2025-06-01T11:00:00Z"}})");
    svc["spec"] = Json::parse(spec);
    svc["status"] = Json::parse(status);
    return TableForObject(R("", "services"), svc, options_)["rows"][0]["cells"];
  };
  EXPECT_EQ(
      cells(R"({"clusterIP":"10.96.0.10","clusterIPs":["10.96.0.10"],"selector":{"b":"2","a":"1"},
                      "ports":[{"port":53,"protocol":"UDP"},{"port":53,"protocol":"TCP"}]})"),
      Json::parse(R"(["s","ClusterIP","10.96.0.10","<none>","53/UDP,53/TCP","60m","a=1,b=2"])"));
  EXPECT_EQ(cells(R"({"clusterIP":"None","ports":[{"port":80}]})"),
            Json::parse(R"(["s","ClusterIP","None","<none>","80/TCP","60m","<none>"])"));
  EXPECT_EQ(cells(R"({"type":"NodePort","clusterIP":"10.0.0.1","externalIPs":["1.2.3.4"],
                      "ports":[{"port":80,"nodePort":30080,"protocol":"TCP"}]})")[3],
            "1.2.3.4");
  EXPECT_EQ(
      cells(R"({"type":"NodePort","ports":[{"port":80,"nodePort":30080,"protocol":"TCP"}]})")[4],
      "80:30080/TCP");
  EXPECT_EQ(cells(R"({"type":"LoadBalancer"})")[3], "<pending>");
  EXPECT_EQ(
      cells(
          R"({"type":"LoadBalancer","externalIPs":["9.9.9.9"]})",
          R"({"loadBalancer":{"ingress":[{"ip":"5.5.5.5"},{"hostname":"lb.example"},{"ip":"1.1.1.1"}]}})")
          [3],
      "1.1.1.1,5.5.5.5,lb.example,9.9.9.9");
  EXPECT_EQ(cells(R"({"type":"ExternalName","externalName":"db.example"})")[3], "db.example");
  EXPECT_EQ(cells(R"({})")[4], "<none>");
}

TEST_F(TableTest, NodeStatusAndRoles) {
  auto cells = [&](const std::string& node) {
    return TableForObject(R("", "nodes"), Json::parse(node), options_)["rows"][0]["cells"];
  };
  Json ready =
      cells(R"({"metadata":{"name":"n","labels":{"node-role.kubernetes.io/control-plane":"",
      "node-role.kubernetes.io/":"x","kubernetes.io/role":"worker","node-role.kubernetes.io/a":"y"}},
      "spec":{"unschedulable":true},
      "status":{"conditions":[{"type":"MemoryPressure","status":"False"},{"type":"Ready","status":"True"}],
                "addresses":[{"type":"Hostname","address":"h"},{"type":"InternalIP","address":"10.0.0.1"}],
                "nodeInfo":{"kubeletVersion":"v1.32.0","osImage":"Debian"}}})");
  EXPECT_EQ(ready,
            Json::parse(R"(["n","Ready,SchedulingDisabled","a,control-plane,worker","<unknown>",
      "v1.32.0","10.0.0.1","<none>","Debian","<unknown>","<unknown>"])"));
  EXPECT_EQ(cells(R"({"status":{"conditions":[{"type":"Ready","status":"Unknown"}]}})")[1],
            "NotReady");
  EXPECT_EQ(cells(R"({"status":{}})")[1], "Unknown");
  EXPECT_EQ(cells(R"({"status":{}})")[2], "<none>");
}

TEST_F(TableTest, EventCells) {
  Json core = Json::parse(R"({"metadata":{"name":"e1"},"type":"Normal","reason":"Scheduled",
      "involvedObject":{"kind":"Pod","name":"p1","fieldPath":"spec.containers{c}"},
      "source":{"component":"default-scheduler"},"message":"  Successfully assigned \n",
      "firstTimestamp":"2025-06-01T11:00:00Z","lastTimestamp":"2025-06-01T11:58:00Z","count":3})");
  EXPECT_EQ(TableForObject(R("", "events"), core, options_)["rows"][0]["cells"],
            Json::parse(R"(["2m","Normal","Scheduled","pod/p1","spec.containers{c}",
                "default-scheduler","Successfully assigned","60m",3,"e1"])"));
  Json series = Json::parse(R"({"metadata":{"name":"e2"},"type":"Warning","reason":"BackOff",
      "involvedObject":{"kind":"Node"},"reportingComponent":"kubelet","reportingInstance":"n1",
      "eventTime":"2025-06-01T10:00:00.000000Z","series":{"count":7,"lastObservedTime":"2025-06-01T11:59:30.000000Z"}})");
  EXPECT_EQ(TableForObject(R("", "events"), series, options_)["rows"][0]["cells"],
            Json::parse(R"(["30s","Warning","BackOff","node","","kubelet, n1","","120m",7,"e2"])"));
  Json v1 = Json::parse(R"({"apiVersion":"events.k8s.io/v1","kind":"Event","metadata":{"name":"e3"},
      "eventTime":"2025-06-01T11:59:00.000000Z","reportingController":"lws","reportingInstance":"lws-0",
      "action":"Create","reason":"GroupsProgressing","type":"Normal","note":"Created group 0",
      "regarding":{"kind":"LeaderWorkerSet","name":"l1","namespace":"default"}})");
  EXPECT_EQ(TableForObject(R("events.k8s.io", "events"), v1, options_)["rows"][0]["cells"],
            Json::parse(R"(["60s","Normal","GroupsProgressing","leaderworkerset/l1","","lws, lws-0",
                "Created group 0","60s",1,"e3"])"));
}

TEST_F(TableTest, OperatorManifestKinds) {
  Json deploy = Json::parse(R"({"metadata":{"name":"lws-controller-manager"},"spec":{"replicas":2,
      "selector":{"matchLabels":{"control-plane":"controller-manager"},
                  "matchExpressions":[{"key":"tier","operator":"In","values":["b","a"]}]},
      "template":{"spec":{"containers":[{"name":"manager","image":"lws-cpp:latest"}]}}},
      "status":{"readyReplicas":1,"updatedReplicas":2}})");
  EXPECT_EQ(
      TableForObject(R("apps", "deployments"), deploy, options_)["rows"][0]["cells"],
      Json::parse(R"j(["lws-controller-manager","1/2",2,0,"<unknown>","manager","lws-cpp:latest",
                "control-plane=controller-manager,tier in (a,b)"])j"));
  Json binding = Json::parse(R"({"metadata":{"name":"b"},
      "roleRef":{"apiGroup":"rbac.authorization.k8s.io","kind":"ClusterRole","name":"lws-manager-role"},
      "subjects":[{"kind":"ServiceAccount","name":"lws-controller-manager","namespace":"lws-system"},
                  {"kind":"User","name":"alice"},{"kind":"User","name":"bob"},{"kind":"Group","name":"ops"}]})");
  EXPECT_EQ(TableForObject(R("rbac.authorization.k8s.io", "clusterrolebindings"), binding,
                           options_)["rows"][0]["cells"],
            Json::parse(R"(["b","ClusterRole/lws-manager-role","<unknown>","alice, bob","ops",
                "lws-system:lws-controller-manager"])"));
  Json webhooks =
      Json::parse(R"({"metadata":{"name":"w"},"webhooks":[{"name":"a"},{"name":"b"}]})");
  EXPECT_EQ(TableForObject(R("admissionregistration.k8s.io", "validatingwebhookconfigurations"),
                           webhooks, options_)["rows"][0]["cells"],
            Json::parse(R"(["w",2,"<unknown>"])"));
}

TEST_F(TableTest, SmallerBuiltins) {
  Json sts = Json::parse(R"({"metadata":{"name":"s"},"spec":{"template":{"spec":{"containers":[
      {"name":"a","image":"busybox:1"},{"name":"b","image":"nginx"}]}}},"status":{"readyReplicas":0}})");
  EXPECT_EQ(TableForObject(R("apps", "statefulsets"), sts, options_)["rows"][0]["cells"],
            Json::parse(R"(["s","0/1","<unknown>","a,b","busybox:1,nginx"])"));
  Json rev = Json::parse(R"({"metadata":{"name":"r","ownerReferences":[
      {"apiVersion":"v1","kind":"Pod","name":"x"},
      {"apiVersion":"leaderworkerset.x-k8s.io/v1","kind":"LeaderWorkerSet","name":"l1","controller":true}]},
      "revision":3})");
  EXPECT_EQ(TableForObject(R("apps", "controllerrevisions"), rev, options_)["rows"][0]["cells"][1],
            "leaderworkerset.leaderworkerset.x-k8s.io/l1");
  EXPECT_EQ(TableForObject(R("apps", "controllerrevisions"), rev, options_)["rows"][0]["cells"][2],
            3);
  Json pvc = Json::parse(
      R"({"metadata":{"name":"c","annotations":{"volume.beta.kubernetes.io/storage-class":"beta"}},
      "spec":{"volumeName":"pv1","storageClassName":"standard","volumeMode":"Filesystem"},
      "status":{"phase":"Bound","capacity":{"storage":"1Gi"},
                "accessModes":["ReadWriteMany","ReadWriteOnce","ReadWriteOnce"]}})");
  EXPECT_EQ(
      TableForObject(R("", "persistentvolumeclaims"), pvc, options_)["rows"][0]["cells"],
      Json::parse(
          R"(["c","Bound","pv1","1Gi","RWO,RWX","beta","<unset>","<unknown>","Filesystem"])"));
  Json pending = Json::parse(R"({"metadata":{"name":"c","deletionTimestamp":"2025-06-01T11:00:00Z"},
      "spec":{"storageClassName":"standard"},"status":{"phase":"Pending","capacity":{"storage":"1Gi"}}})");
  EXPECT_EQ(
      TableForObject(R("", "persistentvolumeclaims"), pending, options_)["rows"][0]["cells"],
      Json::parse(R"(["c","Terminating","","","","standard","<unset>","<unknown>","<unset>"])"));
  Json ns = Json::parse(R"({"metadata":{"name":"default"},"status":{"phase":"Active"}})");
  EXPECT_EQ(TableForObject(R("", "namespaces"), ns, options_)["rows"][0]["cells"],
            Json::parse(R"(["default","Active","<unknown>"])"));
  Json sa = Json::parse(R"({"metadata":{"name":"default"},"secrets":[{"name":"t"}]})");
  EXPECT_EQ(TableForObject(R("", "serviceaccounts"), sa, options_)["rows"][0]["cells"][1], 1);
}

}  // namespace
}  // namespace lws::apiserver
