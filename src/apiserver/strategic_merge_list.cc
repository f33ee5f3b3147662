// The list half of the strategic merge patch: merging lists by merge key or as sets, the
// $patch directives inside lists, $deleteFromPrimitiveList, and the element ordering of
// $setElementOrder. Each function mirrors the strategicpatch function named in its comment.
#include <string>
#include <utility>
#include <vector>

#include "apiserver/patch_go.h"
#include "apiserver/strategic_merge_internal.h"

namespace lws::apiserver::internal {

namespace {

using List = std::vector<Json>;

List ToList(Json v) {
  List out;
  out.reserve(v.size());
  for (Json& e : v) out.push_back(std::move(e));
  return out;
}

Json FromList(List items) {
  Json out = Json::array();
  for (Json& e : items) out.push_back(std::move(e));
  return out;
}

// Go slices share backing arrays, and upstream reads the live list again, through a slice header
// of its original length, after mergeSlice changed it in place: deletions shifted the elements
// left (leaving stale copies at the end) and the first appends filled the freed tail. That view
// is the "live order" $setElementOrder interleaves server-only items by, so it is tracked here.
struct AliasedView {
  List items;           // the backing array, as far as the original header reaches
  std::size_t len = 0;  // the length of mergeSlice's own header

  void Erase(std::size_t k) {
    for (std::size_t i = k; i + 1 < len; ++i) items[i] = items[i + 1];
    --len;
  }
  void Append(const Json& v) {
    if (len < items.size()) items[len] = v;
    ++len;
  }
};

// sliceElementType: the common Go kind of the elements of `lists`.
Result<GoKind> SliceElementKind(const std::vector<const List*>& lists) {
  bool found = false;
  GoKind prev = GoKind::kNil;
  for (const List* list : lists) {
    for (const Json& v : *list) {
      GoKind cur = KindOf(v);
      if (!found) {
        found = true;
        prev = cur;
        if (cur == GoKind::kNil) throw GoPanic{"reflect: call of reflect.Type.Kind on nil type"};
        if (cur == GoKind::kSlice) return SmpNoListOfLists();
      } else if (prev != cur) {
        std::string all = "[";
        for (std::size_t i = 0; i < lists.size(); ++i) {
          all += (i > 0 ? " " : "") + GoSprintV(FromList(*lists[i]));
        }
        return SmpInternal("list element types are not identical: " + all + "]");
      }
    }
  }
  if (!found) return SmpInternal("no elements in any of the given slices");
  return prev;
}

// The merge key value of a list item (index's getValFn): nil for non-maps and missing keys.
Json KeyValue(const Json& item, std::string_view key, GoKind kind) {
  if (kind != GoKind::kMap) return item;
  if (!item.is_object()) return nullptr;
  auto it = item.find(key);
  return it == item.end() ? Json() : *it;
}

// index.
int IndexOf(const List& list, const Json& item, std::string_view key, GoKind kind) {
  const Json wanted = KeyValue(item, key, kind);
  for (std::size_t i = 0; i < list.size(); ++i) {
    if (GoEqual(wanted, KeyValue(list[i], key, kind))) return static_cast<int>(i);
  }
  return -1;
}

bool IsDeleteItem(const Json& item) {
  auto it = item.find(kPatchDirective);
  return it != item.end() && *it == "delete";
}

// findMapInSliceBasedOnKeyValue: the index of the first map whose `key` equals `value`.
Result<int> FindByKey(const List& list, std::string_view key, const Json& value) {
  for (std::size_t i = 0; i < list.size(); ++i) {
    if (!list[i].is_object())
      return SmpInternal("value for key " + std::to_string(i) + " is not a map");
    auto it = list[i].find(key);
    if (it != list[i].end() && GoEqual(*it, value)) return static_cast<int>(i);
  }
  return -1;
}

// validateMergeKeyInLists.
Status CheckMergeKeys(std::string_view key, const List& a, const List& b) {
  for (const List* list : {&a, &b}) {
    for (const Json& item : *list) {
      if (!item.is_object()) return SmpInternal(ErrBadArgType("map[string]interface {}", item));
      if (!item.contains(key)) return SmpInternal(ErrNoMergeKey(item, key));
    }
  }
  return Status::Ok();
}

// normalizeSliceOrder: `to_sort` ordered by `order` (items $patch: delete go last).
Result<List> NormalizeSliceOrder(List to_sort, const List& order, std::string_view key,
                                 GoKind kind) {
  List to_delete;
  if (kind == GoKind::kMap) {
    RETURN_IF_ERROR(CheckMergeKeys(key, to_sort, order));
    List keep;
    for (Json& item : to_sort) (IsDeleteItem(item) ? to_delete : keep).push_back(std::move(item));
    to_sort = std::move(keep);
  }
  // Upstream's less answers true whenever either item is missing from `order`.
  GoSliceStable(to_sort, [&](const Json& a, const Json& b) {
    int ia = IndexOf(order, a, key, kind);
    if (ia < 0) return true;
    int ib = IndexOf(order, b, key, kind);
    return ib < 0 || ia < ib;
  });
  for (Json& item : to_delete) to_sort.push_back(std::move(item));
  return to_sort;
}

// mergeSortedSlice: interleaves the server-only items into the patch items, following their
// positions in the live list where both are known.
List MergeSortedSlices(List left, List right, const List& server_order, std::string_view key,
                       GoKind kind) {
  List out;
  std::size_t i = 0, j = 0;
  while (i < left.size() || j < right.size()) {
    bool take_left = j >= right.size();
    if (i < left.size() && j < right.size()) {
      int li = IndexOf(server_order, left[i], key, kind);
      int ri = IndexOf(server_order, right[j], key, kind);
      take_left = li >= 0 && ri >= 0 && li < ri;
    }
    out.push_back(std::move(take_left ? left[i++] : right[j++]));
  }
  return out;
}

// normalizeElementOrder.
Result<List> NormalizeElementOrder(List patch_items, List server_only, const List& patch_order,
                                   const List& server_order, std::string_view key, GoKind kind) {
  ASSIGN_OR_RETURN(List patch_sorted,
                   NormalizeSliceOrder(std::move(patch_items), patch_order, key, kind));
  ASSIGN_OR_RETURN(List server_sorted,
                   NormalizeSliceOrder(std::move(server_only), server_order, key, kind));
  return MergeSortedSlices(std::move(server_sorted), std::move(patch_sorted), server_order, key,
                           kind);
}

// partitionPrimitivesByPresentInList / partitionMapsByPresentInList: (items in `by`, others).
Result<std::pair<List, List>> Partition(List merged, const List& by, std::string_view key) {
  std::pair<List, List> out;
  if (key.empty()) {
    for (const Json& b : by) RequireHashable(b);  // `by` becomes the keys of a Go map
  }
  for (Json& item : merged) {
    bool present = false;
    if (key.empty()) {
      RequireHashable(item);
      for (const Json& b : by) present = present || GoEqual(item, b);
    } else {
      if (!item.is_object()) return SmpInternal(ErrBadArgType("map[string]interface {}", item));
      auto it = item.find(key);
      if (it == item.end()) return SmpInternal(ErrNoMergeKey(item, key));
      ASSIGN_OR_RETURN(int index, FindByKey(by, key, *it));
      present = index >= 0;
    }
    (present ? out.first : out.second).push_back(std::move(item));
  }
  return out;
}

// deduplicateScalars, with upstream's swap-with-last removal (it reorders).
List DeduplicateScalars(List s) {
  std::size_t length = s.size();
  for (std::size_t i = 0; i + 1 < length; ++i) {
    for (std::size_t j = i + 1; j < length; ++j) {
      if (GoEqual(s[i], s[j])) {
        s[j] = s[length - 1];
        --length;
        --j;
      }
    }
  }
  s.resize(length);
  return s;
}

// deleteFromSlice.
List DeleteFromSlice(List current, const List& to_delete) {
  for (const Json& d : to_delete) RequireHashable(d);
  List kept;
  for (Json& v : current) {
    RequireHashable(v);
    bool found = false;
    for (const Json& d : to_delete) found = found || GoEqual(v, d);
    if (!found) kept.push_back(std::move(v));
  }
  return kept;
}

// mergeSliceWithSpecialElements: applies `$patch` items; returns the new (original, patch).
Result<std::pair<List, List>> ApplySpecialElements(List original, List patch, std::string_view key,
                                                   AliasedView* view) {
  List plain;
  bool replace = false;
  for (Json& item : patch) {
    auto directive = item.find(kPatchDirective);
    if (directive == item.end()) {
      plain.push_back(std::move(item));
    } else if (*directive == "delete") {
      auto value = item.find(key);
      if (value == item.end()) return SmpInternal(ErrNoMergeKey(item, key));
      for (;;) {
        ASSIGN_OR_RETURN(int index, FindByKey(original, key, *value));
        if (index < 0) break;
        original.erase(original.begin() + index);
        if (view != nullptr) view->Erase(static_cast<std::size_t>(index));
      }
    } else if (*directive == "replace") {
      replace = true;  // keep going: other $patch items are still dropped
    } else if (*directive == "merge") {
      return SmpInternal("merging lists cannot yet be specified in the patch");
    } else {
      return SmpInternal(ErrBadPatchType(*directive, item));
    }
  }
  if (replace) return std::pair<List, List>{std::move(plain), List{}};
  return std::pair<List, List>{std::move(original), std::move(plain)};
}

// mergeSliceWithoutSpecialElements: merges items with the same key, appends the others.
Result<List> MergeByKey(List original, const List& patch, std::string_view key,
                        const PatchSchema* item_schema, AliasedView* view) {
  for (const Json& item : patch) {
    auto value = item.find(key);
    if (value == item.end()) return SmpInternal(ErrNoMergeKey(item, key));
    ASSIGN_OR_RETURN(int index, FindByKey(original, key, *value));
    if (index >= 0) {
      ASSIGN_OR_RETURN(original[index], MergeMap(std::move(original[index]), item, item_schema));
    } else {
      original.push_back(item);
      if (view != nullptr) view->Append(item);
    }
  }
  return original;
}

// mergeSlice.
Result<List> MergeSlice(List original, List patch, const FieldPatchMeta& meta, bool is_delete_list,
                        AliasedView* view) {
  if (original.empty() && patch.empty()) return original;
  ASSIGN_OR_RETURN(GoKind kind, SliceElementKind({&original, &patch}));
  const std::string& key = meta.merge_key;
  List merged;
  if (kind != GoKind::kMap) {
    if (is_delete_list) return DeleteFromSlice(std::move(original), patch);
    merged = original;
    merged.insert(merged.end(), patch.begin(), patch.end());
    merged = DeduplicateScalars(std::move(merged));
  } else {
    if (key.empty()) {
      // Upstream names the element type; lists of primitives tagged merge hold strings.
      const char* name = meta.strategy == PatchStrategy::kMerge ? "string" : "struct";
      return SmpInternal(std::string("cannot merge lists without merge key for ") + name);
    }
    ASSIGN_OR_RETURN(auto lists,
                     ApplySpecialElements(std::move(original), std::move(patch), key, view));
    original = std::move(lists.first);
    patch = std::move(lists.second);
    ASSIGN_OR_RETURN(merged, MergeByKey(original, patch, key, meta.type, view));
  }
  ASSIGN_OR_RETURN(auto parts, Partition(std::move(merged), patch, key));
  return NormalizeElementOrder(std::move(parts.first), std::move(parts.second), patch, original,
                               key, kind);
}

// validatePatchWithSetOrderList: the patch items must appear in $setElementOrder's order.
Status ValidateOrder(const List& patch, const List& order, std::string_view key) {
  if (order.empty() || patch.empty()) return Status::Ok();
  List non_delete;
  for (const Json& item : patch) {
    if (key.empty()) {
      non_delete.push_back(item);
      continue;
    }
    if (!item.is_object()) return SmpInternal(ErrBadArgType("map[string]interface {}", item));
    if (!IsDeleteItem(item)) non_delete.push_back(item);
  }
  std::size_t p = 0, s = 0;
  while (p < non_delete.size() && s < order.size()) {
    const Json& item = non_delete[p];
    if (item.is_object() && item.contains(kPatchDirective)) {
      ++p;
      continue;
    }
    bool equal = false;
    if (key.empty()) {
      equal = GoEqual(item, order[s]);
    } else {
      for (const Json* m : {&item, &order[s]}) {
        if (!m->is_object()) return SmpInternal(ErrBadArgType("map[string]interface {}", *m));
        if (!m->contains(key)) return SmpInternal(ErrNoMergeKey(*m, key));
      }
      equal = GoEqual(item.at(std::string(key)), order[s].at(std::string(key)));
    }
    if (equal) ++p;
    ++s;
  }
  if (p < non_delete.size() && s >= order.size()) {
    return SmpInternal("The order in patch list:\n" + GoSprintV(FromList(patch)) +
                       "\n doesn't match $setElementOrder list:\n" + GoSprintV(FromList(order)) +
                       "\n");
  }
  return Status::Ok();
}

// One $setElementOrder/<list> directive of mergePatchIntoOriginal.
Status MergeOrderedList(Json& original, Json& patch, const std::string& directive_key,
                        const PatchSchema* schema) {
  Json order_json = std::move(patch[directive_key]);
  patch.erase(directive_key);
  if (!order_json.is_array()) return SmpInternal(ErrBadArgType("[]interface {}", order_json));
  ASSIGN_OR_RETURN(std::string key, ExtractKey(directive_key, kSetElementOrderPrefix));
  auto orig_it = original.find(key);
  auto patch_it = patch.find(key);
  const bool found_original = orig_it != original.end();
  const bool found_patch = patch_it != patch.end();
  if (found_original && !orig_it->is_array())
    return SmpInternal(ErrBadArgType("[]interface {}", *orig_it));
  if (found_patch && !patch_it->is_array())
    return SmpInternal(ErrBadArgType("[]interface {}", *patch_it));
  const FieldPatchMeta& meta = LookupField(schema, key);
  const List order = ToList(std::move(order_json));
  const List original_list = found_original ? ToList(*orig_it) : List{};
  const List patch_list = found_patch ? ToList(*patch_it) : List{};
  RETURN_IF_ERROR(ValidateOrder(patch_list, order, meta.merge_key));

  if (!found_original && !found_patch) return Status::Ok();
  AliasedView live{original_list, original_list.size()};
  List merged;
  if (!found_patch) {
    merged = original_list;
  } else if (!found_original) {
    Json cleaned = *patch_it;
    RemoveDirectives(cleaned);
    merged = ToList(std::move(cleaned));
  } else if (meta.strategy == PatchStrategy::kMerge) {  // mergeSliceHandler, aliasing tracked
    ASSIGN_OR_RETURN(merged, MergeSlice(original_list, patch_list, meta, false, &live));
  } else {
    merged = patch_list;
  }
  ASSIGN_OR_RETURN(auto parts, Partition(std::move(merged), order, meta.merge_key));
  ASSIGN_OR_RETURN(GoKind kind, SliceElementKind({&live.items, &patch_list}));
  ASSIGN_OR_RETURN(List result,
                   NormalizeElementOrder(std::move(parts.first), std::move(parts.second), order,
                                         live.items, meta.merge_key, kind));
  original[key] = FromList(std::move(result));
  patch.erase(key);
  return Status::Ok();
}

}  // namespace

Status MergeOrderedLists(Json& original, Json& patch, const PatchSchema* schema) {
  std::vector<std::string> directives;
  for (const auto& [key, value] : patch.items()) {
    if (key.starts_with(kSetElementOrderPrefix)) directives.push_back(key);
  }
  for (const std::string& key : directives) {
    if (!patch.contains(key)) continue;  // consumed as another directive's list
    RETURN_IF_ERROR(MergeOrderedList(original, patch, key, schema));
  }
  return Status::Ok();
}

Result<Json> MergeSliceHandler(Json original, Json patch, const FieldPatchMeta& meta,
                               bool is_delete_list) {
  if (meta.strategy != PatchStrategy::kMerge && !is_delete_list) return patch;
  ASSIGN_OR_RETURN(List merged, MergeSlice(ToList(std::move(original)), ToList(std::move(patch)),
                                           meta, is_delete_list, nullptr));
  return FromList(std::move(merged));
}

}  // namespace lws::apiserver::internal
