// File: apiserver/fields_v1_edit.cc
//
// Reading and editing a managedFields entry's FieldsV1 as JSON (fields_v1_edit.h).

#include "apiserver/fields_v1_edit.h"

#include <string_view>

namespace lws::apiserver {
namespace {

// The member `pe` of the FieldsV1 node `node`, or end(). `unsure` is set when it is missing but
// may be there spelled another way: a key or value element, beside others of its kind.
Json::iterator FindElement(Json& node, const PathElement& pe, bool* unsure) {
  auto it = node.find(pe.Serialize());
  if (it != node.end() ||
      (pe.kind() != PathElement::Kind::kKey && pe.kind() != PathElement::Kind::kValue)) {
    return it;
  }
  const std::string_view prefix = pe.kind() == PathElement::Kind::kKey ? "k:" : "v:";
  for (const auto& [key, value] : node.items()) {
    if (std::string_view(key).starts_with(prefix)) *unsure = true;
  }
  return it;
}

// Whether the FieldsV1 node of a path element is a member itself: written {} when nothing lies
// below it, and with "." beside what does.
bool IsMember(const Json& node) { return node.empty() || node.contains("."); }

// A member with nothing left below it is written {}, not {".": {}}.
void CompactMember(Json& node) {
  if (node.size() == 1 && node.contains(".")) node = Json::object();
}

}  // namespace

// True unless the FieldsV1 node `fields_v1` provably shares no path with `set`: some element of
// each path of `set` is missing from it. Field names and indexes have one spelling; keys and
// values have several ("k:" fields in any order), so a path through one counts as shared, as
// does a path through anything that is not an object. One walk of both trees: listing the set's
// paths first copied every path of every write's changes for every entry.
bool MayShare(const Json& fields_v1, const FieldSet& set) {
  if (set.empty()) return false;
  if (!fields_v1.is_object()) return true;
  auto spelled_once = [](const PathElement& pe) {
    return pe.kind() != PathElement::Kind::kKey && pe.kind() != PathElement::Kind::kValue;
  };
  for (const PathElement& pe : set.members()) {
    if (!spelled_once(pe) || fields_v1.contains(pe.Serialize())) return true;
  }
  for (const auto& [pe, below] : set.children()) {
    if (!spelled_once(pe)) {
      if (!below.empty()) return true;
      continue;
    }
    auto it = fields_v1.find(pe.Serialize());
    if (it != fields_v1.end() && MayShare(*it, below)) return true;
  }
  return false;
}

// True when every path of `set` is a member of the FieldsV1 node `fields_v1`, each element
// spelled as PathElement::Serialize spells it (our own encoding does). False also when unsure:
// a key spelled another way reads as missing.
bool OwnsAll(const Json& fields_v1, const FieldSet& set) {
  if (!fields_v1.is_object()) return false;
  for (const PathElement& pe : set.members()) {
    auto it = fields_v1.find(pe.Serialize());
    if (it == fields_v1.end() || !it->is_object()) return false;
    if (!IsMember(*it)) return false;  // paths go through it, none ends there
  }
  for (const auto& [pe, below] : set.children()) {
    auto it = fields_v1.find(pe.Serialize());
    if (it == fields_v1.end() || !OwnsAll(*it, below)) return false;
  }
  return true;
}

// Removes every path of `set` (relative to `node`) from the FieldsV1 node `node`, keeping what
// lies below a removed path, as FieldSet::Subtract does. False when unsure (FindElement).
bool RemoveFieldsV1(Json& node, const FieldSet& set) {
  bool unsure = false;
  for (const auto& [pe, below] : set.children()) {
    auto it = FindElement(node, pe, &unsure);
    if (unsure || (it != node.end() && !it->is_object())) return false;
    if (it == node.end()) continue;
    const bool member = IsMember(*it);
    if (!RemoveFieldsV1(*it, below)) return false;
    if (it->empty() && !member) {
      node.erase(it);  // nothing left below, and not a member itself
    } else {
      CompactMember(*it);
    }
  }
  for (const PathElement& pe : set.members()) {
    auto it = FindElement(node, pe, &unsure);
    if (unsure || (it != node.end() && !it->is_object())) return false;
    if (it == node.end()) continue;
    it->erase(".");
    if (it->empty()) node.erase(it);
  }
  return true;
}

// Adds every path of `set` (relative to `node`) to the FieldsV1 node `node` as a member, as
// FieldSet::Add does. False when unsure (FindElement).
bool AddFieldsV1(Json& node, const FieldSet& set) {
  bool unsure = false;
  bool made = false;
  auto element = [&](const PathElement& pe) {
    auto it = FindElement(node, pe, &unsure);
    made = it == node.end() && !unsure;
    if (made) it = node.emplace(pe.Serialize(), Json::object()).first;
    return it;
  };
  for (const auto& [pe, below] : set.children()) {
    auto it = element(pe);
    if (unsure || !it->is_object()) return false;
    // {} is a member with nothing below; it keeps being one once something is.
    if (!made && it->empty()) (*it)["."] = Json::object();
    if (!AddFieldsV1(*it, below)) return false;
    if (made && it->empty()) {
      node.erase(it);  // nothing was added below after all
    } else {
      CompactMember(*it);
    }
  }
  for (const PathElement& pe : set.members()) {
    auto it = element(pe);
    if (unsure || !it->is_object()) return false;
    if (!it->empty()) (*it)["."] = Json::object();
  }
  return true;
}

}  // namespace lws::apiserver
