// Go's json.Marshal of typed Kubernetes values: upstream LWS's DisaggregatedSet naming vector, a
// pod template whose expected bytes were worked out from core/v1 types.go rule by rule, Go's
// escaping and map order, and every round-trip fixture of testdata/k8s-api reproduced byte for
// byte (those files are Go's marshal output of typed objects, in Go field order).
#include "api/protobuf/go_typed_json.h"

#include <gtest/gtest.h>
#include <openssl/evp.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "api/go_json.h"
#include "api/protobuf/envelope.h"
#include "api/protobuf/fixture_testing.h"
#include "api/protobuf/json_proto.h"
#include "api/protobuf/kube_types.h"
#include "testdata/testdata_dir.h"

namespace lws::api::protobuf {
namespace {

constexpr std::string_view kPodTemplateSpec = "k8s.io.api.core.v1.PodTemplateSpec";
constexpr std::string_view kPvc = "k8s.io.api.core.v1.PersistentVolumeClaim";

std::string Marshal(const Json& object, std::string_view type) {
  Result<std::string> bytes = MarshalGoTyped(object, type);
  EXPECT_TRUE(bytes.ok()) << bytes.status().message();
  return bytes.ok() ? *bytes : std::string();
}

std::string Sha256Hex(std::string_view bytes) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int size = 0;
  EVP_Digest(bytes.data(), bytes.size(), digest, &size, EVP_sha256(), nullptr);
  static constexpr char kHex[] = "0123456789abcdef";
  std::string hex;
  for (unsigned int i = 0; i < size; ++i) {
    hex.push_back(kHex[digest[i] >> 4]);
    hex.push_back(kHex[digest[i] & 0xf]);
  }
  return hex;
}

// upstream pkg/utils/disaggregatedset/naming_test.go, TestComputeRevisionV1Compatibility.
const Json kUpstreamTemplate =
    Json::parse(R"({"spec":{"containers":[{"name":"main","image":"image:v1"}]}})");

TEST(GoTypedJson, UpstreamPodTemplateVector) {
  // ObjectMeta and Container.resources are Go structs: written empty. creationTimestamp is
  // omitzero, so the empty metadata stays {} (before Go 1.24 it was {"creationTimestamp":null}).
  EXPECT_EQ(
      Marshal(kUpstreamTemplate, kPodTemplateSpec),
      R"({"metadata":{},"spec":{"containers":[{"name":"main","image":"image:v1","resources":{}}]}})");
}

TEST(GoTypedJson, UpstreamRevisionHashPrefix) {
  const pb::Descriptor* type =
      KubeTypes::Get().pool().FindMessageTypeByName(std::string(kPodTemplateSpec));
  ASSERT_NE(type, nullptr);
  // The Go value upstream hashes: []struct{Name string; Template struct{WorkerTemplate
  // PodTemplateSpec; Size int}}, the fields it leaves empty omitted.
  std::string bytes = "[";
  for (const char* role : {"prefill", "decode"}) {
    if (bytes.size() > 1) bytes += ",";
    bytes += R"({"name":")" + std::string(role) + R"(","template":{"workerTemplate":)";
    ASSERT_TRUE(AppendGoTyped(kUpstreamTemplate, type, &bytes).ok());
    bytes += R"(,"size":2}})";
  }
  bytes += "]";
  EXPECT_EQ(Sha256Hex(bytes).substr(0, 8), "c51abc75") << bytes;
}

TEST(GoTypedJson, ZeroValuesFollowTheGoType) {
  // PodSpec.containers has no omitempty: a nil slice prints null; spec is a struct, so written.
  EXPECT_EQ(Marshal(Json::object(), kPodTemplateSpec),
            R"({"metadata":{},"spec":{"containers":null}})");
  EXPECT_EQ(Marshal(Json(), kPodTemplateSpec), R"({"metadata":{},"spec":{"containers":null}})");
  // An empty list is not nil: [] stays.
  EXPECT_EQ(Marshal(Json::parse(R"({"spec":{"containers":[]}})"), kPodTemplateSpec),
            R"({"metadata":{},"spec":{"containers":[]}})");
  // A null list item is the zero Container: its always-written name and struct resources.
  EXPECT_EQ(Marshal(Json::parse(R"({"spec":{"containers":[null]}})"), kPodTemplateSpec),
            R"({"metadata":{},"spec":{"containers":[{"name":"","resources":{}}]}})");
  // HTTPGetAction.port is an IntOrString struct (0 when unset); GRPCAction.service is a *string
  // and ProjectedVolumeSource.sources a slice, both without omitempty (null when nil).
  const Json probes = Json::parse(R"({"spec":{
    "volumes":[{"name":"p","projected":{}}],
    "containers":[{"name":"m","livenessProbe":{"grpc":{"port":9000}},
                   "readinessProbe":{"httpGet":{"path":"/"}}}]}})");
  EXPECT_EQ(Marshal(probes, kPodTemplateSpec),
            R"({"metadata":{},"spec":{"volumes":[{"name":"p","projected":{"sources":null}}],)"
            R"("containers":[{"name":"m","resources":{},)"
            R"("livenessProbe":{"grpc":{"port":9000,"service":null}},)"
            R"("readinessProbe":{"httpGet":{"path":"/","port":0}}}]}})");
}

