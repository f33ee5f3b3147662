// File: controllers/group/group_controller.h
//
// Upstream's pod reconciler (spec sections 10 and 13): the I/O half of group_plan.h. For every
// pod labelled leaderworkerset.sigs.k8s.io/name it reads a GroupSnapshot from the shared caches,
// plans, and applies the plan: creates the leader's worker StatefulSet and per-group Service,
// deletes a leader in the foreground to recreate its group after a failure, and records the
// events upstream records on the LeaderWorkerSet.
//
// Keys are pods (namespace, name). A pod event enqueues that pod; a StatefulSet or Service event
// enqueues the pod that controls it (so a deleted worker StatefulSet is recreated at once, S31).
//
// A leader deleted to recreate its group is expected, by resourceVersion, in the pod cache before
// the pod is planned again: a plan on the stale cache would delete it a second time and record a
// second RecreateGroup event.
//
// Threading: reconciles run on the loop, or on the operator's workers (WorkQueueOptions::workers).
// The expectations and the applied-revision cache each take a mutex.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "base/mutex.h"
#include "client/client.h"
#include "client/event_recorder.h"
#include "controllers/group/caches.h"
#include "controllers/group/group_plan.h"
#include "runtime/expectations.h"
#include "runtime/work_queue.h"

namespace lws::controllers {

class GroupController {
 public:
  // `client` should use the field manager "lws" (upstream's manager name for every write).
  // `recorder` is shared by both LWS controllers: events on one LWS at the same instant must
  // get distinct names. `queue` carries the operator's settings for the work queue: an observer
  // (its metrics), workers and the caches' ConcurrentReads (runtime/work_queue.h).
  // `gang`: the Configuration's gang-scheduling provider (PodGroups are created for it).
  GroupController(EventLoop* loop, const client::Client* client, Caches* caches,
                  client::EventRecorder* recorder, runtime::WorkQueueOptions queue = {},
                  GangProvider gang = GangProvider::kNone);
  GroupController(const GroupController&) = delete;
  GroupController& operator=(const GroupController&) = delete;

  // Registers the handlers; call before caches->Start. The queue runs once the caches synced.
  void Register();
  void SetReady() { queue_.SetReady(true); }
  void Stop() { queue_.Stop(); }

  std::uint64_t reconciles() const { return queue_.runs(); }

 private:
  runtime::ReconcileResult Reconcile(const runtime::Key& key);
  GroupSnapshot Snapshot(const api::Pod& pod, const api::LeaderWorkerSet* lws,
                         std::vector<const api::Pod*>* group_pods) const;
  Status Apply(const runtime::Key& key, const api::LeaderWorkerSet& lws, const GroupAction& action);
  // api::ApplyRevision(lws, revision), kept while the LWS version lasts; null when it fails (the
  // plan applies it again and reports why). Shared: another worker may drop it from the cache
  // while this reconcile still plans with it.
  std::shared_ptr<const api::LeaderWorkerSet> RevisionLws(const api::LeaderWorkerSet& lws,
                                                          const api::ControllerRevision& revision);
  void EnqueueController(const api::ObjectMeta& meta);
  void EnqueueGatedLeaders(const api::Pod& gone);
  // Whether the PodGroup `leader`'s group-name annotation names exists (read from the API, as
  // upstream's Get); an error other than NotFound fails the reconcile.
  Result<bool> PodGroupExists(const api::Pod& leader) const;
  // Whether the key's last reconcile ended on a Conflict of its LWS patch; forgets it.
  bool TakeConflict(const runtime::Key& key);
  runtime::ReconcileResult RetryAfterConflict(const runtime::Key& key, bool again,
                                              const Status& conflict);

  EventLoop* loop_;
  const client::Client* client_;
  Caches* caches_;
  client::EventRecorder* recorder_;
  const GangProvider gang_;
  runtime::Expectations expectations_;
  runtime::WorkQueue queue_;

  // One LWS version with one revision applied: every leader of that revision builds its worker
  // StatefulSet from it.
  struct AppliedRevision {
    std::string revision_name;
    std::string revision_uid;
    std::string revision_resource_version;
    std::shared_ptr<const api::LeaderWorkerSet> lws;
  };
  // Per LWS: its resourceVersion and the revisions applied to that version.
  struct AppliedRevisions {
    std::string lws_resource_version;
    std::vector<AppliedRevision> revisions;
  };
  Mutex applied_revisions_mu_;  // reconciles run on several workers in the operator
  std::map<runtime::Key, AppliedRevisions> applied_revisions_ GUARDED_BY(applied_revisions_mu_);
  Mutex conflicted_mu_;
  // Keys whose last reconcile hit a Conflict.
  std::set<runtime::Key> conflicted_ GUARDED_BY(conflicted_mu_);
};

}  // namespace lws::controllers
