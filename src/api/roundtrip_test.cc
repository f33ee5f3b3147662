// Round trip of real Kubernetes objects (every field populated): decode -> encode must be
// JSON-equal to the input, and changing one modeled field must change only that field.
#include <gtest/gtest.h>

#include <fstream>
#include <functional>
#include <sstream>

#include "api/lws_types.h"
#include "api/misc.h"
#include "testdata/testdata_dir.h"

namespace lws::api {
namespace {

Json LoadFixture(const std::string& name) {
  std::ifstream in(TestdataDir() + "/k8s-api/" + name);
  EXPECT_TRUE(in.good()) << name;
  std::stringstream ss;
  ss << in.rdbuf();
  return Json::parse(ss.str());
}

template <class T>
void ExpectRoundTrip(const std::string& fixture, const std::function<void(T&)>& modify,
                     const std::function<void(Json&)>& expected_change) {
  const Json input = LoadFixture(fixture);
  auto decoded = Decode<T>(input);
  ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
  const Json again = Encode(*decoded);
  EXPECT_EQ(again, input) << fixture << " diff: " << Json::diff(input, again).dump();

  T changed = *decoded;
  modify(changed);
  Json want = input;
  expected_change(want);
  const Json got = Encode(changed);
  EXPECT_EQ(got, want) << fixture << " diff: " << Json::diff(want, got).dump();
}

TEST(RoundTripTest, Pod) {
  ExpectRoundTrip<Pod>(
      "core.v1.Pod.json",
      [](Pod& p) {
        p.spec.node_name = "node-7";
        p.metadata.labels["added"] = "yes";
        p.status.phase = "Running";
        p.spec.containers[0].env.push_back({"LWS_GROUP_SIZE", "4", {}});
      },
      [](Json& j) {
        j["spec"]["nodeName"] = "node-7";
        j["metadata"]["labels"]["added"] = "yes";
        j["status"]["phase"] = "Running";
        j["spec"]["containers"][0]["env"].push_back({{"name", "LWS_GROUP_SIZE"}, {"value", "4"}});
      });
}

TEST(RoundTripTest, PodTemplate) {
  ExpectRoundTrip<PodTemplate>(
      "core.v1.PodTemplate.json", [](PodTemplate& t) { t.template_.spec.subdomain = "sub"; },
      [](Json& j) { j["template"]["spec"]["subdomain"] = "sub"; });
}

TEST(RoundTripTest, StatefulSet) {
  ExpectRoundTrip<StatefulSet>(
      "apps.v1.StatefulSet.json",
      [](StatefulSet& s) {
        s.spec.replicas = 9;
        s.spec.update_strategy.rolling_update->partition = 4;
        s.status.ready_replicas = 2;
      },
      [](Json& j) {
        j["spec"]["replicas"] = 9;
        j["spec"]["updateStrategy"]["rollingUpdate"]["partition"] = 4;
        j["status"]["readyReplicas"] = 2;
      });
}

TEST(RoundTripTest, ControllerRevision) {
  ExpectRoundTrip<ControllerRevision>(
      "apps.v1.ControllerRevision.json", [](ControllerRevision& r) { r.revision = 12; },
      [](Json& j) { j["revision"] = 12; });
}

TEST(RoundTripTest, Service) {
  ExpectRoundTrip<Service>(
      "core.v1.Service.json", [](Service& s) { s.spec.cluster_ip = "None"; },
      [](Json& j) { j["spec"]["clusterIP"] = "None"; });
}

TEST(RoundTripTest, Node) {
  ExpectRoundTrip<Node>(
      "core.v1.Node.json",
      [](Node& n) { n.status.allocatable["nvidia.com/gpu"] = Quantity::FromInt(8); },
      [](Json& j) { j["status"]["allocatable"]["nvidia.com/gpu"] = "8"; });
}

TEST(RoundTripTest, Namespace) {
  ExpectRoundTrip<Namespace>(
      "core.v1.Namespace.json", [](Namespace& n) { n.status.phase = "Terminating"; },
      [](Json& j) { j["status"]["phase"] = "Terminating"; });
}

TEST(RoundTripTest, ServiceAccount) {
  ExpectRoundTrip<ServiceAccount>(
      "core.v1.ServiceAccount.json", [](ServiceAccount& s) { s.metadata.name = "sa"; },
      [](Json& j) { j["metadata"]["name"] = "sa"; });
}

TEST(RoundTripTest, Event) {
  ExpectRoundTrip<Event>(
      "core.v1.Event.json", [](Event& e) { e.count = 42; }, [](Json& j) { j["count"] = 42; });
}

TEST(RoundTripTest, Lease) {
  ExpectRoundTrip<Lease>(
      "coordination.k8s.io.v1.Lease.json", [](Lease& l) { l.spec.holder_identity = "me"; },
      [](Json& j) { j["spec"]["holderIdentity"] = "me"; });
}

TEST(RoundTripTest, Scale) {
  ExpectRoundTrip<Scale>(
      "autoscaling.v1.Scale.json", [](Scale& s) { s.spec.replicas = 5; },
      [](Json& j) { j["spec"]["replicas"] = 5; });
}

TEST(RoundTripTest, AdmissionReview) {
  ExpectRoundTrip<AdmissionReview>(
      "admission.k8s.io.v1.AdmissionReview.json",
      [](AdmissionReview& r) { r.request->operation = "UPDATE"; },
      [](Json& j) { j["request"]["operation"] = "UPDATE"; });
}

TEST(RoundTripTest, ZeroValuesAndNullsSurvive) {
  // Rule 2 of codec.h: explicit zeros and nulls in the input are written back as they were.
  const Json input = Json::parse(R"({"apiVersion":"apps/v1","kind":"StatefulSet",
      "metadata":{"name":"s","creationTimestamp":null,"labels":{}},
      "spec":{"replicas":0,"template":{"metadata":{},"spec":{"containers":[]}},"serviceName":""},
      "status":{"replicas":0,"availableReplicas":0}})");
  auto sts = Decode<StatefulSet>(input);
  ASSERT_TRUE(sts.ok());
  EXPECT_EQ(Encode(*sts), input);
  EXPECT_EQ(sts->spec.replicas, 0);
}

TEST(RoundTripTest, BuiltObjectsOmitEmptyButKeepRequiredFields) {
  ContainerStatus cs;
  cs.name = "c";
  EXPECT_EQ(codec::EncodeValue(cs),
            Json::parse(R"({"name":"c","ready":false,"restartCount":0,"image":"","imageID":""})"));
  Pod pod;
  pod.metadata.name = "p";
  EXPECT_EQ(Encode(pod),
            Json::parse(R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"}})"));
  pod.spec.node_name = "n1";  // Once anything is set, the required members come along.
  EXPECT_EQ(Encode(pod), Json::parse(R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},
                                          "spec":{"containers":[],"nodeName":"n1"}})"));
}