TEST(GoTypedJson, RicherPodTemplateWorkedOutFromTypesGo) {
  const Json input = Json::parse(R"({
    "metadata": {"labels": {"b": "2", "a": "1"}, "annotations": {"note": "x<y & z>w"},
                 "creationTimestamp": null},
    "spec": {
      "unknownField": 1,
      "restartPolicy": "Always",
      "terminationGracePeriodSeconds": 0,
      "tolerations": [{"key": "k", "operator": "Exists", "effect": "NoSchedule"}],
      "affinity": {"nodeAffinity": {"preferredDuringSchedulingIgnoredDuringExecution":
                                    [{"weight": 1, "preference": {}}]}},
      "volumes": [{"name": "data", "emptyDir": {}},
                  {"name": "cfg", "configMap": {"name": "c", "defaultMode": 420}}],
      "containers": [{
        "securityContext": {"privileged": false, "runAsUser": 0},
        "readinessProbe": {"httpGet": {"path": "/healthz", "port": 8080},
                           "periodSeconds": 0, "initialDelaySeconds": 5},
        "livenessProbe": {"tcpSocket": {"port": "http"}},
        "resources": {"limits": {"nvidia.com/gpu": "1", "cpu": "1000m"},
                      "requests": {"memory": "0.5Gi"}},
        "env": [{"name": "A", "value": ""},
                {"name": "B", "valueFrom": {"fieldRef": {"fieldPath": "metadata.name"}}},
                {"name": "C", "valueFrom": {"resourceFieldRef": {"resource": "limits.cpu"}}}],
        "ports": [{"containerPort": 0}, {"protocol": "TCP", "name": "http", "containerPort": 8080}],
        "image": "img",
        "name": "main"
      }]
    }
  })");
  const std::string expected =
      // ObjectMeta: labels and annotations are maps (keys sorted); creationTimestamp null is the
      // zero Time, left out by omitzero; `<`, `&`, `>` escaped as Go's HTMLEscape does.
      R"({"metadata":{"labels":{"a":"1","b":"2"},"annotations":{"note":"x\u003cy \u0026 z\u003ew"}},)"
      // PodSpec in declaration order: volumes first. Volume.name, then VolumeSource inline:
      // emptyDir is a pointer set to an empty struct ({}); ConfigMapVolumeSource's inline
      // LocalObjectReference gives "name", defaultMode is a pointer.
      R"("spec":{"volumes":[{"name":"data","emptyDir":{}},)"
      R"({"name":"cfg","configMap":{"name":"c","defaultMode":420}}],)"
      // Container in declaration order; the input's key order does not matter.
      R"("containers":[{"name":"main","image":"img",)"
      // containerPort has no omitempty (0 written); name, protocol omitempty.
      R"("ports":[{"containerPort":0},{"name":"http","containerPort":8080,"protocol":"TCP"}],)"
      // value "" omitted (omitempty); ResourceFieldSelector.divisor is a Quantity struct: "0".
      R"("env":[{"name":"A"},{"name":"B","valueFrom":{"fieldRef":{"fieldPath":"metadata.name"}}},)"
      R"({"name":"C","valueFrom":{"resourceFieldRef":{"resource":"limits.cpu","divisor":"0"}}}],)"
      // ResourceList keys sorted; quantities canonical: 1000m is 1, 0.5Gi is 512Mi.
      R"("resources":{"limits":{"cpu":"1","nvidia.com/gpu":"1"},"requests":{"memory":"512Mi"}},)"
      // livenessProbe before readinessProbe; ProbeHandler inline; IntOrString as string or
      // number; periodSeconds 0 omitted (omitempty int32).
      R"("livenessProbe":{"tcpSocket":{"port":"http"}},)"
      R"("readinessProbe":{"httpGet":{"path":"/healthz","port":8080},"initialDelaySeconds":5},)"
      // Pointer bool false and pointer int 0 are set, so written.
      R"("securityContext":{"privileged":false,"runAsUser":0}}],)"
      // restartPolicy, then the pointer terminationGracePeriodSeconds 0; unknownField dropped.
      R"("restartPolicy":"Always","terminationGracePeriodSeconds":0,)"
      // PreferredSchedulingTerm.preference is a NodeSelectorTerm struct: {}.
      R"("affinity":{"nodeAffinity":{"preferredDuringSchedulingIgnoredDuringExecution":)"
      R"([{"weight":1,"preference":{}}]}},)"
      R"("tolerations":[{"key":"k","operator":"Exists","effect":"NoSchedule"}]}})";
  EXPECT_EQ(Marshal(input, kPodTemplateSpec), expected);
}

