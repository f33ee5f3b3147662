#include "scenario/rollout_checker.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "api/lws_types.h"
#include "api/revision.h"
#include "api/rollout_annotations.h"
#include "client/resource.h"
#include "scenario/json_reads.h"

namespace lws::scenario {

namespace {

using api::Json;

using json_reads::ConditionStatus;
using json_reads::Deleting;
using json_reads::Label;
using json_reads::PodReady;
using json_reads::WorkersReady;

int GroupIndex(const Json& object) {
  std::string text = Label(object, api::kGroupIndexLabel);
  if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos) return -1;
  return std::stoi(text);
}

}  // namespace

std::optional<std::uint64_t> CheckerBase::Changed() {
  const std::uint64_t rv = client_->store()->CurrentResourceVersion();
  if (rv == seen_rv_) return std::nullopt;
  seen_rv_ = rv;
  return rv;
}

api::Json CheckerBase::Stored(const client::Resource& resource, const std::string& name) const {
  auto got = client_->Get(resource, "default", name);
  return got.ok() && *got ? (*got)->document() : api::Json();
}

std::vector<store::ObjectPtr> CheckerBase::OfLws(const client::Resource& resource) const {
  store::ListOptions options;
  options.namespace_ = "default";
  options.label_selector = api::Selector::FromSet({{api::kSetNameLabel, name_}});
  auto listed = client_->List(resource, options);
  return listed.ok() ? std::move(listed->items) : std::vector<store::ObjectPtr>{};
}

std::vector<std::string> CheckerBase::LwsRevisionKeys() const {
  std::vector<std::string> keys;
  for (const store::ObjectPtr& r : OfLws(client::kControllerRevisions)) {
    for (const Json& owner : r->document()["metadata"].value("ownerReferences", Json::array())) {
      if (owner.value("kind", "") == api::kLwsKind && owner.value("controller", false)) {
        keys.push_back(Label(r->document(), api::kRevisionLabel));
      }
    }
  }
  std::sort(keys.begin(), keys.end());
  return keys;
}

void CheckerBase::CheckRevisionKeys(std::uint64_t rv, const std::vector<std::string>& keys) {
  auto twice = std::adjacent_find(keys.begin(), keys.end());
  if (twice != keys.end()) {
    Violation(
        fmt::format("rv {}: two ControllerRevisions of template-revision-hash {}", rv, *twice));
  }
}

void CheckerBase::Violation(const std::string& what) {
  if (violations_.size() < 20) violations_.push_back(what);
}

void CheckerBase::CheckFloor(std::uint64_t rv, int ready, bool available, int unready_surge) {
  if (available) was_available_ = true;
  if (!rolling_ || !was_available_ || faults_) return;
  min_ready_ = std::min(min_ready_, ready);
  if (ready + unready_surge < limits_.replicas - limits_.max_unavailable - limits_.floor_slack) {
    Violation(
        fmt::format("rv {}: {} ready groups (+{} starting surge groups) < replicas {} - "
                    "maxUnavailable {}",
                    rv, ready, unready_surge, limits_.replicas, limits_.max_unavailable));
  }
}

std::string CheckerBase::CurrentTemplate(const api::Json& lws, const std::string& leaders_key) {
  Result<api::LeaderWorkerSet> decoded = api::Decode<api::LeaderWorkerSet>(lws);
  if (!decoded.ok()) return "the LWS does not decode: " + decoded.status().message();
  const std::string want = api::RevisionHash(api::PatchBytes(api::RevisionPatch(*decoded)));
  if (leaders_key == want) return "";
  return fmt::format("the leaders run revision {}, the LWS's template is {}", leaders_key, want);
}

void RolloutChecker::SpecChanged(const RolloutLimits& limits) {
  limits_ = limits;
  rise_allowed_ = true;
}

RolloutChecker::View RolloutChecker::Read() const {
  View view;
  view.lws = Stored(client::kLeaderWorkerSets, name_);
  view.sts = Stored(client::kStatefulSets, name_);
  view.revision_keys = LwsRevisionKeys();
  const std::vector<store::ObjectPtr> pods = OfLws(client::kPods);
  const std::vector<store::ObjectPtr> sets = OfLws(client::kStatefulSets);
  auto group = [&](int index) -> Group& {
    if (static_cast<int>(view.groups.size()) <= index) view.groups.resize(index + 1);
    return view.groups[index];
  };
  const std::string leader_prefix = name_ + "-";
  std::map<int, bool> workers_ready;  // by group index, for groups with a worker StatefulSet
  for (const store::ObjectPtr& s : sets) {
    int index = GroupIndex(s->document());
    if (index < 0 ||
        s->document()["metadata"].value("name", "") != leader_prefix + std::to_string(index)) {
      continue;  // the leader StatefulSet, or a stranger
    }
    group(index).revisions.push_back(Label(s->document(), api::kRevisionLabel));
    workers_ready[index] = WorkersReady(s->document());
  }
  const int size =
      view.lws.is_null() ? 1 : view.lws["spec"]["leaderWorkerTemplate"].value("size", 1);
  for (const store::ObjectPtr& p : pods) {
    int index = GroupIndex(p->document());
    if (index < 0) continue;
    Group& g = group(index);
    const bool deleting = Deleting(p->document());
    if (Label(p->document(), api::kWorkerIndexLabel) == "0") {
      g.exists = true;
      g.deleting = deleting;
      g.ready = PodReady(p->document()) && !deleting &&
                (size == 1 || (workers_ready.count(index) && workers_ready[index]));
      g.revisions.push_back(Label(p->document(), api::kRevisionLabel));
    } else if (!deleting) {
      g.revisions.push_back(Label(p->document(), api::kRevisionLabel));
    }
  }
  if (!view.lws.is_null()) {
    view.available = ConditionStatus(view.lws, "Available") == "True";
    view.update_in_progress = ConditionStatus(view.lws, "UpdateInProgress") == "True";
  }
  return view;
}

