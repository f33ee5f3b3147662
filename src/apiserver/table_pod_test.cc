// Pod rows: the STATUS / READY / RESTARTS summaries kubectl users read, case by case.
#include <gtest/gtest.h>

#include "apiserver/table.h"

namespace lws::apiserver {
namespace {

const Time kNow = *ParseRfc3339("2025-06-01T12:00:00Z");

const api::ResourceInfo& Pods() {
  static const api::ResourceRegistry registry = api::ResourceRegistry::WithBuiltins();
  return *registry.Find("", "v1", "pods");
}

// The row of a pod made of `spec` and `status` (JSON objects), created 10 minutes before kNow.
Json RowOf(const std::string& spec, const std::string& status, const std::string& extra_meta = "") {
  Json pod = Json::parse(R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"p",
      "namespace":"default","creationTimestamp":"2025-06-01T11:50:00Z")" +
                         extra_meta + "}}");
  pod["spec"] = Json::parse(spec);
  pod["status"] = Json::parse(status);
  TableOptions options;
  options.now = kNow;
  return TableForObject(Pods(), pod, options)["rows"][0];
}

struct PodCase {
  const char* name;
  std::string spec;
  std::string status;
  std::string meta;
  const char* ready;
  const char* status_cell;
  const char* restarts;
};

const char* kOne = R"({"containers":[{"name":"c"}]})";
const char* kTwo = R"({"containers":[{"name":"a"},{"name":"b"}]})";
const char* kThree = R"({"containers":[{"name":"a"},{"name":"b"},{"name":"c"}]})";
const char* kInitTwo =
    R"({"initContainers":[{"name":"i1"},{"name":"i2"}],"containers":[{"name":"c"}]})";
const char* kSidecar =
    R"({"initContainers":[{"name":"proxy","restartPolicy":"Always"}],"containers":[{"name":"c"}]})";

std::vector<PodCase> Cases() {
  const std::string running_ready =
      R"({"name":"%","ready":true,"restartCount":0,"state":{"running":{"startedAt":"2025-06-01T11:51:00Z"}}})";
  auto c = [&](const std::string& name) {
    std::string s = running_ready;
    s.replace(s.find('%'), 1, name);
    return s;
  };
  return {
      {"pending unscheduled", kOne, R"({"phase":"Pending"})", "", "0/1", "Pending", "0"},
      {"scheduling gated", kOne,
       R"({"phase":"Pending","conditions":[{"type":"PodScheduled","status":"False","reason":"SchedulingGated"}]})",
       "", "0/1", "SchedulingGated", "0"},
      {"container creating", kOne,
       R"({"phase":"Pending","containerStatuses":[{"name":"c","ready":false,"restartCount":0,"state":{"waiting":{"reason":"ContainerCreating"}}}]})",
       "", "0/1", "ContainerCreating", "0"},
      {"running two of three ready", kThree,
       R"({"phase":"Running","containerStatuses":[)" + c("a") + "," + c("b") +
           R"(,{"name":"c","ready":false,"restartCount":0,"state":{"running":{}}}]})",
       "", "2/3", "Running", "0"},
      {"crash loop with recent restart", kOne,
       R"({"phase":"Running","containerStatuses":[{"name":"c","ready":false,"restartCount":5,
          "state":{"waiting":{"reason":"CrashLoopBackOff"}},
          "lastState":{"terminated":{"exitCode":1,"reason":"Error","finishedAt":"2025-06-01T11:55:00Z"}}}]})",
       "", "0/1", "CrashLoopBackOff", "5 (5m ago)"},
      {"restarts without a finish time", kOne,
       R"({"phase":"Running","containerStatuses":[{"name":"c","ready":true,"restartCount":3,"state":{"running":{}}}]})",
       "", "1/1", "Running", "3"},
      {"completed", kOne,
       R"({"phase":"Succeeded","containerStatuses":[{"name":"c","ready":false,"restartCount":0,
          "state":{"terminated":{"exitCode":0,"reason":"Completed"}}}]})",
       "", "0/1", "Completed", "0"},
      {"exit code without reason", kOne,
       R"({"phase":"Failed","containerStatuses":[{"name":"c","restartCount":0,"state":{"terminated":{"exitCode":2}}}]})",
       "", "0/1", "ExitCode:2", "0"},
      {"signal without reason", kOne,
       R"({"phase":"Failed","containerStatuses":[{"name":"c","restartCount":0,"state":{"terminated":{"exitCode":137,"signal":9}}}]})",
       "", "0/1", "Signal:9", "0"},
      {"first container decides", kTwo,
       R"({"phase":"Running","containerStatuses":[{"name":"a","restartCount":0,"state":{"waiting":{"reason":"ImagePullBackOff"}}},)" +
           c("b") + "]}",
       "", "1/2", "ImagePullBackOff", "0"},
      {"completed sidecar while main runs and pod ready", kTwo,
       R"({"phase":"Running","conditions":[{"type":"Ready","status":"True"}],"containerStatuses":[)" +
           c("a") +
           R"(,{"name":"b","restartCount":0,"state":{"terminated":{"exitCode":0,"reason":"Completed"}}}]})",
       "", "1/2", "Running", "0"},
      {"completed container while another runs, pod not ready", kTwo,
       R"({"phase":"Running","containerStatuses":[)" + c("a") +
           R"(,{"name":"b","restartCount":0,"state":{"terminated":{"exitCode":0,"reason":"Completed"}}}]})",
       "", "1/2", "NotReady", "0"},
      {"terminating", kOne, R"({"phase":"Running","containerStatuses":[)" + c("c") + "]}",
       R"(,"deletionTimestamp":"2025-06-01T11:59:00Z")", "1/1", "Terminating", "0"},
      {"terminating on a lost node", kOne, R"({"phase":"Running","reason":"NodeLost"})",
       R"(,"deletionTimestamp":"2025-06-01T11:59:00Z")", "0/1", "Unknown", "0"},
      {"deleted after success stays completed", kOne,
       R"({"phase":"Succeeded","containerStatuses":[{"name":"c","restartCount":0,"state":{"terminated":{"exitCode":0,"reason":"Completed"}}}]})",
       R"(,"deletionTimestamp":"2025-06-01T11:59:00Z")", "0/1", "Completed", "0"},
      {"evicted", kOne, R"({"phase":"Failed","reason":"Evicted"})", "", "0/1", "Evicted", "0"},
      {"second init container running", kInitTwo,
       R"({"phase":"Pending","initContainerStatuses":[
          {"name":"i1","restartCount":0,"state":{"terminated":{"exitCode":0,"reason":"Completed"}}},
          {"name":"i2","restartCount":0,"state":{"running":{}}}],
          "containerStatuses":[{"name":"c","restartCount":0,"state":{"waiting":{"reason":"PodInitializing"}}}]})",
       "", "0/1", "Init:1/2", "0"},
      {"init waiting to initialize", kInitTwo,
       R"({"phase":"Pending","initContainerStatuses":[
          {"name":"i1","restartCount":0,"state":{"waiting":{"reason":"PodInitializing"}}}]})",
       "", "0/1", "Init:0/2", "0"},
      {"init crash loop counts init restarts", kInitTwo,
       R"({"phase":"Pending","initContainerStatuses":[
          {"name":"i1","restartCount":2,"state":{"waiting":{"reason":"CrashLoopBackOff"}},
           "lastState":{"terminated":{"exitCode":1,"finishedAt":"2025-06-01T11:57:30Z"}}}]})",
       "", "0/1", "Init:CrashLoopBackOff", "2 (2m30s ago)"},
      {"init failed with reason", kInitTwo,
       R"({"phase":"Pending","initContainerStatuses":[{"name":"i1","restartCount":0,"state":{"terminated":{"exitCode":1,"reason":"Error"}}}]})",
       "", "0/1", "Init:Error", "0"},
      {"init failed without reason", kInitTwo,
       R"({"phase":"Pending","initContainerStatuses":[{"name":"i1","restartCount":0,"state":{"terminated":{"exitCode":3}}}]})",
       "", "0/1", "Init:ExitCode:3", "0"},
      {"init killed by signal", kInitTwo,
       R"({"phase":"Pending","initContainerStatuses":[{"name":"i1","restartCount":0,"state":{"terminated":{"exitCode":1,"signal":15}}}]})",
       "", "0/1", "Init:Signal:15", "0"},
      {"sidecar counts as a container", kSidecar,
       R"({"phase":"Running","conditions":[{"type":"Initialized","status":"True"}],
          "initContainerStatuses":[{"name":"proxy","ready":true,"started":true,"restartCount":1,
            "state":{"running":{}},"lastState":{"terminated":{"exitCode":1,"finishedAt":"2025-06-01T10:00:00Z"}}}],
          "containerStatuses":[)" +
           c("c") + "]}",
       "", "2/2", "Running", "1 (120m ago)"},
      {"sidecar not started yet", kSidecar,
       R"({"phase":"Pending","initContainerStatuses":[{"name":"proxy","ready":false,"started":false,"restartCount":0,"state":{"running":{}}}]})",
       "", "0/2", "Init:0/1", "0"},
  };
}

