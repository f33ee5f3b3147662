// Kubernetes protobuf: every fixture through the envelope and back, the Go rules for zero values,
// special messages, inline fields and Go's wording of type errors.
#include "api/protobuf/envelope.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "api/protobuf/fixture_testing.h"
#include "api/protobuf/json_proto.h"
#include "api/protobuf/kube_types.h"
#include "api/protobuf/proto_json.h"
#include "api/protobuf/unknown_fields.h"
#include "testdata/testdata_dir.h"

namespace lws::api::protobuf {
namespace {

Json RoundTrip(const Json& object) {
  Result<std::string> bytes = EncodeObject(object);
  EXPECT_TRUE(bytes.ok()) << bytes.status().message();
  if (!bytes.ok()) return Json();
  EXPECT_EQ(bytes->substr(0, 4), std::string("k8s\0", 4));
  Result<Json> back = DecodeObject(*bytes);
  EXPECT_TRUE(back.ok()) << back.status().message();
  return back.ok() ? *back : Json();
}

Status TypeCheck(const Json& object) {
  const pb::Descriptor* type =
      KubeTypes::Get().Find(object.value("apiVersion", ""), object.value("kind", ""));
  if (type == nullptr) return Status::NotFound("no type");
  std::unique_ptr<pb::Message> message = KubeTypes::Get().New(type);
  return JsonToMessage(object, message.get());
}

TEST(Protobuf, EveryFixtureRoundTripsToItsJson) {
  int checked = 0;
  for (const auto& entry : std::filesystem::directory_iterator(TestdataDir() + "/k8s-api")) {
    if (entry.path().extension() != ".json") continue;
    std::ifstream in(entry.path());
    std::stringstream text;
    text << in.rdbuf();
    const Json object = Json::parse(text.str());
    if (!HasProtobuf(object.value("apiVersion", ""), object.value("kind", ""))) {
      // AdmissionReview travels to webhooks in JSON only, as in Kubernetes.
      EXPECT_EQ(object.value("kind", ""), "AdmissionReview") << entry.path();
      continue;
    }
    Json expected = object;
    DropNewerFields(&expected);
    const Json back = RoundTrip(object);
    EXPECT_EQ(back, expected) << entry.path() << ": " << Json::diff(back, expected).dump();
    ++checked;
  }
  EXPECT_GE(checked, 10);
}

TEST(Protobuf, GoPointerZeroStaysNonPointerZeroGoes) {
  const Json sts = {{"apiVersion", "apps/v1"},
                    {"kind", "StatefulSet"},
                    {"metadata", {{"name", "s"}, {"generateName", ""}}},
                    {"spec",
                     {{"replicas", 0},
                      {"minReadySeconds", 0},
                      {"serviceName", ""},
                      {"template", {{"metadata", {{"creationTimestamp", nullptr}}}}}}}};
  const Json back = RoundTrip(sts);
  EXPECT_EQ(back["spec"]["replicas"], 0);
  EXPECT_FALSE(back["spec"].contains("minReadySeconds"));
  EXPECT_FALSE(back["metadata"].contains("generateName"));
}

TEST(Protobuf, ZeroTimeFromGoIsNull) {
  // Go writes a non-pointer zero Time as an empty message; its JSON is null.
  const KubeTypes& types = KubeTypes::Get();
  std::unique_ptr<pb::Message> meta = types.New(
      types.pool().FindMessageTypeByName("k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta"));
  meta->GetReflection()->MutableMessage(
      meta.get(), meta->GetDescriptor()->FindFieldByName("creationTimestamp"));
  Result<Json> json = MessageToJson(*meta);
  ASSERT_TRUE(json.ok());
  EXPECT_TRUE(json->contains("creationTimestamp"));
  EXPECT_TRUE((*json)["creationTimestamp"].is_null());
}

TEST(Protobuf, NonOmitemptyZeroIsWritten) {
  const Json pod = {{"apiVersion", "v1"},
                    {"kind", "Pod"},
                    {"metadata", {{"name", "p"}}},
                    {"status",
                     {{"containerStatuses",
                       {{{"name", "c"},
                         {"ready", false},
                         {"restartCount", 0},
                         {"image", "i"},
                         {"imageID", ""}}}}}}};
  const Json status = RoundTrip(pod)["status"]["containerStatuses"][0];
  EXPECT_EQ(status["ready"], false);
  EXPECT_EQ(status["restartCount"], 0);
}

TEST(Protobuf, SpecialMessagesAndInlineFields) {
  const Json deployment = {
      {"apiVersion", "apps/v1"},
      {"kind", "Deployment"},
      {"metadata", {{"name", "d"}, {"creationTimestamp", "2026-12-05T10:11:12Z"}}},
      {"spec",
       {{"strategy",
         {{"type", "RollingUpdate"},
          {"rollingUpdate", {{"maxSurge", "25%"}, {"maxUnavailable", 1}}}}},
        {"selector", {{"matchLabels", {{"app", "d"}}}}},
        {"template",
         {{"metadata", {{"labels", {{"app", "d"}}}}},
          {"spec",
           {{"containers",
             {{{"name", "c"},
               {"image", "nginx"},
               {"resources", {{"limits", {{"cpu", "500m"}, {"nvidia.com/gpu", "8"}}}}},
               {"readinessProbe",
                {{"httpGet", {{"path", "/health"}, {"port", "http"}}}, {"periodSeconds", 5}}}}}},
            {"volumes", {{{"name", "cache"}, {"emptyDir", {{"sizeLimit", "1Gi"}}}}}}}}}}}}};
  EXPECT_EQ(RoundTrip(deployment), deployment);

  const Json secret = {{"apiVersion", "v1"},
                       {"kind", "Secret"},
                       {"metadata", {{"name", "s"}}},
                       {"type", "Opaque"},
                       {"data", {{"k", "aGVsbG8="}, {"empty", ""}}}};
  EXPECT_EQ(RoundTrip(secret), secret);

  const Json event = {
      {"apiVersion", "events.k8s.io/v1"},
      {"kind", "Event"},
      {"metadata", {{"name", "e"}, {"namespace", "default"}}},
      {"eventTime", "2026-12-05T10:11:12.123456Z"},
      {"reason", "Created"},
      {"series", {{"count", 2}, {"lastObservedTime", "2026-12-05T10:11:13.000001Z"}}}};
  EXPECT_EQ(RoundTrip(event), event);
}

TEST(Protobuf, CustomResourceDefinitionSchema) {
  const Json crd = {
      {"apiVersion", "apiextensions.k8s.io/v1"},
      {"kind", "CustomResourceDefinition"},
      {"metadata", {{"name", "things.example.com"}}},
      {"spec",
       {{"group", "example.com"},
        {"scope", "Namespaced"},
        {"names", {{"kind", "Thing"}, {"plural", "things"}}},
        {"versions",
         {{{"name", "v1"},
           {"served", true},
           {"storage", true},
           {"schema",
            {{"openAPIV3Schema",
              {{"type", "object"},
               {"x-kubernetes-preserve-unknown-fields", true},
               {"additionalProperties", false},
               {"properties",
                {{"spec",
                  {{"type", "object"},
                   {"default", {{"a", 1}}},
                   {"required", {"a"}},
                   {"properties", {{"a", {{"type", "integer"}, {"maximum", 10.5}}}}}}}}}}}}}}}}}}};
  EXPECT_EQ(RoundTrip(crd), crd);
}

TEST(Protobuf, WrongTypesAreWordedAsGoWordsThem) {
  const Json cm = {{"apiVersion", "v1"}, {"kind", "ConfigMap"}, {"data", {{"k", {{"deep", 1}}}}}};
  EXPECT_EQ(TypeCheck(cm).message(),
            "json: cannot unmarshal object into Go struct field ConfigMap.data of type string");
  const Json sts = {
      {"apiVersion", "apps/v1"}, {"kind", "StatefulSet"}, {"spec", {{"replicas", "3"}}}};
  EXPECT_EQ(TypeCheck(sts).message(),
            "json: cannot unmarshal string into Go struct field StatefulSetSpec.spec.replicas of "
            "type int32");
  const Json fraction = {
      {"apiVersion", "apps/v1"}, {"kind", "StatefulSet"}, {"spec", {{"replicas", 1.5}}}};
  EXPECT_EQ(TypeCheck(fraction).message(),
            "json: cannot unmarshal number 1.5 into Go struct field StatefulSetSpec.spec.replicas "
            "of type int32");
  const Json list = {
      {"apiVersion", "v1"}, {"kind", "Pod"}, {"spec", {{"containers", {{"name", "c"}}}}}};
  EXPECT_EQ(TypeCheck(list).message(),
            "json: cannot unmarshal object into Go struct field PodSpec.spec.containers of type "
            "[]v1.Container");
  const Json port = {
      {"apiVersion", "v1"},
      {"kind", "Pod"},
      {"spec", {{"containers", {{{"name", "c"}, {"ports", {{{"containerPort", true}}}}}}}}}};
  EXPECT_EQ(TypeCheck(port).message(),
            "json: cannot unmarshal bool into Go struct field "
            "ContainerPort.spec.containers.ports.containerPort "
            "of type int32");
  EXPECT_EQ(TypeCheck({{"apiVersion", "v1"}, {"kind", "ConfigMap"}, {"data", {{"k", "v"}}}}).code(),
            Code::kOk);
}

TEST(Protobuf, BadEnvelopesAreRefused) {
  EXPECT_EQ(DecodeObject("{}").status().code(), Code::kBadRequest);
  EXPECT_EQ(DecodeObject(std::string("k8s\0\xff\xff", 6)).status().code(), Code::kBadRequest);
  EXPECT_EQ(
      EncodeObject({{"apiVersion", "leaderworkerset.x-k8s.io/v1"}, {"kind", "LeaderWorkerSet"}})
          .status()
          .code(),
      Code::kBadRequest);
}

TEST(Protobuf, WatchFramesAreLengthPrefixed) {
  Result<std::string> frame = EncodeWatchFrame(
      "ADDED", {{"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", {{"name", "a"}}}});
  ASSERT_TRUE(frame.ok()) << frame.status().message();
  const auto* b = reinterpret_cast<const unsigned char*>(frame->data());
  const std::size_t length = (std::size_t{b[0]} << 24) | (b[1] << 16) | (b[2] << 8) | b[3];
  EXPECT_EQ(length + 4, frame->size());
}

}  // namespace
}  // namespace lws::api::protobuf

