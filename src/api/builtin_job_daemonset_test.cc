// Defaulting, the generated selector and validation of batch/v1 Job and apps/v1 DaemonSet, with
// the error strings a v1.32 server prints. Cases follow upstream
// pkg/apis/batch/v1/defaults_test.go TestSetDefaultJob, pkg/apis/batch/validation
// validation_test.go TestValidateJob and pkg/apis/apps/v1/defaults_test.go
// TestSetDefaultDaemonSetSpec.
#include <gtest/gtest.h>

#include "api/builtin_defaults.h"
#include "api/builtin_testing.h"
#include "api/builtin_validation.h"

namespace lws::api {
namespace {

using testing::Builtin;

Json BaseJob() {
  return Json::parse(R"({"apiVersion": "batch/v1", "kind": "Job",
    "metadata": {"name": "pi", "namespace": "default"},
    "spec": {"template": {"spec": {"restartPolicy": "Never",
                                   "containers": [{"name": "pi", "image": "perl"}]}}}})");
}

// Defaulting, then the create strategy's uid and selector, then validation.
std::vector<std::string> CreateJob(Json job) {
  const ResourceInfo& info = Builtin("batch", "jobs");
  ApplyBuiltinDefaults(info, &job);
  if (NeedsUidBeforeCreate(info, job)) {
    job["metadata"]["uid"] = "u-1";
    GenerateJobSelector(&job);
  }
  std::vector<std::string> out;
  for (const FieldError& e : ValidateBuiltin(info, job, nullptr)) out.push_back(e.Error());
  return out;
}

TEST(JobDefaults, TestSetDefaultJob) {
  Json job = BaseJob();
  ApplyBuiltinDefaults(Builtin("batch", "jobs"), &job);
  const Json& spec = job["spec"];
  EXPECT_EQ(spec["completions"], 1);
  EXPECT_EQ(spec["parallelism"], 1);
  EXPECT_EQ(spec["backoffLimit"], 6);
  EXPECT_EQ(spec["completionMode"], "NonIndexed");
  EXPECT_EQ(spec["suspend"], false);
  EXPECT_EQ(spec["podReplacementPolicy"], "TerminatingOrFailed");
  EXPECT_FALSE(spec.contains("manualSelector"));

  // "Parallelism set, completions unset": a work queue, completions stays nil.
  Json queue = BaseJob();
  queue["spec"]["parallelism"] = 3;
  ApplyBuiltinDefaults(Builtin("batch", "jobs"), &queue);
  EXPECT_FALSE(queue["spec"].contains("completions"));
  EXPECT_EQ(queue["spec"]["parallelism"], 3);

  // "Completions set, parallelism unset": parallelism 1; a pod failure policy: Failed.
  Json counted = BaseJob();
  counted["spec"]["completions"] = 5;
  counted["spec"]["podFailurePolicy"] = Json::parse(R"({"rules": []})");
  ApplyBuiltinDefaults(Builtin("batch", "jobs"), &counted);
  EXPECT_EQ(counted["spec"]["parallelism"], 1);
  EXPECT_EQ(counted["spec"]["podReplacementPolicy"], "Failed");
}

TEST(JobDefaults, GeneratedSelectorAndLabels) {
  Json job = BaseJob();
  job["spec"]["template"]["metadata"] = Json::parse(R"({"labels": {"app": "pi"}})");
  ApplyBuiltinDefaults(Builtin("batch", "jobs"), &job);
  job["metadata"]["uid"] = "u-1";
  GenerateJobSelector(&job);
  EXPECT_EQ(job["spec"]["selector"],
            Json::parse(R"({"matchLabels": {"batch.kubernetes.io/controller-uid": "u-1"}})"));
  EXPECT_EQ(job["spec"]["template"]["metadata"]["labels"],
            Json::parse(R"({"app": "pi", "batch.kubernetes.io/controller-uid": "u-1",
                            "batch.kubernetes.io/job-name": "pi", "controller-uid": "u-1",
                            "job-name": "pi"})"));
  // The Job had no labels: it shows the template's (SetDefaults_Job copied them at creation).
  EXPECT_EQ(job["metadata"]["labels"]["app"], "pi");
  EXPECT_TRUE(CreateJob(BaseJob()).empty());
}

TEST(JobValidation, TestValidateJob) {
  Json always = BaseJob();
  always["spec"]["template"]["spec"].erase("restartPolicy");  // defaulted to Always
  EXPECT_EQ(
      CreateJob(always),
      std::vector<std::string>{
          "spec.template.spec.restartPolicy: Unsupported value: \"Always\": supported values: "
          "\"OnFailure\", \"Never\""});

  Json negative = BaseJob();
  negative["spec"]["parallelism"] = -1;
  negative["spec"]["backoffLimit"] = -1;
  EXPECT_EQ(CreateJob(negative),
            (std::vector<std::string>{
                "spec.parallelism: Invalid value: -1: must be greater than or equal to 0",
                "spec.backoffLimit: Invalid value: -1: must be greater than or equal to 0"}));

  Json indexed = BaseJob();
  indexed["spec"]["completionMode"] = "Indexed";
  indexed["spec"]["parallelism"] = 2;
  EXPECT_EQ(CreateJob(indexed),
            std::vector<std::string>{
                "spec.completions: Required value: when completion mode is Indexed"});

  Json mode = BaseJob();
  mode["spec"]["completionMode"] = "Sometimes";
  EXPECT_EQ(CreateJob(mode),
            std::vector<std::string>{"spec.completionMode: Unsupported value: \"Sometimes\": "
                                     "supported values: \"NonIndexed\", "
                                     "\"Indexed\""});

  // manualSelector true: the user's selector must match the template.
  Json manual = BaseJob();
  manual["spec"]["manualSelector"] = true;
  manual["spec"]["selector"] = Json::parse(R"({"matchLabels": {"a": "b"}})");
  EXPECT_EQ(CreateJob(manual),
            std::vector<std::string>{"spec.template.metadata.labels: Invalid value: "
                                     "map[string]string(nil): `selector` does not "
                                     "match template `labels`"});
}

TEST(JobValidation, UpdatesKeepTheSelectorAndTemplate) {
  const ResourceInfo& info = Builtin("batch", "jobs");
  Json old = BaseJob();
  ApplyBuiltinDefaults(info, &old);
  old["metadata"]["uid"] = "u-1";
  GenerateJobSelector(&old);
  Json now = old;
  now["spec"]["template"]["spec"]["containers"][0]["image"] = "perl:2";
  now["spec"]["parallelism"] = 3;  // mutable
  std::vector<std::string> got;
  for (const FieldError& e : ValidateBuiltin(info, now, &old))
    got.push_back(e.field + ": " + e.detail);
  EXPECT_EQ(got, std::vector<std::string>{"spec.template: field is immutable"});
  old["spec"]["suspend"] = true;  // a suspended Job's template may change
  now["spec"]["suspend"] = true;
  EXPECT_TRUE(ValidateBuiltin(info, now, &old).empty());
}

Json BaseDaemonSet() {
  return Json::parse(R"({"apiVersion": "apps/v1", "kind": "DaemonSet",
    "metadata": {"name": "agent", "namespace": "default"},
    "spec": {"selector": {"matchLabels": {"app": "agent"}},
             "template": {"metadata": {"labels": {"app": "agent"}},
                          "spec": {"containers": [{"name": "a", "image": "agent"}]}}}})");
}

