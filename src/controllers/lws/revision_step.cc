// File: controllers/lws/revision_step.cc
#include "controllers/lws/revision_step.h"

#include "api/revision.h"
#include "api/rollout_annotations.h"
#include "controllers/lws/failure_policy.h"
#include "controllers/lws/lws_events.h"

namespace lws::controllers {

bool RevisionStep::operator==(const RevisionStep& other) const {
  if (key != other.key || lws_updated != other.lws_updated || event_note != other.event_note ||
      create.has_value() != other.create.has_value()) {
    return false;
  }
  return !create || api::Encode(*create) == api::Encode(*other.create);
}

RevisionStep PlanRevision(const api::LeaderWorkerSet& lws, const api::ObjectMeta* leader_set,
                          const api::RevisionRefs& revisions, api::RevisionMatchCache* cache) {
  const std::string sts_key = leader_set != nullptr ? leader_set->Label(api::kRevisionLabel) : "";
  const std::int64_t next_number = api::NextRevisionNumber(api::OwnedRevisions(revisions, lws));

  // Step 3: the revision the leader sts runs, or one made from the live LWS.
  RevisionStep step;
  const api::ControllerRevision* current = api::FindRevision(revisions, lws, sts_key);
  if (current == nullptr) {
    step.create = api::NewRevision(lws, next_number, sts_key);
    step.key = api::RevisionKey(*step.create);
    step.event_note =
        sts_key.empty() ? NewLwsRevisionNote(step.key) : MissingRevisionNote(step.key);
    // Made from the live template, so step 4 cannot find an update over it.
    return step;
  }
  step.key = sts_key;

  // Step 4: a template change since the current revision starts a new rollout. `current` was
  // found through the sts's key, so the sts exists here.
  if (!api::IsTemplateUpdate(lws, *current, cache)) return step;
  api::ControllerRevision updated = api::NewRevision(lws, next_number);
  step.key = api::RevisionKey(updated);
  step.lws_updated = true;
  // Ours: the revision of this very template may exist already, when a pass created it and then
  // failed before the leader StatefulSet took its key (the apply refused, or its answer lost),
  // or when the template went back to one whose revision is not truncated yet. Upstream creates
  // another under the next number, and its GetRevision then logs "More than one revision exists
  // for the given template hash"; both stay, since truncation keeps every revision of the
  // current key (the sweep's seed 14 with API errors found it). Reusing it keeps one.
  const api::ControllerRevision* existing = api::FindRevision(revisions, lws, step.key);
  if (existing != nullptr && existing->data == updated.data) return step;
  step.create = std::move(updated);
  step.event_note = UpdatedRevisionNote(step.key);
  return step;
}

std::vector<std::string> RevisionsToTruncate(const api::LeaderWorkerSet& lws,
                                             const api::RevisionRefs& revisions,
                                             const std::string& current_key) {
  const api::RevisionRefs owned = api::OwnedRevisions(revisions, lws);
  // With a failure policy, the one a rollback would restore stays.
  const api::ControllerRevision* previous = nullptr;
  if (lws.metadata.annotations.count(api::kFailurePolicyAnnotation) > 0) {
    const auto failed = api::ReadFailedRevision(lws.metadata);
    previous = PreviousRevision(owned, current_key, failed ? failed->revision : "");
  }
  std::vector<std::string> names;
  for (const api::ControllerRevision* revision : owned) {
    if (api::RevisionKey(*revision) == current_key) continue;
    if (revision == previous) continue;
    names.push_back(revision->metadata.name);
  }
  return names;
}

}  // namespace lws::controllers
