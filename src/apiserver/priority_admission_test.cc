// PriorityClass and the Priority admission plugin through the API server (api/priority_class.h,
// apiserver/priority_admission.h). Cases from kube-apiserver's
// plugin/pkg/admission/priority/admission_test.go (TestPriorityClassAdmission,
// TestPodAdmission: "pod with no priority class and no default", "pod with a system class",
// "pod with a non-existing priority class", "pod with a priority value that differs from its
// class", "pod with a preemption policy that differs") and
// pkg/apis/scheduling/validation/validation_test.go (TestValidatePriorityClass and its update).
#include "apiserver/priority_admission.h"

#include "apiserver/api_server_testing.h"

namespace lws::apiserver {
namespace {

constexpr const char* kClasses = "/apis/scheduling.k8s.io/v1/priorityclasses";

class PriorityAdmissionTest : public testing::ApiServerTest {
 protected:
  testing::Reply Class(const std::string& name, std::int64_t value, bool global = false,
                       const std::string& policy = "") {
    api::Json pc = {{"apiVersion", "scheduling.k8s.io/v1"},
                    {"kind", "PriorityClass"},
                    {"metadata", {{"name", name}}},
                    {"value", value}};
    if (global) pc["globalDefault"] = true;
    if (!policy.empty()) pc["preemptionPolicy"] = policy;
    return Send("POST", kClasses, pc.dump());
  }
  testing::Reply Pod(const std::string& name, const api::Json& spec_extra = api::Json::object()) {
    api::Json pod = {{"apiVersion", "v1"},
                     {"kind", "Pod"},
                     {"metadata", {{"name", name}}},
                     {"spec", {{"containers", {{{"name", "c"}, {"image", "x"}}}}}}};
    pod["spec"].update(spec_extra);
    return Send("POST", testing::kPods, pod.dump());
  }
  static std::string Message(const testing::Reply& r) { return r.body.value("message", ""); }
};

TEST_F(PriorityAdmissionTest, TheSystemClassesExistAtStart) {
  testing::Reply list = Send("GET", kClasses);
  ASSERT_EQ(list.code, 200);
  ASSERT_EQ(list.body["items"].size(), 2u);
  EXPECT_EQ(list.body["items"][0]["metadata"]["name"], "system-cluster-critical");
  EXPECT_EQ(list.body["items"][0]["value"], 2000000000);
  EXPECT_EQ(list.body["items"][1]["metadata"]["name"], "system-node-critical");
  EXPECT_EQ(list.body["items"][1]["value"], 2000001000);
  EXPECT_EQ(list.body["items"][1]["preemptionPolicy"], "PreemptLowerPriority");
}

TEST_F(PriorityAdmissionTest, ClassValidation) {
  testing::Reply r = Class("serving", 1000);
  ASSERT_EQ(r.code, 201) << r.body.dump();
  EXPECT_EQ(r.body["preemptionPolicy"], "PreemptLowerPriority");  // defaulted
  r = Class("too-high", 1000000001);
  EXPECT_EQ(r.code, 422);
  EXPECT_EQ(Message(r),
            "PriorityClass.scheduling.k8s.io \"too-high\" is invalid: value: Forbidden: "
            "maximum allowed value of a user defined priority is 1000000000");
  r = Class("system-mine", 10);
  EXPECT_EQ(r.code, 422);
  EXPECT_NE(Message(r).find("metadata.name: Forbidden: priority class names with 'system-' prefix "
                            "are reserved for system use only. error: system-mine is not a known "
                            "system priority class"),
            std::string::npos)
      << Message(r);
  r = Class("bad-policy", 5, false, "Sometimes");
  EXPECT_EQ(r.code, 422);
  EXPECT_NE(Message(r).find("preemptionPolicy: Unsupported value: \"Sometimes\": supported values: "
                            "\"PreemptLowerPriority\", \"Never\""),
            std::string::npos)
      << Message(r);
  // value is immutable.
  r = Send("PATCH", std::string(kClasses) + "/serving", R"({"value":7})",
           "application/merge-patch+json");
  EXPECT_EQ(r.code, 422);
  EXPECT_NE(Message(r).find("value: Forbidden: may not be changed in an update."),
            std::string::npos);
}

TEST_F(PriorityAdmissionTest, OnlyOneGlobalDefault) {
  ASSERT_EQ(Class("serving", 1000, true).code, 201);
  testing::Reply r = Class("other", 5, true);
  EXPECT_EQ(r.code, 403);
  EXPECT_EQ(Message(r),
            "priorityclasses \"other\" is forbidden: PriorityClass serving is already "
            "marked as default. Only one default can exist");
  // The default itself may be updated.
  r = Send("PATCH", std::string(kClasses) + "/serving", R"({"description":"x"})",
           "application/merge-patch+json");
  EXPECT_EQ(r.code, 200) << r.body.dump();
}

TEST_F(PriorityAdmissionTest, PodsGetTheirClassesPriority) {
  // No class and no default: priority 0, PreemptLowerPriority.
  testing::Reply r = Pod("plain");
  ASSERT_EQ(r.code, 201) << r.body.dump();
  EXPECT_EQ(r.body["spec"]["priority"], 0);
  EXPECT_EQ(r.body["spec"]["preemptionPolicy"], "PreemptLowerPriority");
  EXPECT_FALSE(r.body["spec"].contains("priorityClassName"));

  ASSERT_EQ(Class("batch", 10, false, "Never").code, 201);
  r = Pod("batch-pod", {{"priorityClassName", "batch"}});
  ASSERT_EQ(r.code, 201);
  EXPECT_EQ(r.body["spec"]["priority"], 10);
  EXPECT_EQ(r.body["spec"]["preemptionPolicy"], "Never");
  r = Pod("critical", {{"priorityClassName", "system-cluster-critical"}});
  EXPECT_EQ(r.body["spec"]["priority"], 2000000000);

  // With a default: the pods without a class get it.
  ASSERT_EQ(Class("serving", 1000, true).code, 201);
  r = Pod("defaulted");
  EXPECT_EQ(r.body["spec"]["priorityClassName"], "serving");
  EXPECT_EQ(r.body["spec"]["priority"], 1000);
  // The same value given: accepted.
  EXPECT_EQ(Pod("same", {{"priorityClassName", "batch"}, {"priority", 10}}).code, 201);
}

TEST_F(PriorityAdmissionTest, PodsThatDisagreeWithTheirClassAreForbidden) {
  ASSERT_EQ(Class("batch", 10, false, "Never").code, 201);
  testing::Reply r = Pod("p", {{"priorityClassName", "nope"}});
  EXPECT_EQ(r.code, 403);
  EXPECT_EQ(Message(r), "pods \"p\" is forbidden: no PriorityClass with name nope was found");
  r = Pod("p", {{"priorityClassName", "batch"}, {"priority", 3}});
  EXPECT_EQ(r.code, 403);
  EXPECT_EQ(Message(r),
            "pods \"p\" is forbidden: the integer value of priority (3) must not be "
            "provided in pod spec; priority admission controller computed 10 from the "
            "given PriorityClass name");
  r = Pod("p", {{"priorityClassName", "batch"}, {"preemptionPolicy", "PreemptLowerPriority"}});
  EXPECT_EQ(r.code, 403);
  EXPECT_EQ(Message(r),
            "pods \"p\" is forbidden: the string value of PreemptionPolicy "
            "(PreemptLowerPriority) must not be provided in pod spec; priority admission "
            "controller computed Never from the given PriorityClass name");
}

TEST_F(PriorityAdmissionTest, AnUpdateKeepsTheStoredPriority) {
  ASSERT_EQ(Class("batch", 10).code, 201);
  testing::Reply r = Pod("p", {{"priorityClassName", "batch"}});
  ASSERT_EQ(r.code, 201);
  api::Json pod = r.body;
  pod["spec"].erase("priority");
  pod["spec"].erase("preemptionPolicy");
  pod["metadata"]["labels"] = {{"a", "b"}};
  r = Send("PUT", std::string(testing::kPods) + "/p", pod.dump());
  ASSERT_EQ(r.code, 200) << r.body.dump();
  EXPECT_EQ(r.body["spec"]["priority"], 10);
  EXPECT_EQ(r.body["spec"]["preemptionPolicy"], "PreemptLowerPriority");
}

}  // namespace
}  // namespace lws::apiserver