void RolloutChecker::Check() {
  const std::optional<std::uint64_t> changed = Changed();
  if (!changed) return;
  const std::uint64_t rv = *changed;
  View view = Read();
  if (view.lws.is_null()) return;
  CheckRevisionKeys(rv, view.revision_keys);
  if (!view.sts.is_null()) {
    const int replicas = view.sts["spec"].value("replicas", 1);
    most_groups_ = std::max(most_groups_, replicas);
    const int limit = limits_.replicas + std::min(limits_.max_surge, limits_.replicas);
    if (replicas > limit) {
      Violation(fmt::format("rv {}: leader StatefulSet replicas {} > replicas + maxSurge = {}", rv,
                            replicas, limit));
    }
    const Json& rolling = view.sts["spec"]
                              .value("updateStrategy", Json::object())
                              .value("rollingUpdate", Json::object());
    const std::int64_t partition = rolling.value("partition", 0);
    if (last_partition_ >= 0 && partition > last_partition_ && !rise_allowed_) {
      Violation(fmt::format("rv {}: partition rose from {} to {} without a spec change", rv,
                            last_partition_, partition));
    }
    if (last_partition_ >= 0 && partition > last_partition_) rise_allowed_ = false;
    last_partition_ = partition;
  }
  int ready = 0;
  int unready_surge = 0;  // surge groups the leader StatefulSet keeps, not ready yet
  const int replicas = view.lws["spec"].value("replicas", 1);
  const int kept = view.sts.is_null() ? 0 : view.sts["spec"].value("replicas", 1);
  for (std::size_t i = 0; i < view.groups.size(); ++i) {
    const Group& g = view.groups[i];
    const int index = static_cast<int>(i);
    unready_surge += !g.ready && index >= replicas && index < kept;
    if (!g.ready) continue;
    ++ready;
    for (const std::string& r : g.revisions) {
      if (r != g.revisions.front()) {
        Violation(fmt::format("rv {}: ready group {} mixes revisions {} and {}", rv, i,
                              g.revisions.front(), r));
        break;
      }
    }
  }
  CheckFloor(rv, ready, view.available, unready_surge);
}

bool RolloutChecker::Converged(std::string* why) {
  View view = Read();
  auto fail = [&](std::string reason) {
    *why = std::move(reason);
    return false;
  };
  if (view.lws.is_null() || view.sts.is_null()) return fail("no LWS or leader StatefulSet");
  const Json& config =
      view.lws["spec"]["rolloutStrategy"].value("rollingUpdateConfiguration", Json::object());
  const int want_partition = config.value("partition", 0);
  const int replicas = view.lws["spec"].value("replicas", 1);
  const int partition = view.sts["spec"]
                            .value("updateStrategy", Json::object())
                            .value("rollingUpdate", Json::object())
                            .value("partition", 0);
  if (partition != want_partition)
    return fail(fmt::format("partition {} != {}", partition, want_partition));
  if (!view.available) return fail("not Available");
  if (view.update_in_progress) return fail("UpdateInProgress");
  const std::string key = Label(view.sts, api::kRevisionLabel);
  if (std::string stale = CurrentTemplate(view.lws, key); !stale.empty()) return fail(stale);
  // Groups below the partition stay old, and upstream counts them as unready when it sizes the
  // surge (spec 11.7, Q18): with a partition and maxSurge, surge groups stay until the partition
  // is lowered. Without a partition this is spec.replicas.
  int unready = 0;
  for (int i = 0; i < replicas; ++i) {
    bool done = i < static_cast<int>(view.groups.size()) && view.groups[i].ready;
    if (done) {
      for (const std::string& r : view.groups[i].revisions) done = done && r == key;
    }
    if (!done) ++unready;
  }
  // With the opt-in surge fallback in force for this revision (docs/scarcity.md), the rollout
  // sizes the surge from the settings it recorded on the LWS.
  int max_surge = limits_.max_surge;
  int max_unavailable = limits_.max_unavailable;
  api::ObjectMeta meta;
  const Json& annotations = view.lws["metadata"].value("annotations", Json::object());
  if (auto it = annotations.find(api::kSurgeFallbackAnnotation);
      it != annotations.end() && it->is_string()) {
    meta.annotations[api::kSurgeFallbackAnnotation] = it->get<std::string>();
  }
  if (auto fallback = api::ReadSurgeFallbackState(meta); fallback && fallback->revision == key) {
    max_surge = std::min(max_surge, fallback->max_surge);
    max_unavailable = fallback->max_unavailable;
  }
  const int surge = std::min(max_surge, replicas);
  const int want_replicas =
      unready <= surge ? replicas + std::max(0, unready - max_unavailable) : replicas + surge;
  const int sts_replicas = view.sts["spec"].value("replicas", 1);
  if (sts_replicas != want_replicas) {
    return fail(
        fmt::format("leader StatefulSet replicas {} != {} ({} groups below the partition unready)",
                    sts_replicas, want_replicas, unready));
  }
  for (int i = want_partition; i < replicas; ++i) {
    if (i >= static_cast<int>(view.groups.size()) || !view.groups[i].ready) {
      return fail(fmt::format("group {} not ready", i));
    }
    for (const std::string& r : view.groups[i].revisions) {
      if (r != key) return fail(fmt::format("group {} not updated", i));
    }
  }
  if (want_partition == 0 && view.revision_keys.size() != 1) {
    return fail(fmt::format("{} revisions kept", view.revision_keys.size()));
  }
  rolling_ = false;
  return true;
}

}  // namespace lws::scenario