TEST(RoundTripTest, TypeErrorsNameTheField) {
  auto bad = Decode<StatefulSet>(Json::parse(R"({"spec":{"replicas":"three",
      "template":{"spec":{"containers":[{"name":7}]}}}})"));
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), Code::kBadRequest);
  ASSERT_EQ(bad.status().causes().size(), 2u);
  EXPECT_EQ(bad.status().causes()[0].field, "spec.replicas");
  EXPECT_EQ(bad.status().causes()[0].message, "Invalid value: \"three\": expected int32");
  EXPECT_EQ(bad.status().causes()[1].field, "spec.template.spec.containers[0].name");
}

TEST(RoundTripTest, TypeErrorsInMapsAndDeepListsNameTheField) {
  auto bad = Decode<Pod>(Json::parse(R"({"metadata":{"labels":{"app":3}},
      "spec":{"containers":[{"name":"a"},{"name":"b","env":[{"name":"X"},{"name":[]}]}]}})"));
  ASSERT_FALSE(bad.ok());
  ASSERT_EQ(bad.status().causes().size(), 2u);
  EXPECT_EQ(bad.status().causes()[0].field, "metadata.labels[app]");
  EXPECT_EQ(bad.status().causes()[1].field, "spec.containers[1].env[1].name");
  // A root path given by the caller prefixes every cause.
  auto nested = Decode<Pod>(Json::parse(R"({"spec":{"nodeName":1}})"), FieldPath("items[2]"));
  ASSERT_FALSE(nested.ok());
  EXPECT_EQ(nested.status().causes()[0].field, "items[2].spec.nodeName");
}

TEST(RoundTripTest, StringMapsKeepEveryMemberInKeyOrderAndSkipNulls) {
  // Labels (a FlatMap) and resource lists (a std::map) decode through the same overload.
  const Json input = Json::parse(R"({"apiVersion":"v1","kind":"Pod",
      "metadata":{"labels":{"b":"2","a":"1","gone":null,"c":""}},
      "spec":{"containers":[{"name":"c","resources":{"limits":{"nvidia.com/gpu":"8","cpu":"4"}}}]}})");
  auto pod = Decode<Pod>(input);
  ASSERT_TRUE(pod.ok()) << pod.status().ToString();
  const StringMap& labels = pod->metadata.labels;
  ASSERT_EQ(labels.size(), 3u);
  EXPECT_EQ(labels.begin()->first, "a");
  EXPECT_EQ(pod->metadata.Label("b"), "2");
  EXPECT_EQ(pod->metadata.Label(std::string_view("c")), "");
  EXPECT_FALSE(labels.contains("gone"));
  EXPECT_EQ(pod->metadata.Label("absent"), "");
  const ResourceList& limits = pod->spec.containers[0].resources.limits;
  ASSERT_EQ(limits.size(), 2u);
  EXPECT_EQ(limits.begin()->first, "cpu");
  Json expected = input;
  expected["metadata"]["labels"].erase("gone");
  EXPECT_EQ(Encode(*pod), expected);
}

