// File: controllers/lws/lws_controller.h
//
// Upstream's LeaderWorkerSet reconciler (spec sections 5, 6, 8, 9, 11, 12): the I/O half of
// revision_step.h, rolling_update.h, leader_statefulset.h and lws_status.h. One reconcile of an
// LWS, in upstream's order:
//   1. the LWS and its leader StatefulSet from the caches (a deleting set: retry in 5 s);
//   2. the current revision, creating one for a new LWS, a missing key, or a template update;
//   3. (partition, replicas) from the group states, and the "deleting surge replica" event;
//      ours, with the opt-in rollout before scale-up (scale_up_hold.h): a replica increase
//      waits while the existing groups roll out (the ScaleUpHeld condition says so);
//      ours, with the opt-in surge fallback (surge_fallback.h): the settings it leaves; and the
//      opt-in failure policy (failure_policy.h): pause, or roll the template back; and a pause
//      by the user (lws-cpp.dev/paused, `kubectl lws rollout pause`): the partition is held;
//   4. server-side apply of the leader StatefulSet (field manager "lws", forced);
//   5. the shared headless Service (created if missing, never updated);
//   6. the status and conditions (written only when changed; a Conflict retries at once);
//   7. once the update is done, the old revisions are deleted (and a surge fallback recorded
//      for it is dropped);
//  6b. ours, with the opt-in progress deadline (progress_deadline.h): the last progress is
//      remembered per LWS, Progressing turns False past the deadline, and the LWS is reconciled
//      again when the deadline would pass;
//   8. ours, with the opt-in restart budget or backoff: the restart counts of groups that can no
//      longer exist are dropped (api/group_restarts.h), when the status did not just change
//      (the LWS's resourceVersion is the precondition of that write).
//
// With groupIdentity Hash the leaders run in a Deployment instead (lws_controller_hash.cc).
//
// Triggers: the LWS itself, the Deployment, StatefulSets it controls or that carry its name label
// (the worker StatefulSets), Services and ControllerRevisions it controls, and its leader pods.
// Upstream does not watch leader pods and learns of their readiness through the leader
// StatefulSet's status; watching them too costs a few extra reconciles and never waits on the
// StatefulSet controller.
//
// Stale caches: each write's resourceVersion is expected in the matching cache before the LWS is
// planned again (runtime/expectations.h), so a second reconcile cannot create a second revision
// for the same template or compute a partition from a leader StatefulSet it already changed.
//
// Threading: handlers on the loop; reconciles on the loop, or on the queue's workers (then
// several LWS at once, never one LWS twice: runtime/work_queue.h).
#pragma once

#include <cstdint>
#include <map>
#include <optional>

#include "api/revision.h"
#include "api/revision_cache.h"
#include "base/mutex.h"
#include "client/client.h"
#include "client/event_recorder.h"
#include "controllers/group/caches.h"
#include "controllers/lws/applied_leader_sets.h"
#include "controllers/lws/progress_deadline.h"
#include "controllers/lws/revision_step.h"
#include "controllers/lws/rolling_update.h"
#include "controllers/lws/scale_up_hold.h"
#include "runtime/expectations.h"
#include "runtime/work_queue.h"

namespace lws::controllers {

class LwsController {
 public:
  // `client` should use the field manager "lws".
  // `recorder` is shared by both LWS controllers: events on one LWS at the same instant must
  // get distinct names. `queue` carries the operator's settings for the work queue: an observer
  // (its metrics), workers and the caches' ConcurrentReads (runtime/work_queue.h).
  LwsController(EventLoop* loop, const client::Client* client, Caches* caches,
                client::EventRecorder* recorder, runtime::WorkQueueOptions queue = {});
  LwsController(const LwsController&) = delete;
  LwsController& operator=(const LwsController&) = delete;

  // Registers the handlers; call before caches->Start. The queue runs once the caches synced.
  void Register();
  void SetReady() { queue_.SetReady(true); }
  void Stop() { queue_.Stop(); }

  std::uint64_t reconciles() const { return queue_.runs(); }

