// File: controllers/lws/revision_step.h
//
// Which template revision the LeaderWorkerSet reconciler works with (spec section 6 steps 3-4),
// and which revisions it deletes once an update is done (spec 7.6), as pure decisions over the
// listed ControllerRevisions.
//
//   step 3: the current key is the leader sts's template-revision-hash label. When the sts is
//           absent, or no owned revision carries its key, a revision is made from the live LWS
//           (keeping the sts's key as its label, Q16) and must be created first.
//   step 4: only when the sts exists: if the live template differs from the current revision
//           (bytes, then the semantic check of 7.5), a new revision keyed by its own hash must be
//           created and becomes current; the reconciler then treats this pass as a new rollout.
//           Ours: an owned revision of that key with the same template is reused instead of
//           created again (upstream would keep two revisions of one key; see the .cc).
//
// At most one revision is created per pass: one made in step 3 holds the live template, so step 4
// finds no update over it.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "api/lws_types.h"
#include "api/revision.h"
#include "api/revision_cache.h"

namespace lws::controllers {

struct RevisionStep {
  std::string key;                                // the current revision key after this step
  std::optional<api::ControllerRevision> create;  // a revision to create first (then it is current)
  bool lws_updated = false;                       // step 4 found a template update
  std::string event_note;                         // CreatingRevision note ("" when nothing created)

  bool operator==(const RevisionStep&) const;
};

// `revisions`: every ControllerRevision in the LWS's namespace labelled with its name (ownership
// is filtered here with api::OwnedRevisions). `leader_sts` is null when absent. `cache` remembers
// semantic matches (spec 7.5) and may be null.
// `leader_set`: the metadata of what runs the leaders, the leader StatefulSet or, with
// groupIdentity Hash, the leader Deployment (both carry the revision label).
RevisionStep PlanRevision(const api::LeaderWorkerSet& lws, const api::ObjectMeta* leader_set,
                          const api::RevisionRefs& revisions, api::RevisionMatchCache* cache);

// Names of the owned revisions whose key differs from `current_key` (spec 7.6), in list order.
// Revisions controlled by another object are never named. Ours: with the opt-in failure policy
// (failure_policy.h) the newest other revision that is not the recorded failed one is kept, so
// there is one to roll back to.
std::vector<std::string> RevisionsToTruncate(const api::LeaderWorkerSet& lws,
                                             const api::RevisionRefs& revisions,
                                             const std::string& current_key);

}  // namespace lws::controllers
