#include "controllers/lws/applied_leader_sets.h"

#include <algorithm>
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "api/field.h"
#include "api/identical_json.h"

namespace lws::controllers {

namespace {

using api::IdenticalJson;
using api::Json;

// Whether objects `a` and `b` have the same members apart from the `ignored` ones, each pair
// compared by `same(key, a_value, b_value)`.
template <class Same>
bool SameMembers(const Json& a, const Json& b, std::initializer_list<std::string_view> ignored,
                 Same same) {
  if (!a.is_object() || !b.is_object()) return false;
  const auto counted = [&ignored](const std::string& key) {
    return std::find(ignored.begin(), ignored.end(), key) == ignored.end();
  };
  std::size_t compared = 0;
  for (const auto& [key, value] : a.get_ref<const Json::object_t&>()) {
    if (!counted(key)) continue;
    auto it = b.find(key);
    if (it == b.end() || !same(key, value, *it)) return false;
    ++compared;
  }
  const auto& members = b.get_ref<const Json::object_t&>();
  return compared == static_cast<std::size_t>(std::count_if(
                         members.begin(), members.end(),
                         [&counted](const auto& member) { return counted(member.first); }));
}

// Whether a managedFields entry is the main resource's (no subresource).
bool IsMainEntry(const Json& entry) {
  const Json* sub = entry.is_object() ? &api::ChildOrNull(entry, "subresource") : nullptr;
  return sub == nullptr || sub->is_null() ||
         (sub->is_string() && sub->get_ref<const std::string&>().empty());
}

// managedFields entries of the main resource, in order.
std::vector<const Json*> MainEntries(const Json& entries) {
  std::vector<const Json*> out;
  for (const Json& entry : entries) {
    if (IsMainEntry(entry)) out.push_back(&entry);
  }
  return out;
}
std::vector<const Json*> MainEntries(const store::ManagedEntries& entries) {
  std::vector<const Json*> out;
  for (const store::ManagedEntry& entry : entries) {
    if (IsMainEntry(*entry)) out.push_back(entry.get());
  }
  return out;
}

bool SameEntries(const std::vector<const Json*>& a, const std::vector<const Json*>& b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(),
                    [](const Json* x, const Json* y) { return x == y || IdenticalJson(*x, *y); });
}

bool SameMainEntries(const Json& a, const Json& b) {
  if (!a.is_array() || !b.is_array()) return IdenticalJson(a, b);
  return SameEntries(MainEntries(a), MainEntries(b));
}

bool SameMetadata(const Json& a, const Json& b) {
  return SameMembers(a, b, {"resourceVersion"},
                     [](const std::string& key, const Json& x, const Json& y) {
                       return key == "managedFields" ? SameMainEntries(x, y) : IdenticalJson(x, y);
                     });
}

}  // namespace

bool SameOutsideStatus(const Json& a, const Json& b) {
  return SameMembers(a, b, {"status"}, [](const std::string& key, const Json& x, const Json& y) {
    return key == "metadata" ? SameMetadata(x, y) : IdenticalJson(x, y);
  });
}

bool AppliedLeaderSets::Unchanged(const runtime::Key& key, const Json& config,
                                  const store::StoredObject* live) const {
  if (live == nullptr) return false;
  MutexLock lock(&mu_);
  auto it = applied_.find(key);
  // The store keeps the entries apart from the object (an answer read over HTTP holds them).
  return it != applied_.end() && IdenticalJson(it->second.config, config) &&
         SameOutsideStatus(it->second.answered->document(), live->document()) &&
         SameEntries(MainEntries(it->second.answered->managed_fields()),
                     MainEntries(live->managed_fields()));
}

void AppliedLeaderSets::Remember(const runtime::Key& key, Json config, store::ObjectPtr answered) {
  MutexLock lock(&mu_);
  if (answered == nullptr) {
    applied_.erase(key);
    return;
  }
  applied_[key] = Applied{std::move(config), std::move(answered)};
}

void AppliedLeaderSets::Forget(const runtime::Key& key) {
  MutexLock lock(&mu_);
  applied_.erase(key);
}

}  // namespace lws::controllers
