// File: apiserver/field_set.cc
//
// FieldSet operations. Each returns a normalised tree (no empty child), which keeps operator==
// meaningful and FieldsV1 output free of empty objects that would read back as members.

#include "apiserver/field_set.h"

namespace lws::apiserver {

void FieldSet::Insert(const Path& path) {
  if (!path.empty()) InsertAt(path, 0);
}

void FieldSet::InsertAt(const Path& path, std::size_t i) {
  if (i + 1 == path.size()) {
    members_.insert(path[i]);
    return;
  }
  children_[path[i]].InsertAt(path, i + 1);
}

void FieldSet::Inserter::Insert(const Path& path) {
  if (path.empty()) return;
  const std::size_t parents = path.size() - 1;
  std::size_t common = 0;
  while (common < chain_.size() && common < parents && *chain_[common].first == path[common]) {
    ++common;
  }
  chain_.resize(common);
  FieldSet* node = common == 0 ? root_ : chain_.back().second;
  for (std::size_t i = common; i < parents; ++i) {
    auto it = node->children_.try_emplace(path[i]).first;
    chain_.emplace_back(&it->first, &it->second);
    node = &it->second;
  }
  node->members_.insert(path[parents]);
}

bool FieldSet::Has(const Path& path) const {
  const FieldSet* node = this;
  for (std::size_t i = 0; i < path.size(); ++i) {
    if (i + 1 == path.size()) return node->HasMember(path[i]);
    node = node->Child(path[i]);
    if (node == nullptr) return false;
  }
  return false;
}

const FieldSet* FieldSet::Child(const PathElement& pe) const {
  auto it = children_.find(pe);
  return it == children_.end() ? nullptr : &it->second;
}

FieldSet FieldSet::Union(const FieldSet& other) const {
  FieldSet out = *this;
  out.Add(other);
  return out;
}

void FieldSet::Add(const FieldSet& other) {
  members_.insert(other.members_.begin(), other.members_.end());
  for (const auto& [pe, child] : other.children_) children_[pe].Add(child);
}

FieldSet FieldSet::Intersection(const FieldSet& other) const {
  FieldSet out;
  for (const PathElement& pe : members_) {
    if (other.HasMember(pe)) out.members_.insert(pe);
  }
  for (const auto& [pe, child] : children_) {
    const FieldSet* theirs = other.Child(pe);
    if (theirs == nullptr) continue;
    FieldSet both = child.Intersection(*theirs);
    if (!both.empty()) out.children_.emplace(pe, std::move(both));
  }
  return out;
}

void FieldSet::Subtract(const FieldSet& other) {
  for (const PathElement& pe : other.members_) members_.erase(pe);
  for (const auto& [pe, theirs] : other.children_) {
    auto it = children_.find(pe);
    if (it == children_.end()) continue;
    it->second.Subtract(theirs);
    if (it->second.empty()) children_.erase(it);
  }
}

FieldSet FieldSet::Difference(const FieldSet& other) const {
  FieldSet out;
  for (const PathElement& pe : members_) {
    if (!other.HasMember(pe)) out.members_.insert(pe);
  }
  for (const auto& [pe, child] : children_) {
    const FieldSet* theirs = other.Child(pe);
    if (theirs == nullptr) {
      out.children_.emplace(pe, child);
      continue;
    }
    FieldSet rest = child.Difference(*theirs);
    if (!rest.empty()) out.children_.emplace(pe, std::move(rest));
  }
  return out;
}

FieldSet FieldSet::RecursiveDifference(const FieldSet& other) const {
  FieldSet out;
  for (const PathElement& pe : members_) {
    if (!other.HasMember(pe)) out.members_.insert(pe);
  }
  for (const auto& [pe, child] : children_) {
    if (other.HasMember(pe)) continue;  // the whole subtree goes with its root
    const FieldSet* theirs = other.Child(pe);
    if (theirs == nullptr) {
      out.children_.emplace(pe, child);
      continue;
    }
    FieldSet rest = child.RecursiveDifference(*theirs);
    if (!rest.empty()) out.children_.emplace(pe, std::move(rest));
  }
  return out;
}

FieldSet FieldSet::WithFieldsAsMembers() const {
  FieldSet out;
  out.members_ = members_;
  for (const auto& [pe, child] : children_) {
    if (pe.kind() == PathElement::Kind::kField) out.members_.insert(pe);
    out.children_.emplace(pe, child.WithFieldsAsMembers());
  }
  return out;
}

std::vector<Path> FieldSet::Paths() const {
  std::vector<Path> out;
  Path prefix;
  CollectPaths(&prefix, &out);
  return out;
}

void FieldSet::CollectPaths(Path* prefix, std::vector<Path>* out) const {
  for (const PathElement& pe : members_) {
    prefix->push_back(pe);
    out->push_back(*prefix);
    prefix->pop_back();
  }
  for (const auto& [pe, child] : children_) {
    prefix->push_back(pe);
    child.CollectPaths(prefix, out);
    prefix->pop_back();
  }
}

std::size_t FieldSet::size() const {
  std::size_t n = members_.size();
  for (const auto& [pe, child] : children_) n += child.size();
  return n;
}

// Builds the object in place, key by key at the end: the elements come in an order close to
// the keys' (fields first, then keys and values), so most insertions find their place at once,
// and no node is built twice (not even the member {} of an element that also has children).
Json FieldSet::ToFieldsV1() const {
  Json out = Json::object();
  auto& object = out.get_ref<Json::object_t&>();
  for (const PathElement& pe : members_) {
    if (children_.count(pe) == 0) object.emplace_hint(object.end(), pe.Serialize(), Json::object());
  }
  for (const auto& [pe, child] : children_) {
    auto node = object.emplace_hint(object.end(), pe.Serialize(), child.ToFieldsV1());
    if (members_.count(pe) > 0)
      node->second.get_ref<Json::object_t&>().emplace(".", Json::object());
  }
  return out;
}

// Reads one FieldsV1 node into `into` (the children of its parent's element); sets *is_member
// when the node marks its element as a member ("." present, or no readable child at all).
Status FieldSet::ReadNode(const Json& node, std::size_t depth, FieldSet* into, bool* is_member) {
  if (depth > kMaxFieldDepth) {
    return Status::BadRequest("FieldsV1 nested deeper than " + std::to_string(kMaxFieldDepth));
  }
  if (!node.is_object()) {
    return Status::BadRequest("FieldsV1 node is not an object: " + node.dump());
  }
  bool any_child = false;
  *is_member = false;
  for (const auto& [key, value] : node.items()) {
    if (key == ".") {
      *is_member = true;
      continue;
    }
    ASSIGN_OR_RETURN(std::optional<PathElement> pe, ParsePathElement(key));
    if (!pe.has_value()) continue;  // A future element type: dropped, as upstream does.
    FieldSet grandchildren;
    bool child_is_member = false;
    RETURN_IF_ERROR(ReadNode(value, depth + 1, &grandchildren, &child_is_member));
    if (child_is_member) into->members_.insert(*pe);
    any_child = any_child || child_is_member || !grandchildren.empty();
    if (!grandchildren.empty()) {
      // Two spellings of one key (e.g. reordered key fields) land on the same element.
      FieldSet& slot = into->children_[*pe];
      if (slot.empty()) {
        slot = std::move(grandchildren);
      } else {
        slot.Add(grandchildren);
      }
    }
  }
  if (!any_child) *is_member = true;
  return Status::Ok();
}

Result<FieldSet> FieldSet::FromFieldsV1(const Json& fields) {
  if (fields.is_null()) return FieldSet();
  FieldSet out;
  bool root_is_member = false;
  RETURN_IF_ERROR(ReadNode(fields, 0, &out, &root_is_member));
  return out;
}

bool SkipsElement(const FieldSet* skip, const PathElement& pe, const FieldSet** below) {
  *below = nullptr;
  if (skip == nullptr) return false;
  if (skip->HasMember(pe)) return true;
  *below = skip->Child(pe);
  return false;
}

}  // namespace lws::apiserver
