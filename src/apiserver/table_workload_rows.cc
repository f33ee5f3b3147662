// Rows of the batch/v1 Job and apps/v1 DaemonSet printers (printJob and printDaemonSet in
// kubernetes pkg/printers/internalversion/printers.go).
#include <string>

#include "apiserver/table.h"
#include "apiserver/table_printers.h"

namespace lws::apiserver::table_internal {

namespace {

bool HasTrueCondition(const Json& job, std::string_view type) {
  for (const Json& c : ArrayAt(job, {"status", "conditions"})) {
    if (StringAt(c, {"type"}) == type && StringAt(c, {"status"}) == "True") return true;
  }
  return false;
}

// "succeeded/completions"; a Job without completions succeeds once ("0/1", "0/1 of 3").
std::string JobCompletions(const Json& job) {
  const std::int64_t succeeded = IntAt(job, {"status", "succeeded"});
  const Json* completions = At(job, {"spec", "completions"});
  if (completions != nullptr && completions->is_number_integer()) {
    return std::to_string(succeeded) + "/" + std::to_string(completions->get<std::int64_t>());
  }
  const std::int64_t parallelism = IntAt(job, {"spec", "parallelism"});
  if (parallelism > 1) {
    return std::to_string(succeeded) + "/1 of " + std::to_string(parallelism);
  }
  return std::to_string(succeeded) + "/1";
}

std::string JobDuration(const Json& job, Time now) {
  std::optional<Time> start = TimeAt(job, {"status", "startTime"});
  if (!start) return "";
  std::optional<Time> end = TimeAt(job, {"status", "completionTime"});
  return HumanDuration((end ? *end : now) - *start);
}

// The first of upstream's checks that holds, in its order.
std::string JobStatus(const Json& job) {
  if (HasTrueCondition(job, "Complete")) return "Complete";
  if (HasTrueCondition(job, "Failed")) return "Failed";
  if (At(job, {"metadata", "deletionTimestamp"}) != nullptr) return "Terminating";
  if (HasTrueCondition(job, "Suspended")) return "Suspended";
  if (HasTrueCondition(job, "FailureTarget")) return "FailureTarget";
  if (HasTrueCondition(job, "SuccessCriteriaMet")) return "SuccessCriteriaMet";
  return "Running";
}

}  // namespace

Row JobRow(const Json& job, Time now) {
  auto [names, images] = ContainerCells(ArrayAt(job, {"spec", "template", "spec", "containers"}));
  return Cells({NameOf(job), JobStatus(job), JobCompletions(job), JobDuration(job, now),
                AgeOf(job, now), names, images, SelectorCell(job)});
}

Row DaemonSetRow(const Json& set, Time now) {
  auto [names, images] = ContainerCells(ArrayAt(set, {"spec", "template", "spec", "containers"}));
  const Json* node_selector = At(set, {"spec", "template", "spec", "nodeSelector"});
  return Cells(
      {NameOf(set), IntAt(set, {"status", "desiredNumberScheduled"}),
       IntAt(set, {"status", "currentNumberScheduled"}), IntAt(set, {"status", "numberReady"}),
       IntAt(set, {"status", "updatedNumberScheduled"}), IntAt(set, {"status", "numberAvailable"}),
       FormatLabels(node_selector != nullptr ? *node_selector : Json()), AgeOf(set, now), names,
       images, SelectorCell(set)});
}

}  // namespace lws::apiserver::table_internal
