// Issue 31 item 6: the two client-go event recorders. The correlator's cases are client-go's
// tools/record/events_cache_test.go TestEventCorrelator and TestEventSpamFilter; the series
// cases follow tools/events/event_broadcaster.go (recordToSink, finishSeries,
// refreshExistingEventSeries).
#include "client/event_recorder.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <map>

#include "client/event_correlator.h"
#include "client/event_series.h"
#include "client/local/local_testing.h"

namespace lws::client {
namespace {

using namespace std::chrono_literals;

const Time kStart = Time(std::chrono::seconds(1'735'689'600));

// makeEvent of events_cache_test.go: a core/v1 event about `object` from component "kubelet".
Json MakeEvent(const std::string& reason, const std::string& message, const std::string& object,
               const std::string& container = "", Time at = kStart) {
  Json ref = {{"kind", "Pod"},
              {"namespace", "my-ns"},
              {"name", object},
              {"uid", "u-" + object},
              {"apiVersion", "v1"}};
  if (!container.empty()) ref["fieldPath"] = "spec.containers{" + container + "}";
  return {{"apiVersion", "v1"},
          {"kind", "Event"},
          {"metadata", {{"name", object + ".1"}, {"namespace", "my-ns"}}},
          {"involvedObject", ref},
          {"reason", reason},
          {"message", message},
          {"source", {{"component", "kubelet"}, {"host", "kublet.node1"}}},
          {"count", 1},
          {"firstTimestamp", FormatRfc3339(at)},
          {"lastTimestamp", FormatRfc3339(at)},
          {"type", "Normal"}};
}

struct Scenario {
  std::vector<Json> previous;
  Json event;
  std::int64_t expected_count = 1;
  std::string expected_message;  // "" : the event's own
  bool expected_skip = false;
  Duration interval = 5s;
};

// Feeds `previous` through the correlator one interval apart (recording what is not skipped),
// then `event`, as the upstream test's IntervalClock does.
Correlated RunScenario(const Scenario& s) {
  EventCorrelator correlator;
  Time now = kStart;
  for (const Json& e : s.previous) {
    Correlated c = correlator.Correlate(e, now);
    if (!c.skip) correlator.Recorded(c.event, c.key);
    now += s.interval;
  }
  return correlator.Correlate(s.event, now);
}

std::vector<Json> Repeat(int n, const Json& e) { return std::vector<Json>(n, e); }

std::vector<Json> Similar(int n, const Json& e) {
  std::vector<Json> out;
  for (int i = 0; i < n; ++i) {
    Json similar = e;
    similar["message"] = fmt::format("{}{}", e["message"].get<std::string>(), i);
    out.push_back(similar);
  }
  return out;
}

TEST(EventCorrelator, UpstreamScenarios) {
  const Json first = MakeEvent("first", "i am first", "my-pod");
  const Json duplicate = MakeEvent("duplicate", "me again", "my-pod");
  const Json unique = MakeEvent("unique", "snowflake", "my-pod");
  const Json similar = MakeEvent("similar", "similar message", "my-pod");
  const Json other_container = MakeEvent("similar", "similar message", "my-pod", "container2");
  std::vector<Json> many_unique;
  for (int i = 0; i < 30; ++i) {  // makeUniqueEvents: each about its own pod
    many_unique.push_back(MakeEvent(fmt::format("reason-{}", i), fmt::format("message-{}", i),
                                    fmt::format("pod-{}", i)));
  }
  const std::string combined = "(combined from similar events): similar message";
  const std::map<std::string, Scenario> scenarios = {
      {"create-a-single-event", {{}, first, 1}},
      {"the-same-event-should-just-count", {Repeat(1, duplicate), duplicate, 2}},
      {"the-same-event-should-just-count-even-if-more-than-aggregate",
       {Repeat(10, duplicate), duplicate, 11, "", false, 30s}},
      {"the-same-event-is-spam-if-happens-too-frequently",
       {Repeat(26, duplicate), duplicate, 0, "", true, 1s}},
      {"create-many-unique-events", {many_unique, unique, 1, "", false, 5s}},
      {"similar-events-should-aggregate-event", {Similar(9, similar), similar, 1, combined}},
      {"similar-events-many-times-should-count-the-aggregate",
       {Similar(10, similar), similar, 2, combined}},
      {"events-from-different-containers-do-not-aggregate",
       {Repeat(1, other_container), similar, 1}},
      {"similar-events-whose-interval-is-greater-than-aggregate-interval-do-not-aggregate",
       {Similar(9, similar), similar, 1, "", false, 601s}},
  };
  for (const auto& [name, scenario] : scenarios) {
    Correlated c = RunScenario(scenario);
    EXPECT_EQ(c.skip, scenario.expected_skip) << name;
    if (scenario.expected_skip) continue;
    EXPECT_EQ(c.event["count"], scenario.expected_count) << name;
    const std::string message = scenario.expected_message.empty()
                                    ? scenario.event["message"].get<std::string>()
                                    : scenario.expected_message;
    EXPECT_EQ(c.event["message"], message) << name;
    EXPECT_EQ(c.patch.has_value(), scenario.expected_count > 1) << name;
  }
}

// TestEventSpamFilter, default key: the source and the involved object, whatever the reason.
TEST(EventCorrelator, SpamFilterKeysOnSourceAndObject) {
  EventCorrelator correlator(CorrelatorOptions{.spam_burst = 1});
  Correlated original = correlator.Correlate(MakeEvent("original", "i am first", "my-pod"), kStart);
  ASSERT_FALSE(original.skip);
  correlator.Recorded(original.event, original.key);
  EXPECT_TRUE(correlator.Correlate(MakeEvent("duplicate", "me again", "my-pod"), kStart + 1s).skip);
  EXPECT_FALSE(
      correlator.Correlate(MakeEvent("duplicate", "me again", "other-pod"), kStart + 2s).skip);
  // One token back after 5 minutes (1/300 per second).
  EXPECT_FALSE(correlator.Correlate(MakeEvent("later", "x", "my-pod"), kStart + 302s).skip);
}

Json SeriesEvent(const std::string& note, Time at) {
  return {{"apiVersion", "v1"},
          {"kind", "Event"},
          {"metadata", {{"name", "p." + note}, {"namespace", "default"}}},
          {"involvedObject", {{"kind", "Pod"}, {"name", "p"}, {"namespace", "default"}}},
          {"reason", "FailedScheduling"},
          {"message", note},
          {"action", "Scheduling"},
          {"reportingComponent", "default-scheduler"},
          {"eventTime", FormatRfc3339Micro(at)},
          {"type", "Warning"}};
}

TEST(EventSeries, RepeatsBecomeOneSeriesWrittenTwiceThenByTheTimers) {
  EventSeries series;
  auto first = series.Record(SeriesEvent("no room", kStart), kStart);
  ASSERT_TRUE(first.has_value());
  EXPECT_FALSE(first->patch.has_value());
  series.Recorded(first->event);
  auto second = series.Record(SeriesEvent("no room", kStart + 10s), kStart + 10s);
  ASSERT_TRUE(second.has_value());
  ASSERT_TRUE(second->patch.has_value());
  EXPECT_EQ((*second->patch)["series"]["count"], 2);
  EXPECT_EQ((*second->patch)["series"]["lastObservedTime"], FormatRfc3339Micro(kStart + 10s));
  EXPECT_FALSE(series.Record(SeriesEvent("no room", kStart + 20s), kStart + 20s).has_value());
  EXPECT_TRUE(series.Record(SeriesEvent("other", kStart + 20s), kStart + 20s).has_value());

  // Refresh writes every series (not single events); Finish writes a series 6 minutes after its
  // last observation and forgets it, and forgets single events unwritten.
  ASSERT_EQ(series.Refresh().size(), 1u);
  EXPECT_TRUE(series.Finish(kStart + 5min).empty());
  std::vector<SeriesWrite> finished = series.Finish(kStart + 20s + 6min + 1s);
  ASSERT_EQ(finished.size(), 1u);
  EXPECT_EQ((*finished[0].patch)["series"]["count"], 3);
  EXPECT_TRUE(series.empty());
  // After the series ends, the same event starts again.
  auto again = series.Record(SeriesEvent("no room", kStart + 10min), kStart + 10min);
  ASSERT_TRUE(again.has_value());
  EXPECT_FALSE(again->patch.has_value());
}

// Through the API: an events.k8s.io recorder's event reads as upstream's, with its series.
TEST(EventRecorder, EventsV1RecorderWritesSeries) {
  testing::ControlPlane cp;
  LocalClient client = cp.Client("default-scheduler");
  const Json pod =
      client
          .Create(kPods, Json{{"apiVersion", "v1"},
                              {"kind", "Pod"},
                              {"metadata", {{"name", "a"}, {"namespace", "default"}}},
                              {"spec", {{"containers", {{{"name", "c"}, {"image", "i"}}}}}}})
          .value()
          ->document();
  EventRecorder recorder(&client, &cp.loop.clock(),
                         EventRecorderOptions{.component = "default-scheduler",
                                              .instance = "default-scheduler-n",
                                              .api = EventApi::kEventsV1,
                                              .loop = &cp.loop});
  for (int i = 0; i < 5; ++i) {
    recorder.Record(pod, "Warning", "FailedScheduling", "0/1 nodes are available", "Scheduling");
    cp.loop.RunFor(10s);
  }
  auto events = client.List(kEvents).value();
  ASSERT_EQ(events.items.size(), 1u);
  Json event = events.items[0]->document();
  EXPECT_EQ(event["series"]["count"], 2) << "only the second repeat is written at once";
  EXPECT_EQ(event["action"], "Scheduling");
  EXPECT_EQ(event["reportingComponent"], "default-scheduler");
  EXPECT_EQ(event["reportingInstance"], "default-scheduler-n");
  EXPECT_FALSE(event.contains("count"));
  EXPECT_FALSE(event["eventTime"].get<std::string>().empty());
  // finishSeries runs every 6 minutes from the first record: at 12 minutes the series has not
  // been observed for 6, and is written a last time.
  cp.loop.RunFor(13min);
  event = client.List(kEvents).value().items[0]->document();
  EXPECT_EQ(event["series"]["count"], 5);
  EXPECT_EQ(recorder.recorded(), 5u);
}

// The core/v1 recorder past its spam burst: 25 events about one object, then none for a while;
// repeats of one event count in place.
TEST(EventRecorder, CoreRecorderCountsRepeatsAndFiltersSpam) {
  testing::ControlPlane cp;
  LocalClient client = cp.Client("statefulset-controller");
  const Json set = {{"apiVersion", "apps/v1"},
                    {"kind", "StatefulSet"},
                    {"metadata", {{"namespace", "default"}, {"name", "web"}, {"uid", "u"}}}};
  EventRecorder recorder(&client, &cp.loop.clock(), "statefulset-controller");
  recorder.Record(set, "Normal", "SuccessfulCreate",
                  "create Pod web-0 in StatefulSet web successful");
  recorder.Record(set, "Normal", "SuccessfulCreate",
                  "create Pod web-0 in StatefulSet web successful");
  auto events = client.List(kEvents).value();
  ASSERT_EQ(events.items.size(), 1u);
  EXPECT_EQ(events.items[0]->document()["count"], 2);
  EXPECT_EQ(events.items[0]->document()["source"]["component"], "statefulset-controller");
  EXPECT_FALSE(events.items[0]->document().contains("action"));
  for (int i = 1; i < 40; ++i) {
    recorder.Record(set, "Normal", "SuccessfulCreate",
                    fmt::format("create Pod web-{} in StatefulSet web successful", i));
  }
  events = client.List(kEvents).value();
  // 25 tokens: 2 for web-0, 8 for web-1..8, then the aggregate of the 10th distinct message on,
  // created once and patched until the bucket is empty.
  std::int64_t written = 0;
  bool combined = false;
  for (const auto& e : events.items) {
    written += e->document()["count"].get<std::int64_t>();
    combined |=
        e->document()["message"].get<std::string>().rfind("(combined from similar events)", 0) == 0;
  }
  EXPECT_TRUE(combined);
  EXPECT_EQ(events.items.size(), 10u);  // web-0..8 and one aggregate
  EXPECT_LE(written, 40);
  EXPECT_EQ(recorder.recorded(), 41u);
}

// A restarted controller records at the instant its predecessor stopped, after the old recorder
// took hundreds of names there: the new one must still find a free name.
TEST(EventRecorder, SecondRecorderAtTheSameInstantFindsAFreeName) {
  testing::ControlPlane cp;
  LocalClient client = cp.Client("leaderworkerset");
  const Json lws = {{"apiVersion", "leaderworkerset.x-k8s.io/v1"},
                    {"kind", "LeaderWorkerSet"},
                    {"metadata", {{"namespace", "default"}, {"name", "l"}, {"uid", "u"}}}};
  const EventRecorderOptions options{.component = "leaderworkerset", .api = EventApi::kEventsV1};
  EventRecorder before(&client, &cp.loop.clock(), options);
  for (int i = 0; i < 600; ++i) {
    before.Record(lws, "Normal", "GroupsProgressing", "Creating group " + std::to_string(i),
                  "Create");
  }
  EventRecorder after(&client, &cp.loop.clock(), options);
  after.Record(lws, "Normal", "GroupsProgressing", "after the restart", "Create");
  EXPECT_EQ(client.List(kEvents).value().items.size(), 601u);
}

}  // namespace
}  // namespace lws::client
