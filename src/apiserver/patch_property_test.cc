// Properties of the three patch types, checked on random documents.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "apiserver/patch.h"
#include "apiserver/strategic_merge.h"

namespace lws::apiserver {
namespace {

rc::Gen<std::string> Key() {
  return rc::gen::elementOf(
      std::vector<std::string>{"a", "b", "c", "d", "e", "f", "g", "h", "x/y", "m~n", "~1", ""});
}

rc::Gen<Json> Scalar() {
  return rc::gen::oneOf(rc::gen::map(rc::gen::arbitrary<bool>(), [](bool b) { return Json(b); }),
                        rc::gen::map(rc::gen::inRange(-3, 4), [](int v) { return Json(v); }),
                        rc::gen::map(rc::gen::elementOf(std::vector<double>{0.5, -2.25, 1e21}),
                                     [](double v) { return Json(v); }),
                        rc::gen::map(rc::gen::elementOf(std::vector<std::string>{"", "s", "t"}),
                                     [](std::string s) { return Json(std::move(s)); }));
}

// JSON values; `nulls` allows null object members (never nulls inside arrays).
rc::Gen<Json> Value(int depth, bool nulls) {
  auto leaf = nulls ? rc::gen::oneOf(Scalar(), rc::gen::just(Json())) : Scalar();
  if (depth == 0) return leaf;
  auto array = rc::gen::map(rc::gen::container<std::vector<Json>>(Value(depth - 1, false)),
                            [](std::vector<Json> v) { return Json(std::move(v)); });
  auto object =
      rc::gen::map(rc::gen::container<std::map<std::string, Json>>(Key(), Value(depth - 1, nulls)),
                   [](std::map<std::string, Json> m) { return Json(std::move(m)); });
  return rc::gen::oneOf(leaf, array, object, object);
}

rc::Gen<Json> Object(int depth, bool nulls) {
  return rc::gen::map(rc::gen::container<std::map<std::string, Json>>(Key(), Value(depth, nulls)),
                      [](std::map<std::string, Json> m) { return Json(std::move(m)); });
}

// The merge patch that turns `a` into `b` (both objects): RFC 7386's inverse.
Json MergeDiff(const Json& a, const Json& b) {
  Json patch = Json::object();
  for (const auto& [key, value] : b.items()) {
    auto it = a.find(key);
    if (it != a.end() && it->is_object() && value.is_object()) {
      Json sub = MergeDiff(*it, value);
      if (!sub.empty()) patch[key] = std::move(sub);
    } else if (it == a.end() || *it != value) {
      patch[key] = value;
    }
  }
  for (const auto& [key, value] : a.items()) {
    if (!b.contains(key)) patch[key] = nullptr;
  }
  return patch;
}

RC_GTEST_PROP(MergePatchProp, DiffThenApplyGivesTarget, ()) {
  const Json a = *rc::gen::resize(5, Object(3, false));
  const Json b = *rc::gen::resize(5, Object(3, false));
  auto got = ApplyMergePatch(a, MergeDiff(a, b));
  RC_ASSERT(got.ok());
  RC_ASSERT(*got == b);
}

// Without nulls inside arrays, evanphx's merge patch is RFC 7386 (nlohmann's merge_patch).
RC_GTEST_PROP(MergePatchProp, AgreesWithRfc7386WithoutNullsInArrays, ()) {
  const Json original = *rc::gen::resize(5, Object(3, true));
  const Json patch = *rc::gen::resize(5, Object(3, true));
  auto got = ApplyMergePatch(original, patch);
  RC_ASSERT(got.ok());
  Json want = original;
  want.merge_patch(patch);
  RC_ASSERT(*got == want);
}

RC_GTEST_PROP(JsonPatchProp, NlohmannDiffAppliesToTarget, ()) {
  const Json a = *rc::gen::resize(5, Object(3, true));
  const Json b = *rc::gen::resize(5, Object(3, true));
  const Json ops = Json::diff(a, b);
  auto got = ApplyJsonPatch(a, ops);
  RC_ASSERT(got.ok());
  RC_ASSERT(*got == b);
}

// Kinds whose only list metadata is in ObjectMeta patch other fields like a merge patch (when
// arrays hold no nulls: upstream copies lists verbatim where evanphx prunes them).
RC_GTEST_PROP(StrategicMergeProp, WithoutListsBehavesLikeMergePatch, ()) {
  const Json original = *rc::gen::resize(5, Object(3, true));
  const Json patch = *rc::gen::resize(5, Object(3, true));
  auto smp = ApplyStrategicMergePatch(original, patch, "ConfigMap");
  auto merge = ApplyMergePatch(original, patch);
  RC_ASSERT(smp.ok());
  RC_ASSERT(merge.ok());
  RC_ASSERT(*smp == *merge);
}

// kubectl apply's shape: $setElementOrder lists every wanted container, the list carries the
// new and changed ones in that order. The result has exactly that order and those images.
RC_GTEST_PROP(StrategicMergeProp, SetElementOrderGivesTheListedOrder, ()) {
  constexpr int kNames = 12;
  const auto live_mask = *rc::gen::container<std::vector<bool>>(kNames, rc::gen::arbitrary<bool>());
  const auto wanted_mask =
      *rc::gen::container<std::vector<bool>>(kNames, rc::gen::arbitrary<bool>());
  const auto changed_mask =
      *rc::gen::container<std::vector<bool>>(kNames, rc::gen::arbitrary<bool>());
  const auto rank = *rc::gen::container<std::vector<int>>(kNames, rc::gen::arbitrary<int>());
  std::set<int> live_names, changed;
  std::vector<int> order;  // the wanted names in a random order
  for (int n = 0; n < kNames; ++n) {
    if (live_mask[n]) live_names.insert(n);
    if (changed_mask[n]) changed.insert(n);
    if (wanted_mask[n]) order.push_back(n);
  }
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return rank[a] < rank[b]; });
  const std::set<int> wanted(order.begin(), order.end());
  // Upstream fails ("no elements in any of the given slices") when both lists are empty.
  RC_PRE(!order.empty() || !live_names.empty());

  Json pod = {{"spec", {{"containers", Json::array()}}}};
  for (int n : live_names) {
    pod["spec"]["containers"].push_back({{"name", "c" + std::to_string(n)}, {"image", "old"}});
  }
  Json set_order = Json::array(), list = Json::array();
  for (int n : order) {
    set_order.push_back({{"name", "c" + std::to_string(n)}});
    if (!live_names.contains(n) || changed.contains(n)) {
      list.push_back({{"name", "c" + std::to_string(n)}, {"image", "new"}});
    }
  }
  Json patch = {{"spec", {{"$setElementOrder/containers", set_order}, {"containers", list}}}};
  // Containers that are live but not wanted are deleted, as kubectl apply does.
  for (int n : live_names) {
    if (!wanted.contains(n)) {
      patch["spec"]["containers"].push_back(
          {{"name", "c" + std::to_string(n)}, {"$patch", "delete"}});
    }
  }
  auto got = ApplyStrategicMergePatch(pod, patch, "Pod");
  RC_ASSERT(got.ok());
  const Json& containers = got->at("/spec/containers"_json_pointer);
  RC_ASSERT(containers.size() == order.size());
  for (std::size_t i = 0; i < order.size(); ++i) {
    const int n = order[i];
    RC_ASSERT(containers[i]["name"] == "c" + std::to_string(n));
    const bool updated = !live_names.contains(n) || changed.contains(n);
    RC_ASSERT(containers[i]["image"] == (updated ? "new" : "old"));
  }
}

}  // namespace
}  // namespace lws::apiserver
