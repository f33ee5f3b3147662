// Built-in defaulting: samples shaped like v1.32 server output, strip-and-restore of every
// defaulted field, per-field tables, malformed input, idempotence.
#include "api/builtin_defaults.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "api/builtin_testing.h"

namespace lws::api {
namespace {

using testing::ArbitraryShape;
using testing::Builtin;
using testing::LoadTestdata;

const ResourceInfo& Pods() { return Builtin("", "pods"); }
const ResourceInfo& Services() { return Builtin("", "services"); }
const ResourceInfo& StatefulSets() { return Builtin("apps", "statefulsets"); }

Json Defaulted(const ResourceInfo& info, Json object) {
  ApplyBuiltinDefaults(info, &object);
  return object;
}

struct SampleCase {
  std::string name;
  std::string group;
  std::string resource;
};

class BuiltinSampleTest : public ::testing::TestWithParam<SampleCase> {};

TEST_P(BuiltinSampleTest, PostedObjectGetsTheServerDefaults) {
  const auto& c = GetParam();
  const Json want = LoadTestdata("builtins/" + c.name + "_defaulted.json");
  const Json got =
      Defaulted(Builtin(c.group, c.resource), LoadTestdata("builtins/" + c.name + "_posted.json"));
  EXPECT_EQ(got, want) << Json::diff(want, got).dump(1);
}

// The oracle the samples give: remove any one defaulted leaf and defaulting restores it.
TEST_P(BuiltinSampleTest, EveryStrippedDefaultIsRestored) {
  const auto& c = GetParam();
  const Json posted = LoadTestdata("builtins/" + c.name + "_posted.json");
  const Json defaulted = LoadTestdata("builtins/" + c.name + "_defaulted.json");
  const Json flat_posted = posted.flatten();
  int stripped = 0;
  const Json flat_defaulted = defaulted.flatten();
  for (const auto& [pointer, value] : flat_defaulted.items()) {
    if (flat_posted.contains(pointer)) continue;  // set by the client, not a default
    Json without = defaulted;
    const Json::json_pointer at(pointer);
    Json& parent = without.at(at.parent_pointer());
    if (parent.is_array()) {
      parent.erase(std::stoul(at.back()));
    } else {
      parent.erase(at.back());
    }
    EXPECT_EQ(Defaulted(Builtin(c.group, c.resource), without), defaulted)
        << "stripped " << pointer;
    ++stripped;
  }
  EXPECT_GT(stripped, 3);
}

TEST_P(BuiltinSampleTest, DefaultingTheDefaultedSampleChangesNothing) {
  const auto& c = GetParam();
  const Json defaulted = LoadTestdata("builtins/" + c.name + "_defaulted.json");
  EXPECT_EQ(Defaulted(Builtin(c.group, c.resource), defaulted), defaulted);
}

INSTANTIATE_TEST_SUITE_P(Samples, BuiltinSampleTest,
                         ::testing::Values(SampleCase{"pod", "", "pods"},
                                           SampleCase{"statefulset", "apps", "statefulsets"},
                                           SampleCase{"service", "", "services"}),
                         [](const auto& info) { return info.param.name; });

TEST(BuiltinDefaults, ImagePullPolicyFollowsTheTag) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"nginx", "Always"},
      {"nginx:latest", "Always"},
      {"nginx:1.27", "IfNotPresent"},
      {"registry.k8s.io/pause:3.10", "IfNotPresent"},
      {"localhost:5000/app", "Always"},
      {"localhost:5000/app:v1", "IfNotPresent"},
      {"nginx@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
       "IfNotPresent"},
      {"nginx:latest@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
       "Always"},
      {"My.Registry.io/app", "Always"},
      {"Nginx", "IfNotPresent"},  // does not parse: upstream ignores the error
      {"", "IfNotPresent"},
  };
  for (const auto& [image, want] : cases) {
    Json pod = {{"spec", {{"containers", {{{"name", "c"}, {"image", image}}}}}}};
    pod = Defaulted(Pods(), pod);
    EXPECT_EQ(pod["spec"]["containers"][0]["imagePullPolicy"], want) << image;
  }
}

