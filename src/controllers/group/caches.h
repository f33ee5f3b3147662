// File: controllers/group/caches.h
//
// The informers the LWS controllers share, with the indexes their reconcilers look things up by.
// Upstream's manager shares one cache between the LeaderWorkerSet and pod reconcilers; sharing it
// here too keeps one decoded copy of every pod in memory, not one per controller.
//
// Indexes (values are "<namespace>/<value>"):
//   kByLwsName     pods, StatefulSets and LWS-owned ControllerRevisions labelled
//                  leaderworkerset.sigs.k8s.io/name=<L>
//   kLeadersByLws  leader pods (worker-index "0") of <L>
//   kByGroup       pods of group "<L>/<group-index>"
//   kHandOffOf     capacity hand-off placeholders of <L> (label lws-cpp.dev/capacity-hand-off-of)
//
// Threading: the loop's thread only, unless ShareWithWorkers was called: then reconcile workers
// read them too (runtime/concurrent_reads.h). Handlers are added by the controllers before Start.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "api/apps.h"
#include "api/apps_workloads.h"
#include "api/core.h"
#include "api/lws_types.h"
#include "api/pod.h"
#include "api/revision.h"
#include "client/client.h"
#include "client/event_recorder.h"
#include "runtime/concurrent_reads.h"
#include "runtime/start_gate.h"
#include "runtime/typed_informer.h"

namespace lws::controllers {

inline const std::string kByLwsName = "lws-name";
inline const std::string kLeadersByLws = "lws-leaders";
inline const std::string kByGroup = "lws-group";
inline const std::string kHandOffOf = "lws-hand-off-of";

struct Caches {
  // `decode_privately`: see runtime::TypedInformer::DecodePrivately.
  Caches(EventLoop* loop, const client::Client* client, bool decode_privately = false);
  Caches(const Caches&) = delete;
  Caches& operator=(const Caches&) = delete;

  // Starts every informer; `on_synced` runs once all have delivered their initial objects.
  Status Start(std::function<void()> on_synced);
  void Stop();
  bool synced() const { return gate != nullptr && gate->open(); }
  // Lets reconcile workers read every cache while the loop updates them; returns what their
  // reconciles hold a Reader of. REQUIRES: before Start.
  runtime::ConcurrentReads* ShareWithWorkers();

  // Objects of LWS `name` in `ns` by index (sorted by name).
  std::vector<const api::Pod*> Leaders(const std::string& ns, const std::string& name) const;
  // Every pod labelled with the LWS's name: leaders and workers.
  std::vector<const api::Pod*> Pods(const std::string& ns, const std::string& name) const;
  std::vector<const api::StatefulSet*> StatefulSets(const std::string& ns,
                                                    const std::string& name) const;
  api::RevisionRefs Revisions(const std::string& ns, const std::string& name) const;
  std::vector<const api::Pod*> GroupPods(const std::string& ns, const std::string& name,
                                         const std::string& group_index) const;

  // First: it outlives the informers that retire objects into it.
  runtime::ConcurrentReads reads;  // used after ShareWithWorkers only
  runtime::TypedInformer<api::LeaderWorkerSet> sets;
  runtime::TypedInformer<api::StatefulSet> statefulsets;
  runtime::TypedInformer<api::Pod> pods;
  runtime::TypedInformer<api::ControllerRevision> revisions;
  runtime::TypedInformer<api::Service> services;
  runtime::TypedInformer<api::Node> nodes;
  // The leader Deployments of groupIdentity Hash (named after their LWS).
  runtime::TypedInformer<api::Deployment> deployments;
  std::unique_ptr<runtime::StartGate> gate;
};

// Records an event on `lws` as the cache holds it (the recorder needs the stored object: kind,
// apiVersion, uid); nothing when the LWS is no longer in the cache.
void RecordOnLws(const Caches& caches, client::EventRecorder* recorder,
                 const api::LeaderWorkerSet& lws, const std::string& type,
                 const std::string& reason, const std::string& note, const std::string& action);

// "<ns>/<value>", the form of every index value above.
std::string IndexValue(const std::string& ns, const std::string& value);

}  // namespace lws::controllers