std::vector<std::string> CreateDaemonSet(Json set) {
  const ResourceInfo& info = Builtin("apps", "daemonsets");
  ApplyBuiltinDefaults(info, &set);
  std::vector<std::string> out;
  for (const FieldError& e : ValidateBuiltin(info, set, nullptr)) out.push_back(e.Error());
  return out;
}

TEST(DaemonSetDefaults, TestSetDefaultDaemonSetSpec) {
  Json set = BaseDaemonSet();
  ApplyBuiltinDefaults(Builtin("apps", "daemonsets"), &set);
  EXPECT_EQ(
      set["spec"]["updateStrategy"],
      Json::parse(
          R"({"type": "RollingUpdate", "rollingUpdate": {"maxUnavailable": 1, "maxSurge": 0}})"));
  EXPECT_EQ(set["spec"]["revisionHistoryLimit"], 10);
  EXPECT_EQ(set["spec"]["template"]["spec"]["restartPolicy"], "Always");
  EXPECT_TRUE(CreateDaemonSet(BaseDaemonSet()).empty());

  Json on_delete = BaseDaemonSet();
  on_delete["spec"]["updateStrategy"] = Json::parse(R"({"type": "OnDelete"})");
  ApplyBuiltinDefaults(Builtin("apps", "daemonsets"), &on_delete);
  EXPECT_FALSE(on_delete["spec"]["updateStrategy"].contains("rollingUpdate"));
}

TEST(DaemonSetValidation, TestValidateDaemonSet) {
  Json both_zero = BaseDaemonSet();
  both_zero["spec"]["updateStrategy"] = Json::parse(
      R"({"type": "RollingUpdate", "rollingUpdate": {"maxUnavailable": 0, "maxSurge": 0}})");
  EXPECT_EQ(CreateDaemonSet(both_zero),
            std::vector<std::string>{"spec.updateStrategy.rollingUpdate.maxUnavailable: Required "
                                     "value: cannot be 0 when maxSurge is 0"});

  Json both_set = BaseDaemonSet();
  both_set["spec"]["updateStrategy"] = Json::parse(
      R"({"type": "RollingUpdate", "rollingUpdate": {"maxUnavailable": 1, "maxSurge": 1}})");
  EXPECT_EQ(CreateDaemonSet(both_set),
            std::vector<std::string>{"spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: "
                                     "1: may not be set when maxUnavailable is non-zero"});

  Json never = BaseDaemonSet();
  never["spec"]["template"]["spec"]["restartPolicy"] = "Never";
  EXPECT_EQ(CreateDaemonSet(never),
            std::vector<std::string>{"spec.template.spec.restartPolicy: Unsupported value: "
                                     "\"Never\": supported values: \"Always\""});

  Json mismatch = BaseDaemonSet();
  mismatch["spec"]["selector"]["matchLabels"]["app"] = "other";
  EXPECT_EQ(
      CreateDaemonSet(mismatch),
      std::vector<std::string>{
          "spec.template.metadata.labels: Invalid value: map[string]string{\"app\":\"agent\"}: "
          "`selector` does not match template `labels`"});
}

}  // namespace
}  // namespace lws::api
