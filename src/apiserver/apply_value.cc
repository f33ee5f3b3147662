// File: apiserver/apply_value.cc
//
// Each operation is a recursive walk carrying two paths: the SchemaPath (field names only) that
// the provider answers for, and the field Path that goes into field sets. "Absent" is a null
// pointer; a JSON null is a present value.

#include "apiserver/apply_value.h"

#include <map>
#include <optional>
#include <set>

#include "apiserver/apply_items.h"

namespace lws::apiserver {
namespace {

using namespace items;  // NOLINT: this file is their one user

enum class Shape { kLeaf, kMap, kList };

// Where Compare records its paths: one Inserter per set, as the walk visits paths in order.
struct Recorder {
  explicit Recorder(Comparison* out)
      : added(&out->added), removed(&out->removed), modified(&out->modified) {}
  FieldSet::Inserter added, removed, modified;
};

class Walker {
 public:
  explicit Walker(const ListTypeProvider& provider) : provider_(provider) {}

  // The shape both sides share at the current path (emptiness on both sides makes a leaf, which
  // keeps the difference between null and {} or []).
  Shape ShapeOf(const Json* a, const Json* b, ListSchema* list) const {
    if (IsEmptyOrNull(a) && IsEmptyOrNull(b)) return Shape::kLeaf;
    bool has_object = (a && a->is_object()) || (b && b->is_object());
    bool has_array = (a && a->is_array()) || (b && b->is_array());
    if (has_object && FitsObject(a) && FitsObject(b)) {
      return provider_.AtomicMapAt(schema_path_) ? Shape::kLeaf : Shape::kMap;
    }
    if (has_array && FitsArray(a) && FitsArray(b)) {
      *list = provider_.ListAt(schema_path_);
      return list->type == ListType::kAtomic ? Shape::kLeaf : Shape::kList;
    }
    return Shape::kLeaf;
  }

  void Descend(const std::string& key) {
    schema_path_.push_back(key);
    path_.push_back(PathElement::Field(key));
  }
  void Ascend() {
    schema_path_.pop_back();
    path_.pop_back();
  }

  void CollectFields(const Json& v, FieldSet::Inserter* out) {
    if (v.is_object() && !v.empty() && !provider_.AtomicMapAt(schema_path_)) {
      for (const auto& [key, child] : v.items()) {
        Descend(key);
        CollectFields(child, out);
        Ascend();
      }
      return;
    }
    if (v.is_array()) {
      ListSchema list = provider_.ListAt(schema_path_);
      if (list.type != ListType::kAtomic) {
        for (const Item& item : Index(&v, list).order) {
          path_.push_back(item.pe);
          CollectFields(*item.value, out);
          out->Insert(path_);
          path_.pop_back();
        }
        return;
      }
    }
    out->Insert(path_);
  }

  // `skip`: the part of Compare's skip set below the current path (nullptr: none).
  void CompareNode(const Json* a, const Json* b, const FieldSet* skip, Recorder* out) {
    // Equal values differ nowhere below; one equality test is far cheaper than the walk, and
    // most of an object is unchanged by a typical write.
    if (a != nullptr && b != nullptr && *a == *b) return;
    ListSchema list;
    switch (ShapeOf(a, b, &list)) {
      case Shape::kLeaf:
        if (a == nullptr) {
          out->added.Insert(path_);
        } else if (b == nullptr) {
          out->removed.Insert(path_);
        } else if (*a != *b) {
          out->modified.Insert(path_);
        }
        return;
      case Shape::kMap:
        CompareMaps(a, b, skip, out);
        break;
      case Shape::kList:
        CompareLists(a, b, list, skip, out);
        break;
    }
    if (path_.empty()) return;
    if (a == nullptr) out->added.Insert(path_);
    if (b == nullptr) out->removed.Insert(path_);
  }

  // The entries Compare(nothing, v) adds below the current path, written into `out` as FieldsV1
  // (see AddedFieldsV1). `skip` and `strip` are the parts of those sets below the current path.
  void AddedInto(const Json& v, const FieldSet* skip, const FieldSet* strip, Json::object_t* out) {
    ListSchema list;
    const Shape shape = ShapeOf(nullptr, &v, &list);
    // At most one entry per member or item, and "." (AddEntry): reserved once, so that adding
    // the entries never moves the ones already added.
    if (shape != Shape::kLeaf) out->reserve(out->size() + v.size() + 1);
    switch (shape) {
      case Shape::kLeaf:
        return;
      case Shape::kMap:
        for (const auto& [key, child] : v.items()) {
          schema_path_.push_back(key);
          // Skipped and stripped paths sit near the top; below them, a name is all it takes.
          if (skip == nullptr && strip == nullptr) {
            AddEntry("f:" + key, child, nullptr, nullptr, out);
          } else {
            AddedEntry(PathElement::Field(key), child, skip, strip, out);
          }
          schema_path_.pop_back();
        }
        return;
      case Shape::kList:
        for (const auto& [pe, item] : FirstItems(&v, list)) AddedEntry(pe, *item, skip, strip, out);
        return;
    }
  }

