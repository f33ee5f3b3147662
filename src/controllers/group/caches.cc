#include "controllers/group/caches.h"

#include "api/rollout_annotations.h"
#include "client/resource.h"

namespace lws::controllers {

std::string IndexValue(const std::string& ns, const std::string& value) { return ns + "/" + value; }

void RecordOnLws(const Caches& caches, client::EventRecorder* recorder,
                 const api::LeaderWorkerSet& lws, const std::string& type,
                 const std::string& reason, const std::string& note, const std::string& action) {
  store::ObjectPtr stored = caches.sets.GetStored(lws.metadata.namespace_, lws.metadata.name);
  if (stored != nullptr) recorder->Record(*stored, type, reason, note, action);
}

namespace {

// "<ns>/<L>" for objects labelled with an LWS name.
template <class T>
std::vector<std::string> ByLwsName(const T& object) {
  std::string name = object.metadata.Label(api::kSetNameLabel);
  if (name.empty()) return {};
  return {IndexValue(object.metadata.namespace_, name)};
}

// Only revisions an LWS may own: the StatefulSet controller's revisions of every worker
// StatefulSet carry the LWS name label too (the template's labels propagate), and indexing them
// would make every revision lookup copy O(groups) objects that api::OwnedRevisions then drops.
std::vector<std::string> LwsRevisionsByLwsName(const api::ControllerRevision& revision) {
  const api::OwnerReference* controller = revision.metadata.ControllerRef();
  if (controller != nullptr && controller->kind != api::kLwsKind) return {};
  return ByLwsName(revision);
}

std::vector<std::string> LeadersByLws(const api::Pod& pod) {
  if (pod.metadata.Label(api::kWorkerIndexLabel) != "0") return {};
  return ByLwsName(pod);
}

std::vector<std::string> ByGroup(const api::Pod& pod) {
  std::string name = pod.metadata.Label(api::kSetNameLabel);
  auto group = pod.metadata.labels.find(api::kGroupIndexLabel);
  if (name.empty() || group == pod.metadata.labels.end()) return {};
  return {IndexValue(pod.metadata.namespace_, name + "/" + group->second)};
}

std::vector<std::string> HandOffOf(const api::Pod& pod) {
  std::string name = pod.metadata.Label(api::kHandOffOfLabel);
  if (name.empty()) return {};
  return {IndexValue(pod.metadata.namespace_, name)};
}

}  // namespace

Caches::Caches(EventLoop* loop, const client::Client* client, bool decode_privately)
    : sets(loop, client, client::kLeaderWorkerSets),
      statefulsets(loop, client, client::kStatefulSets),
      pods(loop, client, client::kPods),
      revisions(loop, client, client::kControllerRevisions),
      services(loop, client, client::kServices),
      nodes(loop, client, client::kNodes),
      deployments(loop, client, client::kDeployments) {
  statefulsets.AddIndex(kByLwsName, ByLwsName<api::StatefulSet>);
  pods.AddIndex(kByLwsName, ByLwsName<api::Pod>);
  pods.AddIndex(kLeadersByLws, LeadersByLws);
  pods.AddIndex(kByGroup, ByGroup);
  pods.AddIndex(kHandOffOf, HandOffOf);
  revisions.AddIndex(kByLwsName, LwsRevisionsByLwsName);
  if (decode_privately) {
    sets.DecodePrivately();
    statefulsets.DecodePrivately();
    pods.DecodePrivately();
    revisions.DecodePrivately();
    services.DecodePrivately();
    nodes.DecodePrivately();
    deployments.DecodePrivately();
  }
}

runtime::ConcurrentReads* Caches::ShareWithWorkers() {
  sets.ShareWith(&reads);
  statefulsets.ShareWith(&reads);
  pods.ShareWith(&reads);
  revisions.ShareWith(&reads);
  services.ShareWith(&reads);
  nodes.ShareWith(&reads);
  deployments.ShareWith(&reads);
  return &reads;
}

Status Caches::Start(std::function<void()> on_synced) {
  gate = std::make_unique<runtime::StartGate>(
      std::vector<runtime::SyncSource*>{&sets, &statefulsets, &pods, &revisions, &services, &nodes,
                                        &deployments},
      std::move(on_synced));
  RETURN_IF_ERROR(sets.Start());
  RETURN_IF_ERROR(statefulsets.Start());
  RETURN_IF_ERROR(pods.Start());
  RETURN_IF_ERROR(revisions.Start());
  RETURN_IF_ERROR(services.Start());
  RETURN_IF_ERROR(nodes.Start());
  return deployments.Start();
}

void Caches::Stop() {
  sets.Stop();
  statefulsets.Stop();
  pods.Stop();
  revisions.Stop();
  services.Stop();
  nodes.Stop();
  deployments.Stop();
  gate.reset();
}

std::vector<const api::Pod*> Caches::Leaders(const std::string& ns, const std::string& name) const {
  return pods.ByIndex(kLeadersByLws, IndexValue(ns, name));
}

std::vector<const api::Pod*> Caches::Pods(const std::string& ns, const std::string& name) const {
  return pods.ByIndex(kByLwsName, IndexValue(ns, name));
}

std::vector<const api::StatefulSet*> Caches::StatefulSets(const std::string& ns,
                                                          const std::string& name) const {
  return statefulsets.ByIndex(kByLwsName, IndexValue(ns, name));
}

api::RevisionRefs Caches::Revisions(const std::string& ns, const std::string& name) const {
  return revisions.ByIndex(kByLwsName, IndexValue(ns, name));
}

std::vector<const api::Pod*> Caches::GroupPods(const std::string& ns, const std::string& name,
                                               const std::string& group_index) const {
  return pods.ByIndex(kByGroup, IndexValue(ns, name + "/" + group_index));
}

}  // namespace lws::controllers
