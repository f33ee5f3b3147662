// File: apiserver/events_v1_test.cc
//
// Issue 31 item 9: events.k8s.io/v1 and core/v1 Events are two views of one stored list, as on
// kube-apiserver (pkg/apis/events/v1/conversion.go), with the events.k8s.io/v1 validation of
// pkg/apis/core/validation/events.go (cases after its events_test.go).
#include "apiserver/api_server_testing.h"
#include "apiserver/event_versions.h"

namespace lws::apiserver::testing {
namespace {

using api::Json;

constexpr const char* kCoreEvents = "/api/v1/namespaces/default/events";
constexpr const char* kV1Events = "/apis/events.k8s.io/v1/namespaces/default/events";

// An event as the LWS controller records it (client-go's core/v1 recorder).
Json CoreEvent(const std::string& name, const std::string& reason = "GroupsProgressing") {
  return {{"apiVersion", "v1"},
          {"kind", "Event"},
          {"metadata", {{"name", name}, {"namespace", "default"}}},
          {"involvedObject",
           {{"kind", "LeaderWorkerSet"},
            {"apiVersion", "leaderworkerset.x-k8s.io/v1"},
            {"name", "demo"},
            {"namespace", "default"}}},
          {"reason", reason},
          {"message", "Created leader statefulset demo"},
          {"source", {{"component", "lws"}}},
          {"count", 1},
          {"firstTimestamp", "2025-01-01T00:00:00Z"},
          {"lastTimestamp", "2025-01-01T00:00:00Z"},
          {"type", "Normal"},
          {"reportingComponent", "lws"},
          {"reportingInstance", "lws"}};
}

// An event as an events.k8s.io/v1 recorder writes one (client-go tools/events).
Json V1Event(const std::string& name) {
  return {{"apiVersion", "events.k8s.io/v1"},
          {"kind", "Event"},
          {"metadata", {{"name", name}, {"namespace", "default"}}},
          {"regarding", {{"kind", "Pod"}, {"name", "p"}, {"namespace", "default"}}},
          {"reason", "Scheduled"},
          {"note", "Successfully assigned default/p to n1"},
          {"action", "Binding"},
          {"eventTime", "2025-01-01T00:00:00.000000Z"},
          {"reportingController", "default-scheduler"},
          {"reportingInstance", "default-scheduler-n1"},
          {"type", "Normal"}};
}

TEST(EventVersions, RenamesTopLevelFieldsBothWays) {
  Json v1 = CoreEventToEventsV1(CoreEvent("e1"));
  EXPECT_EQ(v1["apiVersion"], "events.k8s.io/v1");
  EXPECT_EQ(v1["note"], "Created leader statefulset demo");
  EXPECT_EQ(v1["regarding"]["name"], "demo");
  EXPECT_EQ(v1["reportingController"], "lws");
  EXPECT_EQ(v1["deprecatedSource"]["component"], "lws");
  EXPECT_EQ(v1["deprecatedCount"], 1);
  EXPECT_EQ(v1["deprecatedFirstTimestamp"], "2025-01-01T00:00:00Z");
  for (const char* core_only : {"message", "involvedObject", "reportingComponent", "source",
                                "count", "firstTimestamp", "lastTimestamp"}) {
    EXPECT_FALSE(v1.contains(core_only)) << core_only;
  }
  EXPECT_EQ(EventsV1ToCoreEvent(v1), CoreEvent("e1"));
}

TEST(EventVersions, PatchesAndSelectorsUseCoreNames) {
  EXPECT_EQ(EventsV1PatchToCore(PatchType::kMerge, {{"series", {{"count", 2}}}, {"note", "x"}}),
            Json({{"series", {{"count", 2}}}, {"message", "x"}}));
  EXPECT_EQ(EventsV1PatchToCore(PatchType::kJson, Json::parse(R"([
      {"op":"replace","path":"/regarding/name","value":"q"},
      {"op":"copy","from":"/deprecatedCount","path":"/series/count"}])")),
            Json::parse(R"([
      {"op":"replace","path":"/involvedObject/name","value":"q"},
      {"op":"copy","from":"/count","path":"/series/count"}])"));
  EXPECT_EQ(EventsV1FieldSelectorToCore("regarding.name=demo,reportingController!=lws").value(),
            "involvedObject.name=demo,reportingComponent!=lws");
  Result<std::string> bad = EventsV1FieldSelectorToCore("involvedObject.name=demo");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message(), "field label not supported: involvedObject.name");
}

TEST_F(ApiServerTest, CoreEventsAreListedThroughEventsV1) {
  ASSERT_EQ(Post(kCoreEvents, CoreEvent("demo.1")).code, 201);
  Reply list = Get(kV1Events);
  ASSERT_EQ(list.code, 200);
  EXPECT_EQ(list.body["kind"], "EventList");
  EXPECT_EQ(list.body["apiVersion"], "events.k8s.io/v1");
  ASSERT_EQ(list.body["items"].size(), 1u);
  EXPECT_EQ(list.body["items"][0]["note"], "Created leader statefulset demo");
  EXPECT_EQ(list.body["items"][0]["regarding"]["kind"], "LeaderWorkerSet");

  Reply one = Get(std::string(kV1Events) + "/demo.1");
  ASSERT_EQ(one.code, 200);
  EXPECT_EQ(one.body["reportingController"], "lws");

  Reply selected = Get(std::string(kV1Events) + "?fieldSelector=regarding.name%3Ddemo");
  EXPECT_EQ(selected.body["items"].size(), 1u);
  Reply none = Get(std::string(kV1Events) + "?fieldSelector=regarding.name%3Dother");
  EXPECT_EQ(none.body["items"].size(), 0u);
  Reply unsupported = Get(std::string(kV1Events) + "?fieldSelector=involvedObject.name%3Ddemo");
  EXPECT_EQ(unsupported.code, 400);
  EXPECT_EQ(unsupported.body["message"], "field label not supported: involvedObject.name");
}

TEST_F(ApiServerTest, EventsV1WritesAreCoreEvents) {
  Reply created = Post(kV1Events, V1Event("p.1"));
  ASSERT_EQ(created.code, 201) << created.body;
  EXPECT_EQ(created.body["apiVersion"], "events.k8s.io/v1");
  EXPECT_EQ(created.body["note"], "Successfully assigned default/p to n1");
  Reply core = Get(std::string(kCoreEvents) + "/p.1");
  ASSERT_EQ(core.code, 200);
  EXPECT_EQ(core.body["apiVersion"], "v1");
  EXPECT_EQ(core.body["message"], "Successfully assigned default/p to n1");
  EXPECT_EQ(core.body["involvedObject"]["name"], "p");
  EXPECT_EQ(core.body["reportingComponent"], "default-scheduler");

  // The series update client-go's events broadcaster sends, as a merge patch.
  Json series = {{"series", {{"count", 2}, {"lastObservedTime", "2025-01-01T00:01:00.000000Z"}}}};
  Reply patched = Patch(std::string(kV1Events) + "/p.1", "application/merge-patch+json", series);
  ASSERT_EQ(patched.code, 200) << patched.body;
  EXPECT_EQ(patched.body["series"]["count"], 2);
  Reply renote =
      Patch(std::string(kV1Events) + "/p.1", "application/merge-patch+json", {{"note", "changed"}});
  EXPECT_EQ(renote.code, 422);
  EXPECT_EQ(renote.body["message"],
            "Event.events.k8s.io \"p.1\" is invalid: message: Invalid value: \"changed\": field is "
            "immutable");

  ASSERT_EQ(Delete(std::string(kV1Events) + "/p.1").code, 200);
  Reply gone = Get(std::string(kCoreEvents) + "/p.1");
  EXPECT_EQ(gone.code, 404);
  Reply gone_v1 = Get(std::string(kV1Events) + "/p.1");
  EXPECT_EQ(gone_v1.body["message"], "events.events.k8s.io \"p.1\" not found");
  EXPECT_EQ(gone_v1.body["details"]["group"], "events.k8s.io");
}

TEST_F(ApiServerTest, EventsV1CreatesAreValidatedStrictly) {
  Json event = V1Event("p.2");
  event.erase("eventTime");
  event.erase("action");
  event["type"] = "Info";
  event["deprecatedCount"] = 3;
  Reply invalid = Post(kV1Events, event);
  ASSERT_EQ(invalid.code, 422);
  EXPECT_EQ(invalid.body["message"],
            "Event.events.k8s.io \"p.2\" is invalid: [eventTime: Required value, type: Invalid "
            "value: \"\": has invalid value: Info, count: Invalid value: \"\": needs to be unset]");
  // The same object through core/v1 passes: only the legacy rules apply there.
  Json core = EventsV1ToCoreEvent(event);
  EXPECT_EQ(Post(kCoreEvents, core).code, 201);
  // core/v1 with an eventTime needs what a new-style event carries.
  Json new_style = EventsV1ToCoreEvent(V1Event("p.3"));
  new_style.erase("reportingComponent");
  Reply missing = Post(kCoreEvents, new_style);
  EXPECT_EQ(missing.code, 422);
  // Upstream reports an empty controller name three times: required, and IsQualifiedName's two.
  EXPECT_EQ(missing.body["message"].get<std::string>().rfind(
                "Event \"p.3\" is invalid: [reportingController: Required value, "
                "reportingController: Invalid value: \"\": name part must be non-empty, ",
                0),
            0u)
      << missing.body["message"];
  Json wrong = V1Event("p.4");
  wrong["apiVersion"] = "v1";
  EXPECT_EQ(Post(kV1Events, wrong).body["message"],
            "the API version in the data (v1) does not match the expected API version "
            "(events.k8s.io/v1)");
}

TEST_F(ApiServerTest, EventsV1WatchSeesCoreEvents) {
  Reply watch = Get(std::string(kV1Events) + "?watch=true");
  ASSERT_TRUE(watch.raw.stream);
  watch.raw.stream->Start([] {});
  ASSERT_EQ(Post(kCoreEvents, CoreEvent("demo.2")).code, 201);
  std::string out;
  watch.raw.stream->Next(&out);
  watch.raw.stream->Cancel();
  Json line = Json::parse(out.substr(0, out.find('\n')));
  EXPECT_EQ(line["type"], "ADDED");
  EXPECT_EQ(line["object"]["apiVersion"], "events.k8s.io/v1");
  EXPECT_EQ(line["object"]["note"], "Created leader statefulset demo");
}

}  // namespace
}  // namespace lws::apiserver::testing