  void AddedEntry(const PathElement& pe, const Json& child, const FieldSet* skip,
                  const FieldSet* strip, Json::object_t* out) {
    const FieldSet* skip_below = nullptr;
    if (SkipsElement(skip, pe, &skip_below)) return;
    const bool member = strip == nullptr || !strip->HasMember(pe);
    const FieldSet* strip_below = strip == nullptr ? nullptr : strip->Child(pe);
    AddEntry(pe.Serialize(), child, skip_below, strip_below, out, member);
  }

  // One added path and what lies below it: {} for a leaf, "." beside the children of a member.
  void AddEntry(std::string key, const Json& child, const FieldSet* skip, const FieldSet* strip,
                Json::object_t* out, bool member = true) {
    Json node = Json::object();
    auto& below = node.get_ref<Json::object_t&>();
    AddedInto(child, skip, strip, &below);
    if (member && !below.empty()) below.emplace(".", Json::object());
    if (member || !below.empty()) out->emplace(std::move(key), std::move(node));
  }

  std::optional<Json> MergeNode(const Json* live, const Json* config) {
    if (config == nullptr) return live ? std::optional<Json>(*live) : std::nullopt;
    if (live == nullptr) return *config;
    ListSchema list;
    switch (ShapeOf(live, config, &list)) {
      case Shape::kLeaf:
        return *config;
      case Shape::kMap: {
        Json out = live->is_object() ? *live : Json::object();
        if (!config->is_object()) return out;
        for (const auto& [key, child] : config->items()) {
          Descend(key);
          std::optional<Json> merged = MergeNode(Find(live, key), &child);
          Ascend();
          if (merged.has_value()) out[key] = std::move(*merged);
        }
        return out;
      }
      case Shape::kList:
        return MergeLists(live, config, list);
    }
    return *config;
  }

  std::optional<Json> Remove(const Json& v, const FieldSet& paths) {
    if (v.is_object() && !v.empty() && !provider_.AtomicMapAt(schema_path_)) {
      Json out = Json::object();
      for (const auto& [key, child] : v.items()) {
        PathElement pe = PathElement::Field(key);
        if (paths.HasMember(pe)) continue;
        const FieldSet* below = paths.Child(pe);
        if (below == nullptr) {
          out[key] = child;
          continue;
        }
        Descend(key);
        std::optional<Json> kept = Remove(child, *below);
        Ascend();
        if (kept.has_value()) out[key] = std::move(*kept);
      }
      return out.empty() ? std::nullopt : std::optional<Json>(std::move(out));
    }
    if (!v.is_array() || v.empty()) return v;
    ListSchema list = provider_.ListAt(schema_path_);
    if (list.type == ListType::kAtomic) return v;
    Json out = Json::array();
    for (const Json& item : v) {
      Result<PathElement> pe = ListItemElement(list, item);
      if (!pe.ok()) {
        out.push_back(item);
        continue;
      }
      if (paths.HasMember(*pe)) continue;
      const FieldSet* below = paths.Child(*pe);
      if (below == nullptr) {
        out.push_back(item);
        continue;
      }
      path_.push_back(*pe);
      std::optional<Json> kept = Remove(item, *below);
      path_.pop_back();
      if (kept.has_value()) out.push_back(std::move(*kept));
    }
    return out.empty() ? std::nullopt : std::optional<Json>(std::move(out));
  }

 private:
  // Both sides' keys in order, merged: JSON objects keep their keys sorted, so one pass over each
  // finds every key and its two values without collecting the keys first.
  void CompareMaps(const Json* a, const Json* b, const FieldSet* skip, Recorder* out) {
    static const Json kNoKeys = Json::object();
    const Json& left = a != nullptr && a->is_object() ? *a : kNoKeys;
    const Json& right = b != nullptr && b->is_object() ? *b : kNoKeys;
    auto l = left.begin(), r = right.begin();
    while (l != left.end() || r != right.end()) {
      const int order = l == left.end() ? 1 : r == right.end() ? -1 : l.key().compare(r.key());
      const std::string& key = order <= 0 ? l.key() : r.key();
      const Json* from = order <= 0 ? &l.value() : nullptr;
      const Json* to = order >= 0 ? &r.value() : nullptr;
      Descend(key);
      const FieldSet* below = nullptr;
      if (!SkipsElement(skip, path_.back(), &below)) CompareNode(from, to, below, out);
      Ascend();
      if (order <= 0) ++l;
      if (order >= 0) ++r;
    }
  }