TEST(BuiltinDefaults, ExplicitValuesAreKept) {
  Json pod = {
      {"spec",
       {{"restartPolicy", "Never"},
        {"terminationGracePeriodSeconds", 0},
        {"enableServiceLinks", false},
        {"containers", {{{"name", "c"}, {"image", "nginx"}, {"imagePullPolicy", "Never"}}}}}}};
  pod = Defaulted(Pods(), pod);
  EXPECT_EQ(pod["spec"]["restartPolicy"], "Never");
  EXPECT_EQ(pod["spec"]["terminationGracePeriodSeconds"], 0);
  EXPECT_EQ(pod["spec"]["enableServiceLinks"], false);
  EXPECT_EQ(pod["spec"]["containers"][0]["imagePullPolicy"], "Never");
}

TEST(BuiltinDefaults, QuantitiesTakeTheirCanonicalForm) {
  Json pod = {
      {"spec",
       {{"containers",
         {{{"name", "c"},
           {"resources",
            {{"limits", {{"cpu", "1000m"}, {"memory", "1Gi"}, {"example.com/gpu", 2}}},
             {"requests",
              {{"cpu", "0.1"}, {"memory", "0.5Gi"}, {"ephemeral-storage", "0.0001"}}}}}}}}}}};
  pod = Defaulted(Pods(), pod);
  const Json& r = pod["spec"]["containers"][0]["resources"];
  EXPECT_EQ(r["limits"], Json({{"cpu", "1"}, {"memory", "1Gi"}, {"example.com/gpu", "2"}}));
  // Requests are not copied over existing ones; 0.1m rounds up to 1m.
  EXPECT_EQ(r["requests"], Json({{"cpu", "100m"},
                                 {"memory", "512Mi"},
                                 {"ephemeral-storage", "1m"},
                                 {"example.com/gpu", "2"}}));
}

TEST(BuiltinDefaults, TemplatesGetPodSpecDefaultsButNotPodOnlyOnes) {
  Json sts = {{"spec",
               {{"template",
                 {{"spec",
                   {{"hostNetwork", true},
                    {"containers",
                     {{{"name", "c"},
                       {"image", "x:1"},
                       {"ports", {{{"containerPort", 80}}}},
                       {"resources", {{"limits", {{"cpu", "1"}}}}}}}}}}}}}}};
  sts = Defaulted(StatefulSets(), sts);
  const Json& spec = sts["spec"]["template"]["spec"];
  EXPECT_FALSE(spec.contains("enableServiceLinks"));
  EXPECT_FALSE(spec["containers"][0]["resources"].contains("requests"));
  EXPECT_FALSE(spec["containers"][0]["ports"][0].contains("hostPort"));
  EXPECT_EQ(spec["dnsPolicy"], "ClusterFirst");

  Json pod = {{"spec", spec}};
  pod["spec"].erase("dnsPolicy");
  pod = Defaulted(Pods(), pod);
  EXPECT_EQ(pod["spec"]["containers"][0]["ports"][0]["hostPort"], 80);
  EXPECT_EQ(pod["spec"]["containers"][0]["resources"]["requests"], Json({{"cpu", "1"}}));
  EXPECT_EQ(pod["spec"]["enableServiceLinks"], true);
}

TEST(BuiltinDefaults, StatefulSetUpdateStrategy) {
  struct Case {
    Json strategy;
    Json want;
  };
  const std::vector<Case> cases = {
      {nullptr, {{"type", "RollingUpdate"}, {"rollingUpdate", {{"partition", 0}}}}},
      {Json::object(), {{"type", "RollingUpdate"}, {"rollingUpdate", {{"partition", 0}}}}},
      // An explicit RollingUpdate without rollingUpdate keeps it absent, as upstream.
      {{{"type", "RollingUpdate"}}, {{"type", "RollingUpdate"}}},
      {{{"type", "RollingUpdate"}, {"rollingUpdate", Json::object()}},
       {{"type", "RollingUpdate"}, {"rollingUpdate", {{"partition", 0}}}}},
      {{{"type", "OnDelete"}}, {{"type", "OnDelete"}}},
      {"bogus", "bogus"},
  };
  for (const auto& c : cases) {
    Json sts = {{"spec", Json::object()}};
    if (!c.strategy.is_null()) sts["spec"]["updateStrategy"] = c.strategy;
    sts = Defaulted(StatefulSets(), sts);
    EXPECT_EQ(sts["spec"]["updateStrategy"], c.want) << c.strategy.dump();
  }
}