TEST(RoundTripTest, DropManagedFieldsLeavesOutOnlyTheMetadataEntries) {
  const Json input = Json::parse(R"({"apiVersion":"v1","kind":"Pod",
      "metadata":{"name":"p","selfLink":"/x","managedFields":[{"manager":"kubectl"}]},
      "spec":{"containers":[{"name":"c","managedFields":"kept: not metadata"}]}})");
  auto kept = Decode<Pod>(input);
  ASSERT_TRUE(kept.ok());
  EXPECT_EQ(Encode(*kept), input);  // by default the round trip keeps them
  auto dropped = Decode<Pod>(input, FieldPath(), {.drop_managed_fields = true});
  ASSERT_TRUE(dropped.ok());
  Json expected = input;
  expected["metadata"].erase("managedFields");
  EXPECT_EQ(Encode(*dropped), expected);
}

TEST(RoundTripTest, LeaderWorkerSetKeepsUnknownFields) {
  const Json input = Json::parse(R"({"apiVersion":"leaderworkerset.x-k8s.io/v1",
      "kind":"LeaderWorkerSet","metadata":{"name":"vllm"},
      "spec":{"replicas":2,"futureField":{"a":1},"leaderWorkerTemplate":{"size":4,
        "workerTemplate":{"spec":{"containers":[{"name":"w","image":"vllm:1",
          "resources":{"limits":{"nvidia.com/gpu":"8"}}}]}}},
        "rolloutStrategy":{"type":"RollingUpdate","rollingUpdateConfiguration":
          {"maxUnavailable":"25%","maxSurge":1}}}})");
  auto lws = Decode<LeaderWorkerSet>(input);
  ASSERT_TRUE(lws.ok()) << lws.status().ToString();
  EXPECT_EQ(lws->Size(), 4);
  EXPECT_EQ(lws->spec.rollout_strategy.rolling_update_configuration->max_unavailable,
            IntOrString::FromString("25%"));
  EXPECT_EQ(Encode(*lws), input);
}

}  // namespace
}  // namespace lws::api

namespace lws::api {
namespace {

TEST(RoundTripTest, EventsV1Event) {
  // events.k8s.io/v1, as the LWS controller records it (no upstream fixture exists for it).
  const Json input = Json::parse(R"({"apiVersion":"events.k8s.io/v1","kind":"Event",
      "metadata":{"name":"test-sample.17a","namespace":"default"},
      "eventTime":"2026-11-29T10:00:00.000000Z","reportingController":"leaderworkerset",
      "reportingInstance":"lws-controller-1","action":"Create","reason":"GroupsProgressing",
      "regarding":{"kind":"LeaderWorkerSet","namespace":"default","name":"test-sample",
        "uid":"u1","apiVersion":"leaderworkerset.x-k8s.io/v1"},
      "note":"Created leader statefulset test-sample","type":"Normal",
      "series":{"count":2,"lastObservedTime":"2026-11-29T10:01:00.000000Z"}})");
  auto event = Decode<EventV1>(input);
  ASSERT_TRUE(event.ok()) << event.status().ToString();
  EXPECT_EQ(event->regarding.name, "test-sample");
  EXPECT_EQ(event->note, "Created leader statefulset test-sample");
  EXPECT_EQ(Encode(*event), input);
}

TEST(RoundTripTest, Lists) {
  const Json input = Json::parse(R"({"apiVersion":"leaderworkerset.x-k8s.io/v1",
      "kind":"LeaderWorkerSetList","metadata":{"resourceVersion":"42","continue":"c"},
      "items":[{"apiVersion":"leaderworkerset.x-k8s.io/v1","kind":"LeaderWorkerSet",
        "metadata":{"name":"a"},"spec":{"leaderWorkerTemplate":{"workerTemplate":{}}}}]})");
  auto list = Decode<List<LeaderWorkerSet>>(input);
  ASSERT_TRUE(list.ok()) << list.status().ToString();
  ASSERT_EQ(list->items.size(), 1u);
  EXPECT_EQ(list->metadata.resource_version, "42");
  EXPECT_EQ(Encode(*list), input);
  List<Pod> empty;
  empty.api_version = "v1";
  empty.kind = "PodList";
  // An empty list is written as "items": [], never omitted (clients require it).
  EXPECT_EQ(Encode(empty),
            Json::parse(R"({"apiVersion":"v1","kind":"PodList","metadata":{},"items":[]})"));
}

}  // namespace
}  // namespace lws::api
