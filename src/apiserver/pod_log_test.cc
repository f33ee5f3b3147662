// Tests of pod_log.h and container_log.h: the options of pods/log, the container and instance a
// request reads, what it selects from the lines, and the bounded container log.
#include "apiserver/pod_log.h"

#include <gtest/gtest.h>

#include "api/codec.h"

namespace lws::apiserver {
namespace {

using api::Json;

const Time kT0 = Time(std::chrono::seconds(1'800'000'000));  // 2027-01-15T08:00:00Z

QueryParams Query(std::initializer_list<std::pair<const char*, const char*>> values) {
  QueryParams query;
  for (const auto& [key, value] : values) query.Set(key, value);
  return query;
}

std::string MessageOf(const Result<PodLogOptions>& result) { return result.status().message(); }

// Upstream: pkg/apis/core/validation/validation_test.go TestValidatePodLogOptions (the
// success and error cases), seen through the query as the parameter codec decodes it.
TEST(PodLogOptionsTest, ValidatePodLogOptionsCases) {
  for (auto query :
       {Query({}), Query({{"tailLines", "0"}}), Query({{"tailLines", "8"}}),
        Query({{"limitBytes", "1"}}), Query({{"limitBytes", "12"}}),
        Query({{"sinceSeconds", "10"}}), Query({{"limitBytes", "12"}, {"tailLines", "8"}}),
        Query({{"sinceTime", "2026-12-06T02:10:10Z"}})}) {
    EXPECT_TRUE(ParsePodLogOptions(query, "p").ok());
  }
  auto tail = ParsePodLogOptions(Query({{"tailLines", "-8"}}), "p");
  EXPECT_EQ(tail.status().code(), Code::kInvalid);
  EXPECT_EQ(MessageOf(tail),
            "PodLogOptions \"p\" is invalid: tailLines: Invalid value: -8: must be "
            "greater than or equal to 0");
  EXPECT_EQ(MessageOf(ParsePodLogOptions(Query({{"limitBytes", "0"}}), "p")),
            "PodLogOptions \"p\" is invalid: limitBytes: Invalid value: 0: must be greater than 0");
  EXPECT_EQ(
      MessageOf(ParsePodLogOptions(Query({{"sinceSeconds", "0"}}), "p")),
      "PodLogOptions \"p\" is invalid: sinceSeconds: Invalid value: 0: must be greater than 0");
  EXPECT_EQ(MessageOf(ParsePodLogOptions(
                Query({{"sinceSeconds", "10"}, {"sinceTime", "2026-12-06T02:10:10Z"}}), "p")),
            "PodLogOptions \"p\" is invalid: : Forbidden: at most one of `sinceTime` or "
            "`sinceSeconds` may be specified");
}

TEST(PodLogOptionsTest, QueryValuesThatDoNotParseAreBadRequests) {
  auto bad = ParsePodLogOptions(Query({{"tailLines", "ten"}}), "p");
  EXPECT_EQ(bad.status().code(), Code::kBadRequest);
  EXPECT_EQ(MessageOf(bad), "strconv.ParseInt: parsing \"ten\": invalid syntax");
  EXPECT_EQ(MessageOf(ParsePodLogOptions(Query({{"limitBytes", "99999999999999999999"}}), "p")),
            "strconv.ParseInt: parsing \"99999999999999999999\": value out of range");
  EXPECT_EQ(ParsePodLogOptions(Query({{"sinceTime", "yesterday"}}), "p").status().code(),
            Code::kBadRequest);
  Result<PodLogOptions> all = ParsePodLogOptions(Query({{"container", "c"},
                                                        {"follow", "true"},
                                                        {"previous", "1"},
                                                        {"timestamps", "true"},
                                                        {"tailLines", "+3"}}),
                                                 "p");
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(all->container, "c");
  EXPECT_TRUE(all->follow && all->previous && all->timestamps);
  EXPECT_EQ(all->tail_lines, 3);
}

Json PodWith(Json spec, Json status = Json::object()) {
  return {
      {"metadata", {{"name", "test"}}}, {"spec", std::move(spec)}, {"status", std::move(status)}};
}

Json Named(std::initializer_list<const char*> names) {
  Json list = Json::array();
  for (const char* name : names) list.push_back({{"name", name}});
  return list;
}

// Upstream: pkg/registry/core/pod/strategy_test.go TestCheckLogLocation (its container cases).
TEST(LogContainerNameTest, CheckLogLocationCases) {
  EXPECT_EQ(*LogContainerName(PodWith({{"containers", Named({"mycontainer"})}}), ""),
            "mycontainer");
  EXPECT_EQ(LogContainerName(PodWith(Json::object()), "").status().message(),
            "a container name must be specified for pod test");
  EXPECT_EQ(
      LogContainerName(PodWith({{"containers", Named({"container1", "container2"})}}), "")
          .status()
          .message(),
      "a container name must be specified for pod test, choose one of: [container1 container2]");
  EXPECT_EQ(LogContainerName(PodWith({{"containers", Named({"container1", "container2"})},
                                      {"initContainers", Named({"initcontainer1"})}}),
                             "")
                .status()
                .message(),
            "a container name must be specified for pod test, choose one of: [initcontainer1 "
            "container1 container2]");
  Json with_debugger = PodWith({{"containers", Named({"container1", "container2"})},
                                {"initContainers", Named({"initcontainer1"})},
                                {"ephemeralContainers", Named({"debugger"})}});
  EXPECT_EQ(LogContainerName(with_debugger, "").status().message(),
            "a container name must be specified for pod test, choose one of: [initcontainer1 "
            "container1 container2 debugger]");
  auto bad =
      LogContainerName(PodWith({{"containers", Named({"container1", "container2"})}}), "unknown");
  EXPECT_EQ(bad.status().code(), Code::kBadRequest);
  EXPECT_EQ(bad.status().message(), "container unknown is not valid for pod test");
  EXPECT_EQ(*LogContainerName(PodWith({{"containers", Named({"container1", "container2"})}}),
                              "container2"),
            "container2");
  EXPECT_EQ(*LogContainerName(with_debugger, "initcontainer1"), "initcontainer1");
  EXPECT_EQ(*LogContainerName(with_debugger, "debugger"), "debugger");
}

Json WithStatus(Json container_status) {
  container_status["name"] = "x";
  return PodWith({{"containers", Named({"x"})}},
                 {{"containerStatuses", Json::array({std::move(container_status)})}});
}

// Upstream: pkg/kubelet/kubelet_pods_test.go TestValidateContainerLogStatus: for each status,
// whether the current and the previous instance can be read, and that an unknown container
// cannot.
TEST(LogContainerIdTest, ValidateContainerLogStatusCases) {
  const Json running = {{"running", Json::object()}};
  const Json fake_terminated = {{"terminated", {{"containerID", "docker://fakeid"}}}};
  const Json terminated = {{"terminated", Json::object()}};
  struct Case {
    Json status;
    bool success;
    bool previous_success;
  };
  const Case cases[] = {
      {{{"state", running}, {"lastState", fake_terminated}, {"containerID", "docker://now"}},
       true,
       true},
      {{{"state", running}, {"containerID", "docker://now"}}, true, false},
      {{{"state", terminated}}, false, false},
      {{{"state", fake_terminated}}, true, false},
      {{{"state", terminated}, {"lastState", terminated}}, false, false},
      {{{"state", terminated}, {"lastState", fake_terminated}}, true, true},
      {{{"state", {{"waiting", Json::object()}}}}, false, false},
      {{{"state", {{"waiting", {{"reason", "ErrImagePull"}}}}}}, false, false},
      {{{"state", {{"waiting", {{"reason", "ErrImagePullBackOff"}}}}}}, false, false},
  };
  int i = 0;
  for (const Case& c : cases) {
    const Json pod = WithStatus(c.status);
    EXPECT_EQ(LogContainerId(pod, "x", false).ok(), c.success) << "case " << i;
    EXPECT_EQ(LogContainerId(pod, "x", true).ok(), c.previous_success) << "case " << i;
    EXPECT_FALSE(LogContainerId(pod, "blah", false).ok()) << "case " << i;
    ++i;
  }
}

TEST(LogContainerIdTest, PicksTheInstanceAndWordsErrorsAsTheKubelet) {
  const Json restarted = WithStatus({{"containerID", "c://2"},
                                     {"state", {{"running", Json::object()}}},
                                     {"lastState", {{"terminated", {{"containerID", "c://1"}}}}}});
  EXPECT_EQ(*LogContainerId(restarted, "x", false), "c://2");
  EXPECT_EQ(*LogContainerId(restarted, "x", true), "c://1");
  // Back-off: the dead instance is read for the current log too.
  const Json backoff = WithStatus({{"state", {{"waiting", {{"reason", "CrashLoopBackOff"}}}}},
                                   {"lastState", {{"terminated", {{"containerID", "c://1"}}}}}});
  EXPECT_EQ(*LogContainerId(backoff, "x", false), "c://1");
  EXPECT_EQ(
      LogContainerId(WithStatus({{"state", {{"waiting", {{"reason", "ContainerCreating"}}}}}}), "x",
                     false)
          .status()
          .message(),
      "container \"x\" in pod \"test\" is waiting to start: ContainerCreating");
  EXPECT_EQ(LogContainerId(WithStatus({{"state", {{"waiting", {{"reason", "ErrImagePull"}}}}}}),
                           "x", false)
                .status()
                .message(),
            "container \"x\" in pod \"test\" is waiting to start: image can't be pulled");
  EXPECT_EQ(LogContainerId(restarted, "y", false).status().message(),
            "container \"y\" in pod \"test\" is not available");
  EXPECT_EQ(LogContainerId(WithStatus({{"state", {{"running", Json::object()}}}}), "x", true)
                .status()
                .message(),
            "previous terminated container \"x\" in pod \"test\" not found");
  EXPECT_EQ(LogContainerId(WithStatus({{"state", Json::object()}}), "x", false).status().message(),
            "container \"x\" in pod \"test\" is waiting to start - no logs yet");
}

TEST(FormatRfc3339NanoTest, TrimsTheFractionAsGoDoes) {
  EXPECT_EQ(FormatRfc3339Nano(kT0), "2027-01-15T08:00:00Z");
  EXPECT_EQ(FormatRfc3339Nano(kT0 + std::chrono::milliseconds(500)), "2027-01-15T08:00:00.5Z");
  EXPECT_EQ(FormatRfc3339Nano(kT0 + std::chrono::nanoseconds(1)), "2027-01-15T08:00:00.000000001Z");
  EXPECT_EQ(FormatRfc3339Nano(kT0 + std::chrono::microseconds(1230)), "2027-01-15T08:00:00.00123Z");
}

std::vector<LogLine> Lines(int count) {
  std::vector<LogLine> lines;
  for (int i = 0; i < count; ++i) {
    lines.push_back({kT0 + std::chrono::seconds(i), "line " + std::to_string(i)});
  }
  return lines;
}

std::string Render(const PodLogOptions& options, const std::vector<LogLine>& lines,
                   Time now = kT0 + std::chrono::seconds(10)) {
  LogRenderer renderer(options, now);
  std::string out;
  renderer.RenderExisting(lines, &out);
  return out;
}

TEST(LogRendererTest, TailSinceTimestampsAndLimit) {
  const std::vector<LogLine> lines = Lines(5);
  EXPECT_EQ(Render({}, lines), "line 0\nline 1\nline 2\nline 3\nline 4\n");
  PodLogOptions tail;
  tail.tail_lines = 2;
  EXPECT_EQ(Render(tail, lines), "line 3\nline 4\n");
  tail.tail_lines = 0;
  EXPECT_EQ(Render(tail, lines), "");
  tail.tail_lines = 9;
  EXPECT_EQ(Render(tail, lines), "line 0\nline 1\nline 2\nline 3\nline 4\n");
  // sinceSeconds counts back from the request's time: now is line 0 + 10 s.
  PodLogOptions since;
  since.since_seconds = 7;
  EXPECT_EQ(Render(since, lines), "line 3\nline 4\n");
  // A look-back longer than the clock's age (found by pod_log_options_fuzz) means every line.
  since.since_seconds = 444444444444444410;
  EXPECT_EQ(Render(since, lines), "line 0\nline 1\nline 2\nline 3\nline 4\n");
  PodLogOptions since_time;
  since_time.since_time = kT0 + std::chrono::seconds(4);
  EXPECT_EQ(Render(since_time, lines), "line 4\n");
  // Tail first (from the end of the log), then since within it.
  PodLogOptions both;
  both.tail_lines = 3;
  both.since_time = kT0 + std::chrono::seconds(3);
  EXPECT_EQ(Render(both, lines), "line 3\nline 4\n");
  PodLogOptions stamped;
  stamped.timestamps = true;
  stamped.tail_lines = 1;
  EXPECT_EQ(Render(stamped, lines), "2027-01-15T08:00:04Z line 4\n");
  // limitBytes cuts mid-line, as the kubelet's LimitWriter does.
  PodLogOptions limited;
  limited.limit_bytes = 10;
  EXPECT_EQ(Render(limited, lines), "line 0\nlin");
}

TEST(LogRendererTest, AFollowSendsLaterLinesUntilTheLimit) {
  PodLogOptions options;
  options.tail_lines = 1;
  options.limit_bytes = 16;
  LogRenderer renderer(options, kT0);
  std::string out;
  EXPECT_TRUE(renderer.RenderExisting(Lines(3), &out));
  EXPECT_EQ(out, "line 2\n");
  std::vector<LogLine> more = {{kT0, "line 3"}, {kT0, "line 4"}};
  EXPECT_FALSE(renderer.RenderMore(more, &out));  // tailLines does not apply to later lines
  EXPECT_EQ(out, "line 2\nline 3\nli");
  EXPECT_TRUE(renderer.exhausted());
}

}  // namespace
}  // namespace lws::apiserver
