// The I/O half of the garbage collector (garbage_collector.h): snapshot, plan, apply.
#include "cluster/garbage_collector.h"

#include <set>

namespace lws::cluster {

namespace {

using api::Json;

// Write failures that mean "someone else got there first": planned again on the next pass.
bool IsRace(const Status& status) {
  return status.code() == Code::kNotFound || status.code() == Code::kConflict;
}

// Removes from metadata.<key> every element `drop` selects; an emptied list goes away. Returns
// true iff something was removed.
template <class Pred>
bool EraseFromMetaList(Json& object, const char* key, Pred drop) {
  auto meta = object.find("metadata");
  if (meta == object.end() || !meta->is_object()) return false;
  auto list = meta->find(key);
  if (list == meta->end() || !list->is_array()) return false;
  const std::size_t before = list->size();
  Json kept = Json::array();
  for (const Json& item : *list) {
    if (!drop(item)) kept.push_back(item);
  }
  if (kept.size() == before) return false;
  if (kept.empty()) {
    meta->erase(key);
  } else {
    *list = std::move(kept);
  }
  return true;
}

// Applies a RemoveOwnerReferences or RemoveFinalizer action to `object`; true iff it changed.
bool Edit(const GcAction& action, Json& object) {
  if (action.kind == GcActionKind::kRemoveFinalizer) {
    return EraseFromMetaList(object, "finalizers", [&](const Json& f) {
      return f.is_string() && f.get<std::string>() == action.finalizer;
    });
  }
  const std::set<std::string> uids(action.owner_uids.begin(), action.owner_uids.end());
  return EraseFromMetaList(object, "ownerReferences", [&](const Json& ref) {
    if (!ref.is_object()) return false;
    auto uid = ref.find("uid");
    return uid != ref.end() && uid->is_string() && uids.contains(uid->get<std::string>());
  });
}

}  // namespace

GarbageCollector::GarbageCollector(store::Store* store, const client::Client* client,
                                   const api::ResourceRegistry* registry, GcGraph* graph)
    : store_(store),
      client_(client),
      registry_(registry),
      graph_(graph != nullptr ? graph : &own_graph_) {}

Result<GcSnapshot> GarbageCollector::Snapshot() const {
  GcGraph fresh;
  return fresh.NextSnapshot(*store_, *registry_);
}

Result<int> GarbageCollector::RunOnce() {
  ASSIGN_OR_RETURN(GcSnapshot snapshot, graph_->NextSnapshot(*store_, *registry_));
  Result<int> changed = ApplyPlan(PlanGarbageCollection(snapshot));
  // A write that failed for another reason than a race left its object as it was, unjudged.
  if (!changed.ok()) graph_->JudgeAll();
  return changed;
}

Result<int> GarbageCollector::ApplyPlan(const std::vector<GcAction>& actions) {
  int changed = 0;
  Status first_error;
  for (const GcAction& action : actions) {
    Result<bool> applied = Apply(action);
    if (!applied.ok()) {
      if (first_error.ok()) first_error = applied.status();
      continue;
    }
    if (*applied) ++changed;
  }
  if (!first_error.ok()) return first_error;
  return changed;
}

Result<int> GarbageCollector::RunUntilStable(int max_passes) {
  int total = 0;
  for (int pass = 0; pass < max_passes; ++pass) {
    ASSIGN_OR_RETURN(int changed, RunOnce());
    if (changed == 0) break;
    total += changed;
  }
  return total;
}

Result<bool> GarbageCollector::Apply(const GcAction& action) {
  Result<bool> applied =
      action.kind == GcActionKind::kDelete ? ApplyDelete(action) : ApplyUpdate(action);
  if (!applied.ok() && IsRace(applied.status())) return false;
  return applied;
}

Result<bool> GarbageCollector::ApplyDelete(const GcAction& action) {
  client::DeleteOptions options;
  options.propagation_policy = action.propagation_policy;
  options.precondition_uid = action.uid;
  options.precondition_resource_version = action.resource_version;
  RETURN_IF_ERROR(
      client_->Delete(client::ResourceOf(*action.resource), action.namespace_, action.name, options)
          .status());
  return true;
}

Result<bool> GarbageCollector::ApplyUpdate(const GcAction& action) {
  const client::Resource resource = client::ResourceOf(*action.resource);
  ASSIGN_OR_RETURN(store::ObjectPtr current,
                   client_->Get(resource, action.namespace_, action.name));
  if (current->uid() != action.uid) return false;  // a namesake
  Json edited = current->document();
  if (!Edit(action, edited)) return false;
  RETURN_IF_ERROR(client_->Update(resource, std::move(edited)).status());
  return true;
}

}  // namespace lws::cluster
