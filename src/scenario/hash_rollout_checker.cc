// File: scenario/hash_rollout_checker.cc
#include "scenario/hash_rollout_checker.h"

#include <fmt/format.h>

#include "api/group_identity.h"
#include "api/lws_types.h"
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

bool Gated(const Json& pod) {
  for (const Json& gate : pod["spec"].value("schedulingGates", Json::array())) {
    if (gate.value("name", "") == api::kGroupReplacementGate) return true;
  }
  return false;
}

std::string ControllerUid(const Json& object) {
  for (const Json& owner : object["metadata"].value("ownerReferences", Json::array())) {
    if (owner.value("controller", false)) return owner.value("uid", "");
  }
  return "";
}

}  // namespace

HashRolloutChecker::View HashRolloutChecker::Read() const {
  View view;
  view.lws = Stored(client::kLeaderWorkerSets, name_);
  view.deployment = Stored(client::kDeployments, name_);
  view.revision_keys = LwsRevisionKeys();
  std::map<std::string, const Json*> worker_sets;  // by name
  const std::vector<store::ObjectPtr> sets = OfLws(client::kStatefulSets);
  for (const store::ObjectPtr& s : sets) {
    worker_sets[s->document()["metadata"].value("name", "")] = &s->document();
  }
  const int size =
      view.lws.is_null() ? 1 : view.lws["spec"]["leaderWorkerTemplate"].value("size", 1);
  std::map<std::string, std::string> hostnames;  // live leaders' hostname -> leader
  for (const store::ObjectPtr& p : OfLws(client::kPods)) {
    const Json& pod = p->document();
    Group& g = view.groups[Label(pod, api::kGroupIndexLabel)];
    if (Label(pod, api::kWorkerIndexLabel) != "0") {
      if (!Deleting(pod)) g.revisions.push_back(Label(pod, api::kRevisionLabel));
      continue;
    }
    if (Deleting(pod)) continue;
    g.leader = pod["metadata"].value("name", "");
    g.hostname = pod["spec"].value("hostname", "");
    g.gated = Gated(pod);
    g.phase = pod.value("status", Json::object()).value("phase", "");
    g.revisions.push_back(Label(pod, api::kRevisionLabel));
    bool workers_ready = size == 1;
    if (auto it = worker_sets.find(g.hostname); it != worker_sets.end() && size > 1) {
      if (ControllerUid(*it->second) != pod["metadata"].value("uid", "")) {
        view.problems.push_back(fmt::format("worker StatefulSet {} is not controlled by leader {}",
                                            g.hostname, g.leader));
      } else {
        workers_ready = WorkersReady(*it->second);
        g.revisions.push_back(Label(*it->second, api::kRevisionLabel));
      }
    }
    g.ready = PodReady(pod) && workers_ready;
    if (auto [it, fresh] = hostnames.emplace(g.hostname, g.leader); !fresh) {
      view.problems.push_back(
          fmt::format("leaders {} and {} share hostname {}", it->second, g.leader, g.hostname));
    }
  }
  if (!view.lws.is_null()) {
    view.available = ConditionStatus(view.lws, "Available") == "True";
    view.update_in_progress = ConditionStatus(view.lws, "UpdateInProgress") == "True";
  }
  return view;
}

void HashRolloutChecker::Check() {
  const std::optional<std::uint64_t> changed = Changed();
  if (!changed) return;
  const std::uint64_t rv = *changed;
  const View view = Read();
  if (view.lws.is_null()) return;
  CheckRevisionKeys(rv, view.revision_keys);
  for (const std::string& problem : view.problems) {
    Violation(fmt::format("rv {}: {}", rv, problem));
  }
  int live = 0;
  int ready = 0;
  for (const auto& [key, g] : view.groups) {
    if (g.leader.empty()) continue;
    ++live;
    if (!g.ready) continue;
    ++ready;
    for (const std::string& r : g.revisions) {
      if (r != g.revisions.front()) {
        Violation(fmt::format("rv {}: ready group {} mixes revisions {} and {}", rv, key,
                              g.revisions.front(), r));
        break;
      }
    }
  }
  most_groups_ = std::max(most_groups_, live);
  if (live > limits_.replicas + limits_.max_surge) {
    Violation(fmt::format("rv {}: {} live leaders > replicas {} + maxSurge {}", rv, live,
                          limits_.replicas, limits_.max_surge));
  }
  CheckFloor(rv, ready, view.available);
}

bool HashRolloutChecker::Converged(std::string* why) {
  const View view = Read();
  auto fail = [&](std::string reason) {
    *why = std::move(reason);
    return false;
  };
  if (view.lws.is_null() || view.deployment.is_null()) return fail("no LWS or leader Deployment");
  const int replicas = view.lws["spec"].value("replicas", 1);
  const int asked = view.deployment["spec"].value("replicas", 1);
  if (asked != replicas) return fail(fmt::format("Deployment replicas {} != {}", asked, replicas));
  const std::string key = Label(view.deployment["spec"]["template"], api::kRevisionLabel);
  if (std::string stale = CurrentTemplate(view.lws, key); !stale.empty()) return fail(stale);
  int live = 0;
  for (const auto& [group, g] : view.groups) {
    if (g.leader.empty()) return fail(fmt::format("group {} still tearing down", group));
    ++live;
    if (g.gated) return fail(fmt::format("leader {} gated", g.leader));
    if (g.phase == "Failed" || g.phase == "Succeeded") {
      return fail(fmt::format("group {}: leader {} is {} and lingers with its workers", group,
                              g.leader, g.phase));
    }
    if (!g.ready) return fail(fmt::format("group {} not ready", group));
    for (const std::string& r : g.revisions) {
      if (r != key) return fail(fmt::format("group {} not updated", group));
    }
  }
  if (live != replicas) return fail(fmt::format("{} live leaders != {}", live, replicas));
  if (!view.available) return fail("not Available");
  if (view.update_in_progress) return fail("UpdateInProgress");
  if (view.revision_keys.size() != 1) {
    return fail(fmt::format("{} revisions kept", view.revision_keys.size()));
  }
  rolling_ = false;
  return true;
}

}  // namespace lws::scenario
