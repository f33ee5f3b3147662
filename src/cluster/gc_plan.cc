// The garbage collector's rules (gc_plan.h): an index of the snapshot by uid, each reference
// resolved once, then one pass over the objects in their sorted order.
#include "cluster/gc_plan.h"

#include <algorithm>
#include <map>
#include <set>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

#include "store/object_meta.h"

namespace lws::cluster {

namespace {

using api::Json;

// One snapshot object with what the rules read from it.
struct Node {
  const GcObject* entry = nullptr;
  const std::string* group_resource = nullptr;  // entry->resource's, computed once per resource
  std::shared_ptr<const GcMeta> meta;
  bool settled = true;      // written before the snapshot began: may be judged as a dependent
  bool judged = true;       // not context: gets actions
  std::vector<int> owners;  // per ref: index of the resolved owner, -1 when absent
  int dependent_count = 0;  // references that resolve to this node
  int blocking_count = 0;   // ... with blockOwnerDeletion: true

  bool WaitsForDependents() const { return meta->WaitsForDependents(); }
  bool Orphans() const { return meta->Orphans(); }
};

std::string GroupOf(const std::string& api_version) {
  const auto slash = api_version.find('/');
  return slash == std::string::npos ? "" : api_version.substr(0, slash);
}

Node MakeNode(const GcObject& entry, const std::string* group_resource, std::uint64_t snapshot_rv,
              std::shared_ptr<const GcMeta> meta) {
  Node node;
  node.entry = &entry;
  node.group_resource = group_resource;
  node.meta = std::move(meta);
  node.settled = entry.object->resource_version() <= snapshot_rv;
  node.judged = entry.judged;
  return node;
}

// Only a reference's uid resolves to an object, so an object that refers to no owner, is not
// being deleted and is named by no reference takes part in no rule. Leaving those out before
// sorting and indexing makes a pass cost what the ownership graph holds, not every Event.
bool TakesPart(const GcMeta& meta, const std::unordered_set<std::string_view>& referenced) {
  return !meta.refs.empty() || meta.deleting || referenced.contains(meta.uid);
}

// The snapshot's objects that take part, as nodes sorted by (group resource, namespace, name).
// Each resource's name is built once, outside the comparison, which then allocates nothing.
std::vector<Node> SortedNodes(const GcSnapshot& snapshot) {
  std::vector<std::shared_ptr<const GcMeta>> metas;
  metas.reserve(snapshot.objects.size());
  std::unordered_set<std::string_view> referenced;  // views into `metas`, which outlive it
  for (const GcObject& entry : snapshot.objects) {
    metas.push_back(entry.meta ? entry.meta
                               : std::make_shared<GcMeta>(ExtractGcMeta(*entry.object)));
    for (const GcOwnerRef& ref : metas.back()->refs) referenced.insert(ref.uid);
  }
  std::map<const api::ResourceInfo*, std::string> group_resources;
  std::vector<Node> nodes;
  for (std::size_t i = 0; i < snapshot.objects.size(); ++i) {
    if (!TakesPart(*metas[i], referenced)) continue;
    const GcObject& entry = snapshot.objects[i];
    auto [it, added] = group_resources.try_emplace(entry.resource);
    if (added) it->second = entry.resource->GroupResource();
    nodes.push_back(MakeNode(entry, &it->second, snapshot.resource_version, std::move(metas[i])));
  }
  auto key = [](const Node& n) {
    return std::tie(*n.group_resource, n.meta->namespace_, n.meta->name);
  };
  auto before = [&key](const Node& a, const Node& b) { return key(a) < key(b); };
  // The store lists each resource in (namespace, name) order, so the snapshot is often sorted.
  if (!std::is_sorted(nodes.begin(), nodes.end(), before)) {
    std::sort(nodes.begin(), nodes.end(), before);
  }
  return nodes;
}

// True iff `owner` is the object `ref` of `dependent` names, within the scope rule.
bool Resolves(const GcOwnerRef& ref, const Node& dependent, const Node& owner) {
  const api::ResourceInfo& info = *owner.entry->resource;
  if (ref.name != owner.meta->name || ref.kind != info.kind || ref.group != info.group) {
    return false;
  }
  if (!info.namespaced) return true;
  return dependent.entry->resource->namespaced &&
         dependent.meta->namespace_ == owner.meta->namespace_;
}

// Fills every node's `owners` and the owners' dependent counts.
void ResolveOwners(std::vector<Node>& nodes) {
  // Lookups only, so the hash order never shows; the views point into `nodes`, which stays put.
  std::unordered_map<std::string_view, int> by_uid;
  by_uid.reserve(nodes.size());
  for (int i = 0; i < static_cast<int>(nodes.size()); ++i) by_uid.emplace(nodes[i].meta->uid, i);
  for (Node& node : nodes) {
    for (const GcOwnerRef& ref : node.meta->refs) {
      auto it = by_uid.find(ref.uid);
      const int owner =
          it != by_uid.end() && Resolves(ref, node, nodes[it->second]) ? it->second : -1;
      node.owners.push_back(owner);
      if (owner < 0) continue;
      ++nodes[owner].dependent_count;
      if (ref.blocks) ++nodes[owner].blocking_count;
    }
  }
}

GcAction ActionOn(const Node& node, GcActionKind kind) {
  GcAction action;
  action.kind = kind;
  action.resource = node.entry->resource;
  action.namespace_ = node.meta->namespace_;
  action.name = node.meta->name;
  action.uid = node.meta->uid;
  return action;
}

// Rule 5: the policy an object's own finalizers ask for.
std::string OwnPolicy(const Node& node) {
  if (node.meta->has_orphan) return "Orphan";
  if (node.meta->has_foreground) return "Foreground";
  return "Background";
}

// Rules 1-5 for one object.
void PlanDependent(const Node& node, const std::vector<Node>& nodes, std::vector<GcAction>* out) {
  const std::vector<GcOwnerRef>& refs = node.meta->refs;
  if (refs.empty() || !node.settled || !node.judged) return;
  std::set<std::string> remove;  // rule 1 always; rule 3 adds dangling and waiting references
  std::set<std::string> dangling;
  std::set<std::string> waiting;
  bool solid = false;
  for (std::size_t i = 0; i < refs.size(); ++i) {
    const int owner = node.owners[i];
    const std::string& uid = refs[i].uid;
    if (owner >= 0 && nodes[owner].Orphans()) {
      remove.insert(uid);
      solid = true;
    } else if (owner < 0) {
      dangling.insert(uid);
    } else if (nodes[owner].WaitsForDependents()) {
      waiting.insert(uid);
    } else {
      solid = true;
    }
  }
  if (!node.meta->deleting && solid) {
    remove.insert(dangling.begin(), dangling.end());
    remove.insert(waiting.begin(), waiting.end());
  }
  if (!remove.empty()) {
    GcAction action = ActionOn(node, GcActionKind::kRemoveOwnerReferences);
    action.owner_uids.assign(remove.begin(), remove.end());
    out->push_back(std::move(action));
  }
  if (node.meta->deleting || solid) return;
  GcAction action = ActionOn(node, GcActionKind::kDelete);
  action.resource_version = node.meta->resource_version;
  action.propagation_policy =
      !waiting.empty() && node.dependent_count > 0 ? "Foreground" : OwnPolicy(node);
  out->push_back(std::move(action));
}

// Rule 6 for one object.
void PlanOwner(const Node& node, std::vector<GcAction>* out) {
  if (!node.judged) return;
  if (node.Orphans() && node.dependent_count == 0) {
    GcAction action = ActionOn(node, GcActionKind::kRemoveFinalizer);
    action.finalizer = kOrphanFinalizer;
    out->push_back(std::move(action));
  }
  if (node.WaitsForDependents() && node.blocking_count == 0) {
    GcAction action = ActionOn(node, GcActionKind::kRemoveFinalizer);
    action.finalizer = kForegroundFinalizer;
    out->push_back(std::move(action));
  }
}

std::string_view KindName(GcActionKind kind) {
  switch (kind) {
    case GcActionKind::kRemoveOwnerReferences:
      return "RemoveOwnerReferences";
    case GcActionKind::kDelete:
      return "Delete";
    case GcActionKind::kRemoveFinalizer:
      return "RemoveFinalizer";
  }
  return "?";
}

}  // namespace

GcMeta ExtractGcMeta(const store::StoredObject& object) {
  GcMeta out;
  out.namespace_ = object.name().namespace_;
  out.name = object.name().name;
  out.uid = object.uid();
  if (object.resource_version() != 0) {
    out.resource_version = std::to_string(object.resource_version());
  }
  out.deleting = !store::DeletionTimestamp(object).empty();
  for (std::string_view f : store::Finalizers(object)) {
    out.has_orphan |= f == kOrphanFinalizer;
    out.has_foreground |= f == kForegroundFinalizer;
  }
  for (const store::OwnerRefView& ref : store::OwnerReferences(object)) {
    if (ref.uid.empty()) continue;  // names no object
    out.refs.push_back(GcOwnerRef{std::string(ref.uid), GroupOf(std::string(ref.api_version)),
                                  std::string(ref.kind), std::string(ref.name),
                                  ref.block_owner_deletion});
  }
  return out;
}

std::string ToString(const GcAction& action) {
  std::string out(KindName(action.kind));
  out += " " + (action.resource ? action.resource->GroupResource() : std::string("<none>")) + " ";
  out += action.namespace_.empty() ? action.name : action.namespace_ + "/" + action.name;
  switch (action.kind) {
    case GcActionKind::kRemoveOwnerReferences: {
      out += " [";
      for (std::size_t i = 0; i < action.owner_uids.size(); ++i) {
        out += (i ? " " : "") + action.owner_uids[i];
      }
      return out + "]";
    }
    case GcActionKind::kDelete:
      return out + " " + action.propagation_policy;
    case GcActionKind::kRemoveFinalizer:
      return out + " " + action.finalizer;
  }
  return out;
}

std::vector<GcAction> PlanGarbageCollection(const GcSnapshot& snapshot) {
  std::vector<Node> nodes = SortedNodes(snapshot);
  ResolveOwners(nodes);
  std::vector<GcAction> actions;
  for (const Node& node : nodes) {
    PlanDependent(node, nodes, &actions);
    PlanOwner(node, &actions);
  }
  return actions;
}

}  // namespace lws::cluster
