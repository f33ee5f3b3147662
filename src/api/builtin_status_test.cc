#include "api/builtin_status.h"

#include <gtest/gtest.h>

#include "api/builtin_defaults.h"
#include "api/builtin_testing.h"

namespace lws::api {
namespace {

using testing::Builtin;

Json Container(Json requests, Json limits) {
  Json c = {{"name", "c"}, {"image", "x"}, {"resources", Json::object()}};
  if (!requests.is_null()) c["resources"]["requests"] = std::move(requests);
  if (!limits.is_null()) c["resources"]["limits"] = std::move(limits);
  return c;
}

// The class a v1.32 server stores for a pod with these containers (after defaulting).
std::string QOS(Json containers, Json init_containers = Json::array()) {
  Json pod = {
      {"spec",
       {{"containers", std::move(containers)}, {"initContainers", std::move(init_containers)}}}};
  ApplyBuiltinDefaults(Builtin("", "pods"), &pod);
  return InitialStatus(Builtin("", "pods"), pod).at("qosClass").get<std::string>();
}

TEST(PodQOSClass, MatchesUpstreamComputePodQOS) {
  const Json cpu_mem = {{"cpu", "1"}, {"memory", "1Gi"}};
  EXPECT_EQ(QOS({Container(nullptr, nullptr)}), "BestEffort");
  // Zero amounts and other resources do not count.
  EXPECT_EQ(QOS({Container({{"cpu", "0"}, {"example.com/gpu", "1"}}, nullptr)}), "BestEffort");
  EXPECT_EQ(QOS({Container({{"cpu", "100m"}}, nullptr)}), "Burstable");
  // Limits only: requests are defaulted from them, so the pod is Guaranteed.
  EXPECT_EQ(QOS({Container(nullptr, cpu_mem)}), "Guaranteed");
  EXPECT_EQ(QOS({Container(cpu_mem, cpu_mem)}), "Guaranteed");
  EXPECT_EQ(QOS({Container({{"cpu", "1000m"}, {"memory", "1024Mi"}}, cpu_mem)}), "Guaranteed");
  EXPECT_EQ(QOS({Container({{"cpu", "500m"}, {"memory", "1Gi"}}, cpu_mem)}), "Burstable");
  // Guaranteed needs both cpu and memory limits on every container, init containers included.
  EXPECT_EQ(QOS({Container(nullptr, {{"cpu", "1"}})}), "Burstable");
  EXPECT_EQ(QOS({Container(nullptr, cpu_mem), Container(nullptr, nullptr)}), "Burstable");
  EXPECT_EQ(QOS({Container(nullptr, cpu_mem)}, {Container(nullptr, nullptr)}), "Burstable");
  EXPECT_EQ(QOS({Container(nullptr, cpu_mem)}, {Container(nullptr, cpu_mem)}), "Guaranteed");
}

TEST(InitialStatus, PerKind) {
  const Json pod = {{"spec", {{"containers", {{{"name", "c"}, {"image", "x"}}}}}}};
  EXPECT_EQ(InitialStatus(Builtin("", "pods"), pod),
            Json({{"phase", "Pending"}, {"qosClass", "BestEffort"}}));
  EXPECT_EQ(InitialStatus(Builtin("", "namespaces"), Json::object()), Json({{"phase", "Active"}}));
  EXPECT_EQ(InitialStatus(Builtin("apps", "statefulsets"), {{"status", {{"replicas", 5}}}}),
            Json({{"replicas", 0}, {"availableReplicas", 0}}));
  EXPECT_EQ(InitialStatus(Builtin("", "services"), Json::object()),
            Json({{"loadBalancer", Json::object()}}));
  EXPECT_EQ(InitialStatus(Builtin("", "persistentvolumeclaims"), Json::object()),
            Json({{"phase", "Pending"}}));
  EXPECT_EQ(InitialStatus(Builtin("", "configmaps"), {{"status", {{"x", 1}}}}), Json());
  EXPECT_EQ(InitialStatus(Builtin("apps", "controllerrevisions"), Json::object()), Json());
}

TEST(InitialStatus, NodeKeepsItsStatusWithAllocatableFromCapacity) {
  const Json capacity = {{"cpu", "8"}, {"pods", "110"}};
  const ResourceInfo& nodes = Builtin("", "nodes");
  EXPECT_EQ(InitialStatus(nodes, {{"status", {{"capacity", capacity}}}}),
            Json({{"capacity", capacity}, {"allocatable", capacity}}));
  const Json both = {{"capacity", capacity}, {"allocatable", {{"cpu", "7"}}}};
  EXPECT_EQ(InitialStatus(nodes, {{"status", both}}), both);
  EXPECT_EQ(InitialStatus(nodes, Json::object()), Json());
  EXPECT_EQ(InitialStatus(nodes, {{"status", "odd"}}), "odd");
}

}  // namespace
}  // namespace lws::api