TEST(BuiltinDefaults, ServiceIPFamiliesAndPorts) {
  struct Case {
    Json spec;
    Json policy;
    Json families;
  };
  const Json selector = {{"app", "x"}};
  const std::vector<Case> cases = {
      {{{"selector", selector}}, "SingleStack", {"IPv4"}},
      {{{"clusterIP", "None"}, {"selector", selector}}, "SingleStack", {"IPv4"}},
      {{{"clusterIP", "None"}}, "RequireDualStack", {"IPv4", "IPv6"}},
      {{{"clusterIP", "fd00::1"}}, "SingleStack", {"IPv6"}},
      {{{"ipFamilyPolicy", "PreferDualStack"}}, "PreferDualStack", {"IPv4"}},
      {{{"type", "ExternalName"}, {"externalName", "example.com"}}, nullptr, nullptr},
  };
  for (const auto& c : cases) {
    Json svc = Defaulted(Services(), {{"spec", c.spec}});
    EXPECT_EQ(svc["spec"].value("ipFamilyPolicy", Json()), c.policy) << c.spec.dump();
    EXPECT_EQ(svc["spec"].value("ipFamilies", Json()), c.families) << c.spec.dump();
  }
  Json svc = Defaulted(Services(),
                       {{"spec",
                         {{"type", "NodePort"},
                          {"sessionAffinity", "ClientIP"},
                          {"ports", {{{"port", 80}}, {{"port", 443}, {"targetPort", "https"}}}}}}});
  EXPECT_EQ(svc["spec"]["ports"],
            Json({{{"port", 80}, {"protocol", "TCP"}, {"targetPort", 80}},
                  {{"port", 443}, {"protocol", "TCP"}, {"targetPort", "https"}}}));
  EXPECT_EQ(svc["spec"]["externalTrafficPolicy"], "Cluster");
  EXPECT_EQ(svc["spec"]["sessionAffinityConfig"],
            Json({{"clientIP", {{"timeoutSeconds", 10800}}}}));
}

TEST(BuiltinDefaults, NamespaceSecretAndClaim) {
  Json ns = Defaulted(Builtin("", "namespaces"), {{"metadata", {{"name", "team-a"}}}});
  EXPECT_EQ(ns,
            Json({{"metadata",
                   {{"name", "team-a"}, {"labels", {{"kubernetes.io/metadata.name", "team-a"}}}}},
                  {"spec", {{"finalizers", {"kubernetes"}}}}}));
  Json secret = Defaulted(Builtin("", "secrets"), {{"data", {{"a", "eA=="}}},
                                                   {"stringData", {{"a", "hello"}, {"b", "hi!"}}}});
  EXPECT_EQ(secret, Json({{"type", "Opaque"}, {"data", {{"a", "aGVsbG8="}, {"b", "aGkh"}}}}));
  Json claim = Defaulted(Builtin("", "persistentvolumeclaims"), {{"metadata", {{"name", "c"}}}});
  EXPECT_EQ(claim["spec"], Json({{"volumeMode", "Filesystem"}}));
}