TEST(PodRowTest, StatusReadyAndRestarts) {
  for (const PodCase& c : Cases()) {
    Json row = RowOf(c.spec, c.status, c.meta);
    EXPECT_EQ(row["cells"][0], "p") << c.name;
    EXPECT_EQ(row["cells"][1], c.ready) << c.name;
    EXPECT_EQ(row["cells"][2], c.status_cell) << c.name;
    EXPECT_EQ(row["cells"][3], c.restarts) << c.name;
    EXPECT_EQ(row["cells"][4], "10m") << c.name;
  }
}

TEST(PodRowTest, FinishedPodsCarryRowConditions) {
  Json succeeded = RowOf(kOne, R"({"phase":"Succeeded"})");
  EXPECT_EQ(succeeded["conditions"], Json::parse(R"([{"type":"Completed","status":"True",
      "reason":"Succeeded","message":"The pod has completed successfully."}])"));
  Json failed = RowOf(kOne, R"({"phase":"Failed"})");
  EXPECT_EQ(failed["conditions"][0]["message"], "The pod failed.");
  EXPECT_FALSE(RowOf(kOne, R"({"phase":"Running"})").contains("conditions"));
}

TEST(PodRowTest, WideCells) {
  Json row = RowOf(
      R"({"nodeName":"n1","containers":[{"name":"c"}],
          "readinessGates":[{"conditionType":"example.com/a"},{"conditionType":"example.com/b"}]})",
      R"({"phase":"Running","podIP":"10.0.0.9","podIPs":[{"ip":"10.0.0.9"},{"ip":"fd00::9"}],
          "nominatedNodeName":"n2",
          "conditions":[{"type":"example.com/a","status":"True"},{"type":"example.com/b","status":"False"}]})");
  EXPECT_EQ(row["cells"][5], "10.0.0.9");
  EXPECT_EQ(row["cells"][6], "n1");
  EXPECT_EQ(row["cells"][7], "n2");
  EXPECT_EQ(row["cells"][8], "1/2");
  Json bare = RowOf(kOne, R"({})");
  EXPECT_EQ(bare["cells"],
            Json::parse(R"(["p","0/1","","0","10m","<none>","<none>","<none>","<none>"])"));
}

TEST(PodRowTest, MalformedPodsPrintEmptyCells) {
  Json pod = Json::parse(R"({"metadata":"x","spec":[],"status":{"containerStatuses":{"a":1},
      "initContainerStatuses":[7,{"state":"x"}]}})");
  TableOptions options;
  options.now = kNow;
  Json row = TableForObject(Pods(), pod, options)["rows"][0];
  EXPECT_EQ(row["cells"].size(), 9u);
  EXPECT_EQ(row["cells"][4], "<unknown>");
}

}  // namespace
}  // namespace lws::apiserver