namespace lws::api::protobuf {
namespace {

TEST(PruneUnknownFields, DropsWhatTheGoTypeLacksAndNamesItAsTheStrictDecoderDoes) {
  Json pod = {{"apiVersion", "v1"},
              {"kind", "Pod"},
              {"bogus", 1},
              {"metadata", {{"name", "p"}, {"labelz", {{"a", "b"}}}}},
              {"spec",
               {{"containers",
                 {{{"name", "c"},
                   {"imagePullPolcy", "Always"},
                   {"readinessProbe", {{"exec", {{"command", {"true"}}}}, {"periodSecond", 5}}}}}},
                {"volumes", {{{"name", "v"}, {"emptyDir", Json::object()}, {"hostPth", "x"}}}}}}};
  const pb::Descriptor* type = KubeTypes::Get().Find("v1", "Pod");
  std::vector<std::string> unknown = PruneUnknownFields(&pod, type);
  EXPECT_EQ(unknown,
            (std::vector<std::string>{
                "bogus", "metadata.labelz", "spec.containers[0].imagePullPolcy",
                "spec.containers[0].readinessProbe.periodSecond", "spec.volumes[0].hostPth"}));
  // Fields of inline structs (a probe's handler, a volume's source) are known.
  EXPECT_TRUE(pod["spec"]["containers"][0]["readinessProbe"].contains("exec"));
  EXPECT_TRUE(pod["spec"]["volumes"][0].contains("emptyDir"));
  EXPECT_FALSE(pod.contains("bogus"));
  EXPECT_EQ(pod["apiVersion"], "v1");
  EXPECT_TRUE(PruneUnknownFields(&pod, type).empty());
}

TEST(PruneUnknownFields, JsonNamesThatDifferFromProtoNames) {
  Json crd = {{"apiVersion", "apiextensions.k8s.io/v1"},
              {"kind", "CustomResourceDefinition"},
              {"spec",
               {{"versions",
                 {{{"name", "v1"},
                   {"schema",
                    {{"openAPIV3Schema",
                      {{"type", "object"},
                       {"x-kubernetes-preserve-unknown-fields", true},
                       {"ref", "x"}}}}}}}}}}};
  EXPECT_EQ(PruneUnknownFields(
                &crd, KubeTypes::Get().Find("apiextensions.k8s.io/v1", "CustomResourceDefinition")),
            (std::vector<std::string>{"spec.versions[0].schema.openAPIV3Schema.ref"}));
}

}  // namespace
}  // namespace lws::api::protobuf

