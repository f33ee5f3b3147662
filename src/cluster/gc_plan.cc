// The garbage collector's rules (gc_plan.h): an index of the snapshot by uid, each reference
// resolved once, then one pass over the objects in their sorted order.
#include "cluster/gc_plan.h"

#include <algorithm>
#include <map>
#include <set>
#include <string_view>
#include <tuple>
#include <unordered_map>

namespace lws::cluster {

namespace {

using api::Json;

struct OwnerRef {
  std::string uid;
  std::string group;  // from apiVersion: "apps/v1" -> "apps", "v1" -> ""
  std::string kind;
  std::string name;
  bool blocks = false;  // blockOwnerDeletion: true
};

// One snapshot object with what the rules read from it.
struct Node {
  const GcObject* entry = nullptr;
  const std::string* group_resource = nullptr;  // entry->resource's, computed once per resource
  std::string namespace_;
  std::string name;
  std::string uid;
  bool deleting = false;
  bool settled = true;          // written before the snapshot began: may be judged
  bool has_orphan = false;      // finalizer `orphan`
  bool has_foreground = false;  // finalizer `foregroundDeletion`
  std::vector<OwnerRef> refs;
  std::vector<int> owners;  // per ref: index of the resolved owner, -1 when absent
  int dependent_count = 0;  // references that resolve to this node
  int blocking_count = 0;   // ... with blockOwnerDeletion: true