 private:
  runtime::ReconcileResult Reconcile(const runtime::Key& key);
  // groupIdentity Hash (lws_controller_hash.cc): the leaders in a Deployment.
  runtime::ReconcileResult ReconcileHash(const runtime::Key& key, const api::LeaderWorkerSet& lws);
  // `exists`: the Deployment was in the cache (its events and the error's wording).
  Status ApplyLeaderDeployment(const runtime::Key& key, const api::LeaderWorkerSet& lws,
                               bool exists, const std::string& revision_key);
  // What steps 2-5 leave for the status: the revision key in use, and the scale-up the opt-in
  // rollout before scale-up holds (scale_up_hold.h).
  struct LeaderStep {
    std::string revision_key;
    std::optional<ScaleUpHold> hold;
  };
  // Steps 2-5. `recheck`: when the surge fallback wants to look again.
  Result<LeaderStep> ReconcileLeaderStatefulSet(const runtime::Key& key,
                                                const api::LeaderWorkerSet& lws,
                                                const api::StatefulSet* sts,
                                                const api::RevisionRefs& revisions,
                                                std::optional<Duration>* recheck);
  // Step 3's settings with the opt-in surge fallback (surge_fallback.h): records it on the LWS
  // and in an event when it engages. `rolling`: the leader StatefulSet exists and the template
  // did not change in this reconcile; `updating`: some desired group is not on the revision.
  Result<RolloutSettings> ApplySurgeFallback(const runtime::Key& key,
                                             const api::LeaderWorkerSet& lws,
                                             const RolloutSettings& settings,
                                             const std::string& revision_key,
                                             const std::vector<GroupState>& states, bool rolling,
                                             bool updating, std::optional<Duration>* recheck);
  // Step 3, ours: the opt-in failure policy (failure_policy.h). Records a failed revision; says
  // whether the rollout is paused by it, or was rolled back (the reconcile stops there).
  enum class FailureAction { kNone, kPause, kRolledBack };
  Result<FailureAction> ApplyFailurePolicy(const runtime::Key& key, const api::LeaderWorkerSet& lws,
                                           const std::string& revision_key, std::int32_t groups,
                                           bool updating, const api::RevisionRefs& revisions);
  Status CreateRevision(const runtime::Key& key, const api::ControllerRevision& revision,
                        const std::string& note);
  // `rollout_replicas`: the settings' replicas, when a held scale-up makes them differ.
  Status ApplyLeaderStatefulSet(const runtime::Key& key, const api::LeaderWorkerSet& lws,
                                const api::StatefulSet* sts, const std::string& revision_key,
                                const RolloutDecision& decision,
                                std::optional<std::int32_t> rollout_replicas);
  // Server-side apply of what runs the leaders (`body`, of `resource`, `live` as its cache holds
  // it), skipped when the last apply already gave this; a failure is a FailedCreate (`exists`
  // false) or FailedUpdate event naming the leader `leaders` ("statefulset", "deployment").
  Status ApplyLeaderSet(const runtime::Key& key, const api::LeaderWorkerSet& lws,
                        const client::Resource& resource, const client::Informer& informer,
                        const store::ObjectPtr& live, api::Json body, bool exists,
                        std::string_view leaders);
  // PlanRevision with the semantic-match cache the reconcile workers share.
  RevisionStep PlanRevisionShared(const api::LeaderWorkerSet& lws,
                                  const api::ObjectMeta* leader_set,
                                  const api::RevisionRefs& revisions);
  // Writes `status` over the cached LWS and expects the answer in the cache.
  Status WriteStatus(const runtime::Key& key, const api::LeaderWorkerSetStatus& status);
  Status EnsureSharedService(const api::LeaderWorkerSet& lws);
  // Step 6.
  struct StatusOutcome {
    bool update_done = false;
    bool written = false;
    std::optional<Duration> recheck_after;  // the progress deadline's next look
  };
  Result<StatusOutcome> UpdateStatus(const runtime::Key& key, const api::LeaderWorkerSet& lws,
                                     const LeaderStep& step);
  // Step 7, ours: drops the recorded surge fallback once its rollout is done; true when it wrote.
  Result<bool> ClearSurgeFallback(const runtime::Key& key, const api::LeaderWorkerSet& lws,
                                  bool update_done);
  // Step 8.
  Status PruneGroupRestarts(const runtime::Key& key, const api::LeaderWorkerSet& lws,
                            const std::string& revision_key, bool update_done);
  // Writes `patch` (an api::AnnotationPatch of the controller's state on the LWS) and expects
  // its answer in the cache.
  Status PatchLws(const runtime::Key& key, const api::Json& patch);
  // `revisions` as read at the start of the reconcile: a revision it created since is the
  // current one, which truncation keeps anyway. Stops at the first deletion that fails.
  Status TruncateRevisions(const api::LeaderWorkerSet& lws, const api::RevisionRefs& revisions,
                           const std::string& revision_key);
  void Event(const api::LeaderWorkerSet& lws, const std::string& type, const std::string& reason,
             const std::string& note, const std::string& action);
  void Expect(const runtime::Key& key, const client::Informer& informer,
              const store::StoredObject& answer);
  void EnqueueNamed(const api::ObjectMeta& meta);
  void EnqueueOwner(const api::ObjectMeta& meta);

  EventLoop* loop_;
  const client::Client* client_;
  Caches* caches_;
  client::EventRecorder* recorder_;
  runtime::Expectations expectations_;
  AppliedLeaderSets applied_leader_sets_;
  // Step 6b: the last progress of each LWS with a progress deadline.
  std::optional<ProgressMark> Remembered(const runtime::Key& key);
  void Remember(const runtime::Key& key, const std::optional<ProgressMark>& mark);
  Mutex progress_mu_;
  std::map<runtime::Key, ProgressMark> progress_ GUARDED_BY(progress_mu_);
  Mutex match_cache_mu_;
  api::RevisionMatchCache match_cache_ GUARDED_BY(match_cache_mu_);
  runtime::WorkQueue queue_;
};

// The leader StatefulSet's numbers as the rollout reads them (spec 11.1). A replicas annotation
// that does not parse is kept as its error (strconv.Atoi's), for the rules that read it.
LeaderSetState LeaderSetStateOf(const api::StatefulSet& sts);

}  // namespace lws::controllers