namespace lws::api::protobuf {
namespace {

// Found by protobuf_decode_fuzz: a time past 2262 overflowed the nanosecond clock (undefined
// behaviour), and proto2 strings may hold bytes that are not UTF-8, which JSON text cannot.
TEST(Protobuf, OutOfRangeTimesAndInvalidUtf8AreBadRequests) {
  const KubeTypes& types = KubeTypes::Get();
  const pb::Descriptor* meta_type =
      types.pool().FindMessageTypeByName("k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta");
  std::unique_ptr<pb::Message> meta = types.New(meta_type);
  pb::Message* created = meta->GetReflection()->MutableMessage(
      meta.get(), meta_type->FindFieldByName("creationTimestamp"));
  created->GetReflection()->SetInt64(created, created->GetDescriptor()->FindFieldByNumber(1),
                                     15694663885);
  EXPECT_EQ(MessageToJson(*meta).status().code(), Code::kBadRequest);

  std::unique_ptr<pb::Message> named = types.New(meta_type);
  named->GetReflection()->SetString(named.get(), meta_type->FindFieldByName("name"),
                                    std::string("a\xff", 2));
  EXPECT_EQ(MessageToJson(*named).status().code(), Code::kBadRequest);
  named->GetReflection()->SetString(named.get(), meta_type->FindFieldByName("name"), "caf\xc3\xa9");
  EXPECT_EQ(MessageToJson(*named).value()["name"], "caf\xc3\xa9");
}

}  // namespace
}  // namespace lws::api::protobuf