  void CompareLists(const Json* a, const Json* b, const ListSchema& list, const FieldSet* skip,
                    Recorder* out) {
    if (skip == nullptr && a != nullptr && b != nullptr && SameKeysInOrder(*a, *b, list)) {
      // Items pair up by position: neither list needs an index by key, and an item equal to
      // its partner (most of them: a status write changes a condition or two) needs no path
      // element.
      for (std::size_t i = 0; i < a->size(); ++i) {
        const Json& item_before = (*a)[i];
        const Json& item_after = (*b)[i];
        if (item_before == item_after) continue;
        path_.push_back(*ListItemElement(list, item_after));
        CompareNode(&item_before, &item_after, nullptr, out);
        path_.pop_back();
      }
      return;
    }
    const auto before = FirstItems(a, list), after = FirstItems(b, list);
    const FieldSet* below = nullptr;
    for (const auto& [pe, item] : before) {
      if (SkipsElement(skip, pe, &below)) continue;
      auto it = after.find(pe);
      path_.push_back(pe);
      CompareNode(item, it == after.end() ? nullptr : it->second, below, out);
      path_.pop_back();
    }
    for (const auto& [pe, item] : after) {
      if (before.count(pe) > 0 || SkipsElement(skip, pe, &below)) continue;
      path_.push_back(pe);
      CompareNode(nullptr, item, below, out);
      path_.pop_back();
    }
  }

  Json MergeItem(const PathElement& pe, const Json* live, const Json* config) {
    path_.push_back(pe);
    std::optional<Json> merged = MergeNode(live, config);
    path_.pop_back();
    return merged.value_or(Json());
  }

  // Config items in config order; each live-only item stays after the live item it followed.
  // Live items that config also has are emitted when config reaches them (sigs.k8s.io
  // structured-merge-diff merge.go, visitListItems).
  Json MergeLists(const Json* live, const Json* config, const ListSchema& list) {
    IndexedItems lhs = Index(live, list), rhs = Index(config, list);
    std::vector<Item> rhs_order;
    for (const Item& item : rhs.order) {
      if (rhs.first.at(item.pe) == item.value) rhs_order.push_back(item);  // first occurrences
    }
    std::vector<PathElement> shared;
    for (const Item& item : rhs_order) {
      if (lhs.first.count(item.pe) > 0) shared.push_back(item.pe);
    }
    std::size_t next_shared = 0;
    auto is_next_shared = [&](const PathElement& pe) {
      return next_shared < shared.size() && shared[next_shared] == pe;
    };
    std::set<PathElement> merged_rhs;
    Json out = Json::array();
    std::size_t li = 0, ri = 0;
    while (li < lhs.order.size() || ri < rhs_order.size()) {
      if (li < lhs.order.size() && ri < rhs_order.size()) {
        const PathElement& pe = lhs.order[li].pe;
        if (pe == rhs_order[ri].pe) {
          merged_rhs.insert(pe);
          out.push_back(MergeItem(pe, lhs.order[li].value, rhs_order[ri].value));
          ++li, ++ri, ++next_shared;
          continue;
        }
        if (rhs.first.count(pe) > 0 && next_shared < shared.size() && !is_next_shared(pe)) {
          ++li;  // a shared item, but not the one due now: config's order places it
          continue;
        }
      }
      if (li < lhs.order.size()) {
        const PathElement& pe = lhs.order[li].pe;
        if (rhs.first.count(pe) == 0) {
          out.push_back(*lhs.order[li].value);
          ++li;
          continue;
        }
        if (merged_rhs.count(pe) > 0) {
          ++li;
          continue;
        }
      }
      if (ri < rhs_order.size()) {
        const PathElement& pe = rhs_order[ri].pe;
        merged_rhs.insert(pe);
        auto live_item = lhs.first.find(pe);
        out.push_back(MergeItem(pe, live_item == lhs.first.end() ? nullptr : live_item->second,
                                rhs_order[ri].value));
        ++ri;
        if (is_next_shared(pe)) ++next_shared;
      }
    }
    return out;
  }

  const ListTypeProvider& provider_;
  SchemaPath schema_path_;
  Path path_;
};

}  // namespace

Comparison Comparison::Excluding(const FieldSet& ignored) const {
  return {added.RecursiveDifference(ignored), removed.RecursiveDifference(ignored),
          modified.RecursiveDifference(ignored)};
}

FieldSet ToFieldSet(const Json& value, const ListTypeProvider& provider) {
  FieldSet out;
  FieldSet::Inserter inserter(&out);
  Walker(provider).CollectFields(value, &inserter);
  return out;
}

Comparison Compare(const Json& before, const Json& after, const ListTypeProvider& provider,
                   const FieldSet* skip) {
  Comparison out;
  Recorder recorder(&out);
  Walker(provider).CompareNode(&before, &after, skip, &recorder);
  return out;
}

Json AddedFieldsV1(const Json& after, const ListTypeProvider& provider, const FieldSet* skip,
                   const FieldSet* strip) {
  Json out = Json::object();
  if (after.is_object()) {
    Walker(provider).AddedInto(after, skip, strip, &out.get_ref<Json::object_t&>());
  }
  return out;
}

Json Merge(const Json& live, const Json& config, const ListTypeProvider& provider) {
  return Walker(provider).MergeNode(&live, &config).value_or(Json());
}

Json RemoveItems(const Json& value, const FieldSet& paths, const ListTypeProvider& provider) {
  std::optional<Json> kept = Walker(provider).Remove(value, paths);
  if (kept.has_value()) return *kept;
  return value.is_array() ? Json::array() : Json::object();
}

}  // namespace lws::apiserver