  bool WaitsForDependents() const { return deleting && has_foreground; }
  bool Orphans() const { return deleting && has_orphan; }
};

std::string GroupOf(const std::string& api_version) {
  const auto slash = api_version.find('/');
  return slash == std::string::npos ? "" : api_version.substr(0, slash);
}

// The object's metadata, or an empty object.
const Json& MetadataOf(const Json& object) {
  static const Json kEmpty = Json::object();
  auto meta = object.find("metadata");
  return meta != object.end() && meta->is_object() ? *meta : kEmpty;
}

// metadata.<key> when it is an array, else an empty array.
const Json& MetaArray(const Json& meta, const char* key) {
  static const Json kEmpty = Json::array();
  auto it = meta.find(key);
  return it != meta.end() && it->is_array() ? *it : kEmpty;
}

// The well-formed ownerReferences in `meta` (those with a string uid), in their order.
std::vector<OwnerRef> OwnerRefsOf(const Json& meta) {
  std::vector<OwnerRef> out;
  for (const Json& ref : MetaArray(meta, "ownerReferences")) {
    if (!ref.is_object() || !ref.contains("uid") || !ref["uid"].is_string()) continue;
    auto block = ref.find("blockOwnerDeletion");
    out.push_back(OwnerRef{ref["uid"].get<std::string>(),
                           GroupOf(api::StringMember(ref, "apiVersion")),
                           api::StringMember(ref, "kind"), api::StringMember(ref, "name"),
                           block != ref.end() && block->is_boolean() && block->get<bool>()});
  }
  return out;
}

// metadata.<key> when it is a string, else "".
std::string MetaField(const Json& meta, const char* key) {
  auto it = meta.find(key);
  return it != meta.end() && it->is_string() ? it->get<std::string>() : std::string();
}

Node MakeNode(const GcObject& entry, const std::string* group_resource, std::uint64_t snapshot_rv) {
  const Json& meta = MetadataOf(entry.object->json);
  Node node;
  node.entry = &entry;
  node.group_resource = group_resource;
  node.settled = entry.object->resource_version <= snapshot_rv;
  node.namespace_ = MetaField(meta, "namespace");
  node.name = MetaField(meta, "name");
  node.uid = MetaField(meta, "uid");
  node.deleting = !MetaField(meta, "deletionTimestamp").empty();
  for (const Json& f : MetaArray(meta, "finalizers")) {
    if (!f.is_string()) continue;
    node.has_orphan |= f.get<std::string>() == kOrphanFinalizer;
    node.has_foreground |= f.get<std::string>() == kForegroundFinalizer;
  }
  node.refs = OwnerRefsOf(meta);
  return node;
}

// The snapshot as nodes sorted by (group resource, namespace, name). Each resource's name is
// built once: building it inside the comparison allocated twice per comparison.
std::vector<Node> SortedNodes(const GcSnapshot& snapshot) {
  std::map<const api::ResourceInfo*, std::string> group_resources;
  std::vector<Node> nodes;
  nodes.reserve(snapshot.objects.size());
  for (const GcObject& entry : snapshot.objects) {
    auto [it, added] = group_resources.try_emplace(entry.resource);
    if (added) it->second = entry.resource->GroupResource();
    nodes.push_back(MakeNode(entry, &it->second, snapshot.resource_version));
  }
  auto key = [](const Node& n) { return std::tie(*n.group_resource, n.namespace_, n.name); };
  auto before = [&key](const Node& a, const Node& b) { return key(a) < key(b); };
  // The store lists each resource in (namespace, name) order, so the snapshot is often sorted.
  if (!std::is_sorted(nodes.begin(), nodes.end(), before)) {
    std::sort(nodes.begin(), nodes.end(), before);
  }
  return nodes;
}

// True iff `owner` is the object `ref` of `dependent` names, within the scope rule.
bool Resolves(const OwnerRef& ref, const Node& dependent, const Node& owner) {
  const api::ResourceInfo& info = *owner.entry->resource;
  if (ref.name != owner.name || ref.kind != info.kind || ref.group != info.group) return false;
  if (!info.namespaced) return true;
  return dependent.entry->resource->namespaced && dependent.namespace_ == owner.namespace_;
}

// Fills every node's `owners` and the owners' dependent counts.
void ResolveOwners(std::vector<Node>& nodes) {
  // Lookups only, so the hash order never shows; the views point into `nodes`, which stays put.
  std::unordered_map<std::string_view, int> by_uid;
  by_uid.reserve(nodes.size());
  for (int i = 0; i < static_cast<int>(nodes.size()); ++i) by_uid.emplace(nodes[i].uid, i);
  for (Node& node : nodes) {
    for (const OwnerRef& ref : node.refs) {
      auto it = by_uid.find(ref.uid);
      const int owner = it != by_uid.end() && Resolves(ref, node, nodes[it->second]) ? it->second : -1;
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
  action.namespace_ = node.namespace_;
  action.name = node.name;
  action.uid = node.uid;
  return action;
}

// Rule 5: the policy an object's own finalizers ask for.
std::string OwnPolicy(const Node& node) {
  if (node.has_orphan) return "Orphan";
  if (node.has_foreground) return "Foreground";
  return "Background";
}

// Rules 1-5 for one object.
void PlanDependent(const Node& node, const std::vector<Node>& nodes, std::vector<GcAction>* out) {
  if (node.refs.empty() || !node.settled) return;
  std::set<std::string> remove;   // rule 1 always; rule 3 adds dangling and waiting references
  std::set<std::string> dangling;
  std::set<std::string> waiting;
  bool solid = false;
  for (std::size_t i = 0; i < node.refs.size(); ++i) {
    const int owner = node.owners[i];
    const std::string& uid = node.refs[i].uid;
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
  if (!node.deleting && solid) {
    remove.insert(dangling.begin(), dangling.end());
    remove.insert(waiting.begin(), waiting.end());
  }
  if (!remove.empty()) {
    GcAction action = ActionOn(node, GcActionKind::kRemoveOwnerReferences);
    action.owner_uids.assign(remove.begin(), remove.end());
    out->push_back(std::move(action));
  }
  if (node.deleting || solid) return;
  GcAction action = ActionOn(node, GcActionKind::kDelete);
  action.resource_version = store::MetaString(node.entry->object->json, "resourceVersion");
  action.propagation_policy =
      !waiting.empty() && node.dependent_count > 0 ? "Foreground" : OwnPolicy(node);
  out->push_back(std::move(action));
}

// Rule 6 for one object.
void PlanOwner(const Node& node, std::vector<GcAction>* out) {
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
    case GcActionKind::kRemoveOwnerReferences: return "RemoveOwnerReferences";
    case GcActionKind::kDelete: return "Delete";
    case GcActionKind::kRemoveFinalizer: return "RemoveFinalizer";
  }
  return "?";
}

}  // namespace

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
    case GcActionKind::kDelete: return out + " " + action.propagation_policy;
    case GcActionKind::kRemoveFinalizer: return out + " " + action.finalizer;
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
