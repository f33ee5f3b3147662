// The garbage collector's graph (gc_graph.h): the change feed applied to a map of objects with
// indexes by uid and by owner uid, and the snapshot of what a pass judges.
#include "cluster/gc_graph.h"

#include "base/log.h"

namespace lws::cluster {

namespace {

// Whether the rules would read two versions of one object alike: all of GcMeta but the
// resourceVersion (which only the Delete precondition reads, from the newest version).
bool SameForRules(const GcMeta& a, const GcMeta& b) {
  return a.namespace_ == b.namespace_ && a.name == b.name && a.uid == b.uid &&
         a.deleting == b.deleting && a.has_orphan == b.has_orphan &&
         a.has_foreground == b.has_foreground && a.refs == b.refs;
}

}  // namespace

Result<GcSnapshot> GcGraph::NextSnapshot(const store::Store& store,
                                         const api::ResourceRegistry& registry) {
  RETURN_IF_ERROR(CatchUp(store));
  return Build(registry);
}

Status GcGraph::CatchUp(const store::Store& store) {
  std::uint64_t after = cursor_;
  Result<store::ChangeLog> log = store.Changes(after);
  if (!log.ok() && log.status().code() == Code::kGone) {
    Logger("gc")->debug(
        "the store's history no longer reaches resourceVersion {}: {}; reading "
        "every object again",
        after, log.status().message());
    after = 0;
    log = store.Changes(after);
  }
  if (!log.ok()) return log.status();
  if (after == 0) {  // the first read, or the history moved on: everything again, all judged
    objects_.clear();
    by_uid_.clear();
    dependents_.clear();
    marked_.clear();
    judge_all_ = true;
    ++full_reads_;
  }
  for (const store::StoreChange& change : log->changes) Apply(change);
  cursor_ = log->resource_version;
  return Status::Ok();
}

void GcGraph::Apply(const store::StoreChange& change) {
  const Key key{change.group_resource, change.object->name()};
  auto it = objects_.find(key);
  if (change.type == store::EventType::kDeleted) {
    if (it == objects_.end()) return;
    MarkAround(key, *it->second.meta);
    Erase(it);
    return;
  }
  auto meta = std::make_shared<const GcMeta>(ExtractGcMeta(*change.object));
  if (it != objects_.end() && SameForRules(*it->second.meta, *meta)) {
    it->second = Entry{change.object, std::move(meta)};  // a status or label write, most of them
    return;
  }
  if (it != objects_.end()) {
    MarkAround(key, *it->second.meta);
    Erase(it);
  }
  Insert(key, change.object, meta);
  MarkAround(key, *meta);
}

void GcGraph::Insert(const Key& key, store::ObjectPtr object, std::shared_ptr<const GcMeta> meta) {
  auto it = objects_.try_emplace(key, Entry{std::move(object), std::move(meta)}).first;
  const Item* stored = &*it;
  const GcMeta& m = *it->second.meta;
  // The store gives every object a uid of its own, so one object per uid.
  if (!m.uid.empty()) by_uid_[m.uid] = stored;
  for (const GcOwnerRef& ref : m.refs) dependents_[ref.uid].insert(stored);
}

void GcGraph::Erase(Objects::iterator it) {
  const Item* stored = &*it;
  const GcMeta& m = *it->second.meta;
  if (auto uid = by_uid_.find(m.uid); uid != by_uid_.end() && uid->second == stored) {
    by_uid_.erase(uid);
  }
  for (const GcOwnerRef& ref : m.refs) {
    auto dependents = dependents_.find(ref.uid);
    if (dependents == dependents_.end()) continue;
    dependents->second.erase(stored);
    if (dependents->second.empty()) dependents_.erase(dependents);
  }
  objects_.erase(it);
}

void GcGraph::MarkAround(const Key& key, const GcMeta& meta) {
  if (judge_all_) return;  // everything is judged anyway
  marked_.insert(key);
  for (const GcOwnerRef& ref : meta.refs) {
    if (auto owner = by_uid_.find(ref.uid); owner != by_uid_.end()) {
      marked_.insert(owner->second->first);
    }
  }
  if (auto dependents = dependents_.find(meta.uid); dependents != dependents_.end()) {
    for (const Item* dependent : dependents->second) marked_.insert(dependent->first);
  }
}

std::vector<std::pair<const GcGraph::Item*, bool>> GcGraph::MarkedAndContext() const {
  // By key, so the snapshot comes in the plan's order; true for the judged ones.
  auto by_key = [](const Item* a, const Item* b) { return a->first < b->first; };
  std::map<const Item*, bool, decltype(by_key)> chosen(by_key);
  auto choose = [&chosen](const Item* item, bool judged) {
    auto [it, added] = chosen.try_emplace(item, judged);
    if (judged) it->second = true;
  };
  for (const Key& key : marked_) {
    auto it = objects_.find(key);
    if (it == objects_.end()) continue;  // gone since it was marked
    choose(&*it, true);
    for (const GcOwnerRef& ref : it->second.meta->refs) {
      if (auto owner = by_uid_.find(ref.uid); owner != by_uid_.end()) choose(owner->second, false);
    }
    if (!ReadsDependents(*it->second.meta)) continue;
    auto dependents = dependents_.find(it->second.meta->uid);
    if (dependents == dependents_.end()) continue;
    for (const Item* dependent : dependents->second) choose(dependent, false);
  }
  return {chosen.begin(), chosen.end()};
}

bool GcGraph::ReadsDependents(const GcMeta& meta) const {
  if (meta.WaitsForDependents() || meta.Orphans()) return true;  // rule 6
  for (const GcOwnerRef& ref : meta.refs) {                      // rule 4
    auto owner = by_uid_.find(ref.uid);
    if (owner != by_uid_.end() && owner->second->second.meta->WaitsForDependents()) return true;
  }
  return false;
}

GcSnapshot GcGraph::Build(const api::ResourceRegistry& registry) {
  // One version per group resource (a CRD may serve several): the registry's first.
  std::map<std::string, const api::ResourceInfo*> resources;
  for (const api::ResourceInfo* info : registry.All()) {
    resources.try_emplace(info->GroupResource(), info);
  }
  std::set<std::string> served;
  for (const auto& [group_resource, info] : resources) served.insert(group_resource);
  if (served != served_) {
    judge_all_ = true;  // owners of a kind no longer served are absent now, and back again
    served_ = std::move(served);
  }

  GcSnapshot snapshot;  // resource_version stays the maximum: the feed is one instant
  auto add = [&](const Item& item, bool judged) {
    auto resource = resources.find(item.first.group_resource);
    if (resource == resources.end()) return;  // not served: absent
    snapshot.objects.push_back(
        GcObject{resource->second, item.second.object, item.second.meta, judged});
  };
  if (judge_all_) {
    for (const Item& item : objects_) add(item, true);
  } else {
    for (const auto& [item, judged] : MarkedAndContext()) add(*item, judged);
  }
  marked_.clear();
  judge_all_ = false;
  return snapshot;
}

}  // namespace lws::cluster
