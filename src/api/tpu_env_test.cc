// Tests of the TPU variables (spec 14.4; scenarios S151-S155 from upstream tpu_test.go).
#include "api/tpu_env.h"

#include <gtest/gtest.h>

#include <limits>

#include "api/lws_types.h"

namespace lws::api {
namespace {

Container TpuContainer(std::string name, std::vector<EnvVar> env = {}) {
  Container c;
  c.name = std::move(name);
  c.image = "busybox";
  c.env = std::move(env);
  c.resources.limits[kTpuResourceName] = Quantity::FromInt(4);
  return c;
}

Container PlainContainer(std::string name) {
  Container c;
  c.name = std::move(name);
  return c;
}

Pod MakePod(std::string name, StringMap labels, StringMap annotations,
            std::vector<Container> containers = {TpuContainer("worker")}) {
  Pod pod;
  pod.metadata.name = std::move(name);
  pod.metadata.namespace_ = "default";
  pod.metadata.labels = std::move(labels);
  pod.metadata.annotations = std::move(annotations);
  pod.spec.containers = std::move(containers);
  pod.spec.subdomain = "default";
  return pod;
}

std::string Env(const Container& c, const std::string& name) {
  const EnvVar* var = c.FindEnv(name);
  return var ? var->value : "<unset>";
}

// The five TPU variables of a container, checked together.
struct Want {
  std::string hostnames;
  std::string worker_id;
  std::string name;
  std::string addresses;
  std::string port;
};

void ExpectTpuEnv(const Container& c, const Want& want) {
  EXPECT_EQ(Env(c, kTpuWorkerHostnamesEnv), want.hostnames) << c.name;
  EXPECT_EQ(Env(c, kTpuWorkerIdEnv), want.worker_id) << c.name;
  EXPECT_EQ(Env(c, kTpuNameEnv), want.name) << c.name;
  EXPECT_EQ(Env(c, kTpuProcessAddressesEnv), want.addresses) << c.name;
  EXPECT_EQ(Env(c, kTpuProcessPortEnv), want.port) << c.name;
}

const StringMap kLeader = {{kWorkerIndexLabel, "0"}};
const StringMap kLeaderTpus = {{kLeaderRequestsTpusAnnotation, "true"}};

TEST(PodRequestsTpusTest, LimitsFirstThenRequests) {
  PodSpec spec;
  EXPECT_FALSE(PodRequestsTpus(spec));
  spec.containers.push_back(PlainContainer("c1"));
  EXPECT_FALSE(PodRequestsTpus(spec));
  spec.containers[0].resources.limits[kTpuResourceName] = Quantity::FromInt(0);
  EXPECT_FALSE(PodRequestsTpus(spec));
  spec.containers[0].resources.requests[kTpuResourceName] = Quantity::FromInt(2);
  EXPECT_TRUE(PodRequestsTpus(spec));  // a zero limit falls through to the request
  EXPECT_EQ(NumTpusRequested(spec.containers[0]), 2);
  spec.containers[0].resources.limits[kTpuResourceName] = Quantity::FromInt(8);
  EXPECT_EQ(NumTpusRequested(spec.containers[0]), 8);
  spec.containers[0].resources.limits[kTpuResourceName] = Quantity::FromMilli(100);
  EXPECT_EQ(NumTpusRequested(spec.containers[0]), 1);  // Value() rounds up

  PodSpec init_only;
  init_only.init_containers.push_back(TpuContainer("i1"));
  EXPECT_TRUE(PodRequestsTpus(init_only));
  PodSpec other_resource;
  other_resource.containers.push_back(PlainContainer("c1"));
  other_resource.containers[0].resources.limits["nvidia.com/gpu"] = Quantity::FromInt(1);
  EXPECT_FALSE(PodRequestsTpus(other_resource));
}

TEST(ContainersRequestingTpusTest, RegularContainersThenInitContainers) {
  Pod pod = MakePod("p", {}, {}, {PlainContainer("a"), TpuContainer("b"), TpuContainer("c")});
  pod.spec.init_containers = {TpuContainer("i"), PlainContainer("j")};
  std::vector<std::string> names;
  for (Container* c : ContainersRequestingTpus(&pod.spec)) names.push_back(c->name);
  EXPECT_EQ(names, (std::vector<std::string>{"b", "c", "i"}));
}

// S151: one TPU container per pod, group of 2.
TEST(AddTpuVariablesTest, SingleContainer) {
  const Want whole_group = {"test-sample-0.default,test-sample-0-1.default", "0", "test-sample-0",
                            "test-sample-0.default:8476,test-sample-0-1.default:8476", "8476"};
  struct Case {
    const char* name;
    Pod pod;
    Want want;
  };
  const std::vector<Case> cases = {
      {"leader, leader requests TPUs", MakePod("test-sample-0", kLeader, kLeaderTpus), whole_group},
      {"leader is always in the mesh", MakePod("test-sample-0", kLeader, {}), whole_group},
      {"worker, leader requests TPUs",
       MakePod("test-sample-0-1", {{kWorkerIndexLabel, "1"}}, kLeaderTpus),
       {whole_group.hostnames, "1", "test-sample-0", whole_group.addresses, "8476"}},
      {"worker, leader without TPUs",
       MakePod("test-sample-0-1", {{kWorkerIndexLabel, "1"}}, {}),
       {"test-sample-0-1.default", "0", "test-sample-0", "test-sample-0-1.default:8476", "8476"}},
  };
  for (Case c : cases) {
    ASSERT_TRUE(AddTpuVariables(&c.pod, 2).ok()) << c.name;
    SCOPED_TRACE(c.name);
    ExpectTpuEnv(c.pod.spec.containers[0], c.want);
    EXPECT_EQ(c.pod.spec.containers[0].env.size(), 5u);
  }
}

// S152: two TPU containers; each host is listed once per container, with per-container ports.
TEST(AddTpuVariablesTest, MultipleContainersDefaultPorts) {
  Pod pod =
      MakePod("test-sample-0", kLeader, kLeaderTpus, {TpuContainer("c1"), TpuContainer("c2")});
  ASSERT_TRUE(AddTpuVariables(&pod, 2).ok());
  const std::string hosts =
      "test-sample-0.default,test-sample-0.default,test-sample-0-1.default,test-sample-0-1.default";
  const std::string addresses =
      "test-sample-0.default:8476,test-sample-0.default:8477,"
      "test-sample-0-1.default:8476,test-sample-0-1.default:8477";
  ExpectTpuEnv(pod.spec.containers[0], {hosts, "0", "test-sample-0", addresses, "8476"});
  ExpectTpuEnv(pod.spec.containers[1], {hosts, "1", "test-sample-0", addresses, "8477"});
}

TEST(AddTpuVariablesTest, MultipleContainersCustomPorts) {
  Pod pod = MakePod("test-sample-0", kLeader, kLeaderTpus,
                    {TpuContainer("c1", {{kTpuProcessPortEnv, "8478", {}}}),
                     TpuContainer("c2", {{kTpuProcessPortEnv, "8479", {}}})});
  ASSERT_TRUE(AddTpuVariables(&pod, 2).ok());
  const std::string hosts =
      "test-sample-0.default,test-sample-0.default,test-sample-0-1.default,test-sample-0-1.default";
  const std::string addresses =
      "test-sample-0.default:8478,test-sample-0.default:8479,"
      "test-sample-0-1.default:8478,test-sample-0-1.default:8479";
  ExpectTpuEnv(pod.spec.containers[0], {hosts, "0", "test-sample-0", addresses, "8478"});
  ExpectTpuEnv(pod.spec.containers[1], {hosts, "1", "test-sample-0", addresses, "8479"});
  // The user's port stays first and is not added a second time.
  EXPECT_EQ(pod.spec.containers[0].env.size(), 5u);
  EXPECT_EQ(pod.spec.containers[0].env[0].name, kTpuProcessPortEnv);
}

TEST(AddTpuVariablesTest, MultipleContainersWorkerIds) {
  Pod pod = MakePod("test-sample-0-1", {{kWorkerIndexLabel, "1"}}, kLeaderTpus,
                    {TpuContainer("c1"), TpuContainer("c2")});
  ASSERT_TRUE(AddTpuVariables(&pod, 2).ok());
  EXPECT_EQ(Env(pod.spec.containers[0], kTpuWorkerIdEnv), "2");
  EXPECT_EQ(Env(pod.spec.containers[1], kTpuWorkerIdEnv), "3");
}

// S153: the only TPU container is an init container.
TEST(AddTpuVariablesTest, InitContainerOnly) {
  Pod pod = MakePod("sample-0", kLeader, {}, {PlainContainer("main")});
  pod.spec.init_containers = {TpuContainer("i1")};
  ASSERT_TRUE(AddTpuVariables(&pod, 1).ok());
  ExpectTpuEnv(pod.spec.init_containers[0],
               {"sample-0.default", "0", "sample-0", "sample-0.default:8476", "8476"});
  EXPECT_TRUE(pod.spec.containers[0].env.empty());
}

// S154, non-subgroup mode.
TEST(AddTpuVariablesTest, InvalidWorkerNameIsAnError) {
  Pod pod = MakePod("invalidname", {}, {});
  const Status status = AddTpuVariables(&pod, 1);
  EXPECT_EQ(status.code(), Code::kForbidden);
  EXPECT_EQ(status.message(), "parsing parent name from pod invalidname");
}

TEST(AddTpuVariablesTest, NoTpuContainerIsANoOp) {
  Pod pod = MakePod("test-sample-0", kLeader, {}, {PlainContainer("c1")});
  ASSERT_TRUE(AddTpuVariables(&pod, 4).ok());
  EXPECT_TRUE(pod.spec.containers[0].env.empty());
}

TEST(AddTpuVariablesTest, SkipsWhenAlreadyInjected) {
  for (const std::string& existing : {kTpuWorkerIdEnv, kTpuWorkerHostnamesEnv}) {
    for (bool subgroup : {false, true}) {
      StringMap annotations;
      if (subgroup) annotations[kSubGroupSizeAnnotation] = "1";
      Pod pod = MakePod("test-sample-0", kLeader, annotations,
                        {TpuContainer("c1", {{existing, "0", {}}})});
      ASSERT_TRUE(AddTpuVariables(&pod, 1).ok()) << existing << subgroup;
      EXPECT_EQ(pod.spec.containers[0].env.size(), 1u) << existing << subgroup;
    }
  }
}

TEST(AddTpuVariablesTest, HugeSizeIsRefusedInsteadOfAllocated) {
  for (std::int64_t size : {std::int64_t{1} << 40, std::numeric_limits<std::int64_t>::min()}) {
    Pod pod = MakePod("test-sample-0", kLeader, {});
    const Status status = AddTpuVariables(&pod, size);
    EXPECT_EQ(status.code(), Code::kForbidden) << size;
    EXPECT_EQ(status.message(), "TPU variables for pod test-sample-0 would exceed 3145728 bytes");
    EXPECT_TRUE(pod.spec.containers[0].env.empty());
  }
}

StringMap SubGroupLabels(std::string worker_index, std::string sub_group_index) {
  return {{kWorkerIndexLabel, std::move(worker_index)},
          {kSubGroupIndexLabel, std::move(sub_group_index)}};
}

// S155: one row per upstream TestAddTPUVariablesSubGroup case and scenario example.
TEST(AddTpuVariablesSubGroupTest, Table) {
  struct Case {
    const char* name;
    Pod pod;
    Want want;
  };
  const auto subgroup = [](std::string size, bool leader_tpus, StringMap extra = {}) {
    StringMap a = {{kSubGroupSizeAnnotation, std::move(size)}};
    if (leader_tpus) a[kLeaderRequestsTpusAnnotation] = "true";
    a.insert(extra.begin(), extra.end());
    return a;
  };
  const std::vector<Case> cases = {
      {"leader, subgroup size 1",
       MakePod("test-sample-0", SubGroupLabels("0", "0"), subgroup("1", false)),
       {"test-sample-0.default", "0", "test-sample-0", "test-sample-0.default:8476", "8476"}},
      {"leader, subgroup size 2",
       MakePod("test-sample-0", SubGroupLabels("0", "0"), subgroup("2", false)),
       {"test-sample-0.default,test-sample-0-1.default", "0", "test-sample-0",
        "test-sample-0.default:8476,test-sample-0-1.default:8476", "8476"}},
      {"worker in subgroup 0, leader requests TPUs",
       MakePod("test-sample-1-3", SubGroupLabels("3", "0"), subgroup("5", true)),
       {"test-sample-1.default,test-sample-1-1.default,test-sample-1-2.default,"
        "test-sample-1-3.default,test-sample-1-4.default",
        "3", "test-sample-1",
        "test-sample-1.default:8476,test-sample-1-1.default:8476,test-sample-1-2.default:8476,"
        "test-sample-1-3.default:8476,test-sample-1-4.default:8476",
        "8476"}},
      {"worker in subgroup 1, leader requests TPUs",
       MakePod("test-sample-1-7", SubGroupLabels("7", "1"), subgroup("4", true)),
       {"test-sample-1-4.default,test-sample-1-5.default,test-sample-1-6.default,"
        "test-sample-1-7.default",
        "3", "test-sample-1",
        "test-sample-1-4.default:8476,test-sample-1-5.default:8476,test-sample-1-6.default:8476,"
        "test-sample-1-7.default:8476",
        "8476"}},
      {"worker in subgroup 1, leader without TPUs",
       MakePod("test-sample-1-5", SubGroupLabels("5", "1"), subgroup("4", false)),
       {"test-sample-1-5.default,test-sample-1-6.default,test-sample-1-7.default,"
        "test-sample-1-8.default",
        "0", "test-sample-1",
        "test-sample-1-5.default:8476,test-sample-1-6.default:8476,test-sample-1-7.default:8476,"
        "test-sample-1-8.default:8476",
        "8476"}},
      {"LeaderExcluded worker",
       MakePod("test-sample-0-2", SubGroupLabels("2", "0"),
               subgroup("2", false, {{kSubGroupPolicyTypeAnnotation, kSubGroupLeaderExcluded}})),
       {"test-sample-0-1.default,test-sample-0-2.default", "1", "test-sample-0",
        "test-sample-0-1.default:8476,test-sample-0-2.default:8476", "8476"}},
      {"subgroup size 1, worker 1",
       MakePod("prefill-0-1", SubGroupLabels("1", "1"), subgroup("1", false)),
       {"prefill-0-1.default", "0", "prefill-0", "prefill-0-1.default:8476", "8476"}},
      {"subgroup size 1, worker 2",
       MakePod("prefill-0-2", SubGroupLabels("2", "2"), subgroup("1", false)),
       {"prefill-0-2.default", "0", "prefill-0", "prefill-0-2.default:8476", "8476"}},
  };
  for (Case c : cases) {
    ASSERT_TRUE(AddTpuVariables(&c.pod, 99).ok()) << c.name;  // size is unused with subgroups
    SCOPED_TRACE(c.name);
    ExpectTpuEnv(c.pod.spec.containers[0], c.want);
  }
}

TEST(AddTpuVariablesSubGroupTest, KeepsTheUsersPort) {
  Pod pod = MakePod("test-sample-1-5", SubGroupLabels("5", "1"), {{kSubGroupSizeAnnotation, "4"}},
                    {TpuContainer("worker", {{kTpuProcessPortEnv, "8478", {}}})});
  ASSERT_TRUE(AddTpuVariablesSubGroup(&pod).ok());
  ExpectTpuEnv(pod.spec.containers[0],
               {"test-sample-1-5.default,test-sample-1-6.default,test-sample-1-7.default,"
                "test-sample-1-8.default",
                "0", "test-sample-1",
                "test-sample-1-5.default:8478,test-sample-1-6.default:8478,"
                "test-sample-1-7.default:8478,test-sample-1-8.default:8478",
                "8478"});
  EXPECT_EQ(pod.spec.containers[0].env.size(), 5u);
}

TEST(AddTpuVariablesSubGroupTest, OnlyTheFirstTpuContainerIsConfigured) {
  Pod pod = MakePod("test-sample-0", SubGroupLabels("0", "0"), {{kSubGroupSizeAnnotation, "2"}},
                    {TpuContainer("c1"), TpuContainer("c2")});
  ASSERT_TRUE(AddTpuVariables(&pod, 2).ok());
  EXPECT_EQ(pod.spec.containers[0].env.size(), 5u);
  EXPECT_TRUE(pod.spec.containers[1].env.empty());
}

// S154, subgroup mode: every input must parse.
TEST(AddTpuVariablesSubGroupTest, Errors) {
  struct Case {
    const char* name;
    Pod pod;
    Code code;
    std::string message;
  };
  const std::vector<Case> cases = {
      {"invalid size",
       MakePod("p-0", SubGroupLabels("0", "0"), {{kSubGroupSizeAnnotation, "invalid"}}),
       Code::kForbidden, R"(strconv.Atoi: parsing "invalid": invalid syntax)"},
      {"invalid subgroup index",
       MakePod("p-0", SubGroupLabels("0", "invalid"), {{kSubGroupSizeAnnotation, "1"}}),
       Code::kForbidden, R"(strconv.Atoi: parsing "invalid": invalid syntax)"},
      {"missing subgroup index", MakePod("p-0", kLeader, {{kSubGroupSizeAnnotation, "1"}}),
       Code::kForbidden, R"(strconv.Atoi: parsing "": invalid syntax)"},
      {"invalid worker index",
       MakePod("p-0", SubGroupLabels("invalid", "0"), {{kSubGroupSizeAnnotation, "1"}}),
       Code::kForbidden, R"(strconv.Atoi: parsing "invalid": invalid syntax)"},
      {"invalid parent name",
       MakePod("invalidname", SubGroupLabels("1", "0"), {{kSubGroupSizeAnnotation, "2"}}),
       Code::kForbidden, "parsing parent name from pod invalidname"},
      {"zero subgroup size",
       MakePod("p-0-1", SubGroupLabels("1", "0"), {{kSubGroupSizeAnnotation, "0"}}),
       Code::kInternal, "panic: runtime error: integer divide by zero [recovered]"},
  };
  for (Case c : cases) {
    const Status status = AddTpuVariables(&c.pod, 1);
    EXPECT_EQ(status.code(), c.code) << c.name;
    EXPECT_EQ(status.message(), c.message) << c.name;
  }
}

TEST(AddTpuVariablesSubGroupTest, OverflowingWindowIsRefused) {
  // The window [sgs*sgi + 1, sgs*(sgi+1)] is as wide as the subgroup size annotation says.
  Pod pod = MakePod("p-0-1", SubGroupLabels("1", "0"),
                    {{kSubGroupSizeAnnotation, "9223372036854775807"}});
  const Status status = AddTpuVariablesSubGroup(&pod);
  EXPECT_EQ(status.code(), Code::kForbidden);
  EXPECT_EQ(status.message(), "TPU variables for pod p-0-1 would exceed 3145728 bytes");
}

}  // namespace
}  // namespace lws::api