TEST(BuiltinDefaults, UpdateCarriesAllocatedServiceFieldsAndNamespaceFinalizers) {
  const Json stored =
      Defaulted(Services(), {{"spec", {{"clusterIP", "10.96.0.10"}, {"ports", {{{"port", 53}}}}}}});
  Json update = {{"spec", {{"ports", {{{"port", 53}}}}}}};
  ApplyBuiltinUpdateCarryOver(Services(), stored, &update);
  ApplyBuiltinDefaults(Services(), &update);
  EXPECT_EQ(update, stored);

  const ResourceInfo& namespaces = Builtin("", "namespaces");
  Json ns = {{"metadata", {{"name", "a"}}}, {"spec", {{"finalizers", {"mine"}}}}};
  ApplyBuiltinUpdateCarryOver(namespaces, {{"spec", {{"finalizers", Json::array()}}}}, &ns);
  ApplyBuiltinDefaults(namespaces, &ns);
  EXPECT_EQ(ns["spec"]["finalizers"], Json::array());
}

TEST(BuiltinDefaults, MalformedShapesAreLeftAlone) {
  const std::vector<Json> pods = {
      {{"spec", "oops"}},
      {{"spec", {{"containers", "oops"}}}},
      {{"spec", {{"containers", {1, "two", nullptr}}}}},
      {{"spec", {{"containers", {{{"resources", {{"limits", "x"}}}}}}}}},
      {{"spec", {{"securityContext", "x"}, {"volumes", {{{"name", "v"}, {"secret", 3}}}}}}},
  };
  for (const auto& pod : pods) {
    const Json flat_got = Defaulted(Pods(), pod).flatten();
    const Json flat_pod = pod.flatten();
    for (const auto& [pointer, value] : flat_pod.items()) {
      EXPECT_EQ(flat_got.value(pointer, Json("<removed>")), value)
          << pod.dump() << " at " << pointer;
    }
  }
  EXPECT_EQ(Defaulted(Pods(), "not an object"), "not an object");
  EXPECT_EQ(
      Defaulted(StatefulSets(), {{"spec", {{"updateStrategy", 7}}}})["spec"]["updateStrategy"], 7);
}

TEST(BuiltinDefaults, OtherKindsAndCustomResourcesAreUnchanged) {
  const Json object = {{"metadata", {{"name", "x"}}}, {"spec", {{"containers", Json::array()}}}};
  EXPECT_EQ(Defaulted(Builtin("", "configmaps"), object), object);
  ResourceInfo custom = Pods();
  custom.custom = true;
  EXPECT_EQ(Defaulted(custom, object), object);
}

// Upstream's round-trip fixtures set every field, so defaulting may only fill what those files
// leave empty or rewrite into canonical form.
TEST(BuiltinDefaults, FullyPopulatedFixturesKeepTheirValues) {
  const std::vector<std::pair<std::string, const ResourceInfo*>> fixtures = {
      {"core.v1.Pod.json", &Pods()},
      {"apps.v1.StatefulSet.json", &StatefulSets()},
      {"core.v1.Service.json", &Services()},
      {"core.v1.Namespace.json", &Builtin("", "namespaces")}};
  for (const auto& [file, info] : fixtures) {
    const Json input = LoadTestdata("k8s-api/" + file);
    const Json got = Defaulted(*info, input);
    for (const auto& op : Json::diff(input, got)) {
      EXPECT_EQ(op["op"], "add") << file << ": " << op.dump();
    }
  }
}

RC_GTEST_PROP(BuiltinDefaultsProperty, IdempotentAndNeverThrowsOnArbitraryShapes, ()) {
  const std::vector<const ResourceInfo*> kinds = {&Pods(),
                                                  &Services(),
                                                  &StatefulSets(),
                                                  &Builtin("", "namespaces"),
                                                  &Builtin("", "secrets"),
                                                  &Builtin("", "persistentvolumeclaims")};
  const ResourceInfo& info = **rc::gen::elementOf(kinds);
  Json object = Json::object();
  for (const char* key : {"metadata", "spec", "stringData", "data"}) {
    if (*rc::gen::arbitrary<bool>()) object[key] = ArbitraryShape(4);
  }
  Json once = object;
  ApplyBuiltinDefaults(info, &once);
  Json twice = once;
  ApplyBuiltinDefaults(info, &twice);
  RC_ASSERT(twice == once);
}

}  // namespace
}  // namespace lws::api
