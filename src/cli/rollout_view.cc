#include "cli/rollout_view.h"

#include <fmt/format.h>

#include <algorithm>

#include "api/codec.h"
#include "api/rollout_annotations.h"
#include "api/yaml.h"
#include "controllers/lws/failure_policy.h"
#include "controllers/lws/lws_status.h"
#include "controllers/lws/own_conditions.h"
#include "controllers/lws/rolling_update.h"

namespace lws::cli {

namespace {

bool ConditionIs(const api::LeaderWorkerSet& lws, const std::string& type,
                 const std::string& status) {
  const api::Condition* c = lws.status.FindCondition(type);
  return c != nullptr && c->status == status;
}

// Oldest first.
api::RevisionRefs ByNumber(api::RevisionRefs revisions) {
  std::stable_sort(revisions.begin(), revisions.end(),
                   [](const auto* a, const auto* b) { return a->revision < b->revision; });
  return revisions;
}

const api::ControllerRevision* Numbered(const api::RevisionRefs& revisions, std::int64_t number) {
  const api::ControllerRevision* found = nullptr;
  for (const api::ControllerRevision* r : revisions) {
    if (r->revision == number) found = r;
  }
  return found;
}

}  // namespace

std::string LwsRef(const std::string& name) {
  return "leaderworkerset.leaderworkerset.x-k8s.io/" + name;
}

RolloutStatusView ViewRolloutStatus(const api::LeaderWorkerSet& lws) {
  const std::string& name = lws.metadata.name;
  const api::LeaderWorkerSetStatus& status = lws.status;
  if (status.observed_generation == 0 || lws.metadata.generation > status.observed_generation) {
    return {"Waiting for leaderworkerset spec update to be observed...", false, std::nullopt};
  }
  if (controllers::ProgressDeadlineExceeded(status)) {
    return {"", false, fmt::format("leaderworkerset \"{}\" exceeded its progress deadline", name)};
  }
  if (const api::Condition* f = status.FindCondition(controllers::kConditionRolloutFailed);
      f != nullptr && f->status == "True") {
    return {"", false, fmt::format("leaderworkerset \"{}\" rollout failed: {}", name, f->message)};
  }
  const std::int32_t replicas = lws.Replicas();
  const std::int32_t partition = std::min(controllers::UserPartition(lws), replicas);
  const std::int32_t want = replicas - partition;
  const bool updating = ConditionIs(lws, api::kConditionUpdateInProgress, "True");
  const std::string waiting =
      fmt::format("Waiting for leaderworkerset \"{}\" rollout to finish: ", name);
  const std::string paused = ConditionIs(lws, controllers::kConditionPaused, "True")
                                 ? fmt::format(" (paused: kubectl lws rollout resume {})", name)
                                 : "";
  if (updating || status.updated_replicas < want) {
    const std::int32_t updated =
        std::max(0, std::min(status.updated_replicas, updating ? want - 1 : want));
    if (partition > 0) {
      return {
          fmt::format("Waiting for partitioned roll out to finish: {} out of {} new groups have "
                      "been updated...{}",
                      updated, want, paused),
          false, std::nullopt};
    }
    return {fmt::format("{}{} out of {} new groups have been updated...{}", waiting, updated, want,
                        paused),
            false, std::nullopt};
  }
  if (status.replicas > replicas) {
    return {fmt::format("{}{} surge groups are pending termination...", waiting,
                        status.replicas - replicas),
            false, std::nullopt};
  }
  if (!ConditionIs(lws, api::kConditionAvailable, "True")) {
    return {fmt::format("{}{} of {} updated groups are ready...", waiting,
                        std::min(status.ready_replicas, replicas), replicas),
            false, std::nullopt};
  }
  if (partition > 0) {
    return {fmt::format("partitioned roll out complete: {} new groups have been updated...", want),
            true, std::nullopt};
  }
  return {fmt::format("leaderworkerset \"{}\" successfully rolled out", name), true, std::nullopt};
}

std::string FormatHistory(const api::LeaderWorkerSet& lws, const api::RevisionRefs& revisions) {
  const std::optional<api::FailedRevision> failed = api::ReadFailedRevision(lws.metadata);
  std::string out = LwsRef(lws.metadata.name) + "\n";
  out += fmt::format("{:<10}{:<12}{}\n", "REVISION", "HASH", "STATUS");
  for (const api::ControllerRevision* r : ByNumber(revisions)) {
    const std::string key = api::RevisionKey(*r);
    std::string state;
    if (api::RevisionMatchesTemplate(*r, lws)) state = "current";
    if (failed && failed->revision == key) state += state.empty() ? "failed" : ", failed";
    std::string line = fmt::format("{:<10}{:<12}{}", r->revision, key, state);
    line.erase(line.find_last_not_of(' ') + 1);
    out += line + "\n";
  }
  return out;
}

Result<std::string> FormatRevision(const api::LeaderWorkerSet& lws,
                                   const api::RevisionRefs& revisions, std::int64_t number) {
  const api::ControllerRevision* r = Numbered(revisions, number);
  if (r == nullptr) {
    return Status::NotFound(fmt::format("unable to find the specified revision {}", number));
  }
  ASSIGN_OR_RETURN(api::LeaderWorkerSet restored, api::ApplyRevision(lws, *r));
  api::Json lwt = api::Encode(restored)["spec"]["leaderWorkerTemplate"];
  std::string yaml = api::EmitYaml(lwt);
  std::string indented;
  for (std::size_t start = 0; start < yaml.size();) {
    const std::size_t end = yaml.find('\n', start);
    const std::size_t stop = end == std::string::npos ? yaml.size() : end + 1;
    indented += "  " + yaml.substr(start, stop - start);
    start = stop;
  }
  return fmt::format("{} with revision #{} (hash {})\nLeader Worker Template:\n{}",
                     LwsRef(lws.metadata.name), number, api::RevisionKey(*r), indented);
}

Result<UndoPlan> PlanUndo(const api::LeaderWorkerSet& lws, const api::RevisionRefs& revisions,
                          std::int64_t to_revision) {
  if (revisions.empty()) {
    return Status::NotFound(
        fmt::format("no rollout history found for leaderworkerset \"{}\"", lws.metadata.name));
  }
  const api::ControllerRevision* target = nullptr;
  if (to_revision != 0) {
    target = Numbered(revisions, to_revision);
    if (target == nullptr) {
      return Status::NotFound(
          fmt::format("unable to find specified revision {} in history", to_revision));
    }
  } else {
    for (const api::ControllerRevision* r : ByNumber(revisions)) {
      if (!api::RevisionMatchesTemplate(*r, lws)) target = r;
    }
    if (target == nullptr) {
      // Upstream deletes the old revisions once a rollout completes.
      return Status::NotFound(
          "no last revision to roll back to: a LeaderWorkerSet keeps only its current revision "
          "once a rollout completes (" +
          api::kFailurePolicyAnnotation + " keeps the previous one too)");
    }
  }
  UndoPlan plan;
  plan.revision = target->revision;
  if (api::RevisionMatchesTemplate(*target, lws)) {
    plan.skipped = true;
    return plan;
  }
  ASSIGN_OR_RETURN(api::LeaderWorkerSet restored, api::ApplyRevision(lws, *target));
  plan.restored = std::move(restored);
  return plan;
}

Result<api::Json> PausePatch(const api::LeaderWorkerSet& lws, bool pause) {
  const bool paused = api::AnnotationFlag(lws.metadata, api::kPausedAnnotation);
  if (paused == pause) {
    return Status::BadRequest(fmt::format("leaderworkersets.leaderworkerset.x-k8s.io \"{}\" is {}",
                                          lws.metadata.name,
                                          pause ? "already paused" : "not paused"));
  }
  api::Json value = pause ? api::Json("true") : api::Json(nullptr);
  return api::Json{{"metadata",
                    {{"annotations", {{api::kPausedAnnotation, value}}},
                     {"resourceVersion", lws.metadata.resource_version}}}};
}

}  // namespace lws::cli