TEST(GoTypedJson, PersistentVolumeClaimStructsAndNullPointers) {
  // spec.resources and status are structs; TypedLocalObjectReference.apiGroup is a *string
  // without omitempty (null); a condition's Times are structs (null when zero).
  const Json pvc = Json::parse(R"({
    "spec": {"dataSource": {"kind": "PersistentVolumeClaim", "name": "x"},
             "accessModes": ["ReadWriteOnce"]},
    "status": {"conditions": [{"type": "Resizing", "status": "True"}]}
  })");
  EXPECT_EQ(Marshal(pvc, kPvc),
            R"({"metadata":{},"spec":{"accessModes":["ReadWriteOnce"],"resources":{},)"
            R"("dataSource":{"apiGroup":null,"kind":"PersistentVolumeClaim","name":"x"}},)"
            R"("status":{"conditions":[{"type":"Resizing","status":"True",)"
            R"("lastProbeTime":null,"lastTransitionTime":null}]}})");
}

TEST(GoTypedJson, GoEscapingAndMapKeyOrder) {
  // Map keys sort by bytes: upper case before lower case, ASCII before UTF-8.
  const Json meta = Json::parse(R"({"labels": {"b": "1", "B": "2", "a": "3", "é": "4"},
    "annotations": {"html": "<a href=\"x\">&amp;</a>", "ls": "\u2028", "ctl": "\u0001\t"}})");
  EXPECT_EQ(Marshal(meta, "k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta"),
            "{\"labels\":{\"B\":\"2\",\"a\":\"3\",\"b\":\"1\",\"\xC3\xA9\":\"4\"},"
            "\"annotations\":{\"ctl\":\"\\u0001\\t\","
            "\"html\":\"\\u003ca href=\\\"x\\\"\\u003e\\u0026amp;\\u003c/a\\u003e\","
            "\"ls\":\"\\u2028\"}}");
}

TEST(GoTypedJson, MisfitsAreJsonToMessageErrors) {
  const Json bad = Json::parse(R"({"spec":{"containers":"main"}})");
  Result<std::string> bytes = MarshalGoTyped(bad, kPodTemplateSpec);
  ASSERT_FALSE(bytes.ok());
  const pb::Descriptor* type =
      KubeTypes::Get().pool().FindMessageTypeByName(std::string(kPodTemplateSpec));
  std::unique_ptr<pb::Message> message = KubeTypes::Get().New(type);
  EXPECT_EQ(bytes.status().ToString(), JsonToMessage(bad, message.get()).ToString());
  // Quantity.UnmarshalJSON's own error, which JsonToMessage does not check.
  Result<std::string> quantity = MarshalGoTyped(
      Json::parse(R"({"spec":{"containers":[{"name":"m","resources":{"limits":{"cpu":"x"}}}]}})"),
      kPodTemplateSpec);
  ASSERT_FALSE(quantity.ok());
  EXPECT_EQ(quantity.status().code(), Code::kBadRequest);
  EXPECT_EQ(MarshalGoTyped(Json::object(), "no.such.Type").status().code(), Code::kNotFound);
  std::string out = "kept";
  EXPECT_FALSE(AppendGoTyped(bad, type, &out).ok());
  EXPECT_EQ(out, "kept");
}

// Go's compaction of a fixture file (json.Compact keeps the text of every value): its members in
// file order with Go's string escaping.
void AppendCompact(const nlohmann::ordered_json& v, std::string* out) {
  if (v.is_object()) {
    out->push_back('{');
    for (auto it = v.begin(); it != v.end(); ++it) {
      if (it != v.begin()) out->push_back(',');
      AppendGoJsonString(it.key(), out);
      out->push_back(':');
      AppendCompact(it.value(), out);
    }
    out->push_back('}');
  } else if (v.is_array()) {
    out->push_back('[');
    for (std::size_t i = 0; i < v.size(); ++i) {
      if (i > 0) out->push_back(',');
      AppendCompact(v[i], out);
    }
    out->push_back(']');
  } else if (v.is_string()) {
    AppendGoJsonString(v.get<std::string>(), out);
  } else if (v.is_number_float()) {
    out->append(FormatGoFloat(v.get<double>()));
  } else {
    out->append(v.dump());
  }
}

TEST(GoTypedJson, EveryFixtureIsReproducedByteForByte) {
  int checked = 0;
  for (const auto& entry : std::filesystem::directory_iterator(TestdataDir() + "/k8s-api")) {
    if (entry.path().extension() != ".json") continue;
    std::ifstream in(entry.path());
    std::stringstream text;
    text << in.rdbuf();
    nlohmann::ordered_json file = nlohmann::ordered_json::parse(text.str());
    if (!HasProtobuf(file.value("apiVersion", ""), file.value("kind", ""))) continue;
    DropNewerFields(&file);
    std::string expected;
    AppendCompact(file, &expected);
    Result<std::string> bytes = MarshalGoTypedObject(Json::parse(expected));
    ASSERT_TRUE(bytes.ok()) << entry.path() << ": " << bytes.status().message();
    std::size_t at = 0;
    while (at < expected.size() && at < bytes->size() && expected[at] == (*bytes)[at]) ++at;
    EXPECT_EQ(*bytes, expected) << entry.path() << " differs at byte " << at << ": ours "
                                << bytes->substr(at, 120) << " / file " << expected.substr(at, 120);
    ++checked;
  }
  EXPECT_GE(checked, 11);
}

}  // namespace
}  // namespace lws::api::protobuf
