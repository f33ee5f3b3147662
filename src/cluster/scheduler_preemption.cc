#include "cluster/scheduler_preemption.h"

#include <algorithm>
#include <limits>
#include <optional>

namespace lws::cluster {

namespace {

using scheduler::FilterStatus;

constexpr std::string_view kPreemptionNotHelpful = "Preemption is not helpful for scheduling";
constexpr std::string_view kNoVictims = "No preemption victims found for incoming pod";

std::string NominatedNode(const api::Pod& pod) {
  if (!pod.status.rest.is_object()) return "";
  auto it = pod.status.rest.find("nominatedNodeName");
  return it != pod.status.rest.end() && it->is_string() ? it->get<std::string>() : "";
}

// Deleted by the scheduler to make room (upstream podTerminatingByPreemption).
bool TerminatingByPreemption(const api::Pod& pod) {
  if (!pod.metadata.IsDeleting()) return false;
  for (const api::PodCondition& c : pod.status.conditions) {
    if (c.type == "DisruptionTarget" && c.status == "True" && c.reason == "PreemptionByScheduler") {
      return true;
    }
  }
  return false;
}

// upstream util.MoreImportantPod: higher priority, then the earlier start ("" is now: latest).
bool MoreImportant(const api::Pod* a, const api::Pod* b) {
  const std::int32_t pa = PodPriority(*a), pb = PodPriority(*b);
  if (pa != pb) return pa > pb;
  const std::string& sa = a->status.start_time;
  const std::string& sb = b->status.start_time;
  if (sa.empty() || sb.empty()) return !sa.empty() && sb.empty();
  return sa < sb;
}

struct NodeVictims {
  std::vector<const api::Pod*> victims;  // the most important first
  std::optional<FilterStatus> failure;   // set when the node is no candidate
};

// upstream SelectVictimsOnNode, without PodDisruptionBudgets.
NodeVictims SelectVictimsOnNode(const api::Pod& pod, const NodeInfo& info,
                                const scheduler::ResourceRequest& request,
                                const scheduler::InterPodAffinity& inter_pod) {
  const std::int32_t priority = PodPriority(pod);
  std::optional<NodeTotals> scratch;
  NodeInfo trial{info.node, {}, scheduler::TotalsOf(info, scratch)};
  std::vector<const api::Pod*> potential;
  for (const api::Pod* p : info.pods) {
    if (PodPriority(*p) < priority) {
      potential.push_back(p);
      scheduler::CountPod(*trial.totals, p, -1);
    } else {
      trial.pods.push_back(p);
    }
  }
  NodeVictims out;
  if (potential.empty()) {
    out.failure = FilterStatus{{std::string(kNoVictims)}, false};
    return out;
  }
  if (FilterStatus s = scheduler::RunFilters(pod, trial, request, inter_pod); !s.Passed()) {
    out.failure = std::move(s);
    return out;
  }
  std::stable_sort(potential.begin(), potential.end(), MoreImportant);
  for (const api::Pod* p : potential) {
    scheduler::CountPod(*trial.totals, p, 1);
    if (scheduler::RunFilters(pod, trial, request, inter_pod).Passed()) continue;  // reprieved
    scheduler::CountPod(*trial.totals, p, -1);
    out.victims.push_back(p);
  }
  return out;
}

// The earliest start among the victims of the highest priority ("" when one has none: now).
std::string EarliestTopStart(const std::vector<const api::Pod*>& victims) {
  const std::int32_t top = PodPriority(*victims.front());
  std::string earliest;
  bool any = false;
  for (const api::Pod* v : victims) {
    if (PodPriority(*v) != top) continue;
    const std::string& start = v->status.start_time;
    if (start.empty()) continue;
    if (!any || start < earliest) earliest = start;
    any = true;
  }
  return any ? earliest : std::string(1, '\x7f');  // none started: the latest of all
}

// upstream pickOneNodeForPreemption's criteria 2-6, as one ordering.
bool BetterCandidate(const std::pair<std::string, std::vector<const api::Pod*>>& a,
                     const std::pair<std::string, std::vector<const api::Pod*>>& b) {
  const auto& va = a.second;
  const auto& vb = b.second;
  if (va.empty() != vb.empty()) return va.empty();  // a node that needs no preemption at all
  if (va.empty()) return a.first < b.first;
  const std::int64_t ha = PodPriority(*va.front()), hb = PodPriority(*vb.front());
  if (ha != hb) return ha < hb;
  auto sum = [](const std::vector<const api::Pod*>& v) {
    std::int64_t total = 0;
    for (const api::Pod* p : v) {
      total +=
          static_cast<std::int64_t>(PodPriority(*p)) + std::numeric_limits<std::int32_t>::max() + 1;
    }
    return total;
  };
  if (sum(va) != sum(vb)) return sum(va) < sum(vb);
  if (va.size() != vb.size()) return va.size() < vb.size();
  const std::string sa = EarliestTopStart(va), sb = EarliestTopStart(vb);
  if (sa != sb) return sa > sb;
  return a.first < b.first;
}

}  // namespace

bool NeverPreempts(const api::Pod& pod) {
  if (!pod.spec.rest.is_object()) return false;
  auto it = pod.spec.rest.find("preemptionPolicy");
  return it != pod.spec.rest.end() && it->is_string() && *it == "Never";
}

std::int32_t PodPriority(const api::Pod& pod) {
  if (!pod.spec.rest.is_object()) return 0;
  auto it = pod.spec.rest.find("priority");
  return it != pod.spec.rest.end() && it->is_number_integer() ? it->get<std::int32_t>() : 0;
}

std::string FitErrorText(std::size_t node_count, const std::map<std::string, int>& reasons) {
  std::vector<std::string> parts;
  for (const auto& [reason, count] : reasons) parts.push_back(std::to_string(count) + " " + reason);
  std::sort(parts.begin(), parts.end());
  std::string text = "0/" + std::to_string(node_count) + " nodes are available:";
  if (parts.empty()) return text;
  text += " ";
  for (std::size_t i = 0; i < parts.size(); ++i) text += (i ? ", " : "") + parts[i];
  return text + ".";
}

bool HasLowerPriorityPod(const api::Pod& pod, const NodeInfo& info) {
  const std::int32_t priority = PodPriority(pod);
  if (info.totals && info.totals->lowest_priority >= priority) return false;
  return std::any_of(info.pods.begin(), info.pods.end(),
                     [&](const api::Pod* p) { return PodPriority(*p) < priority; });
}

PreemptionResult Preempt(const api::Pod& pod, const std::vector<NodeInfo>& nodes,
                         const scheduler::ResourceRequest& request,
                         const scheduler::InterPodAffinity& inter_pod,
                         const NominatedPods* nominated) {
  PreemptionResult result;
  if (NeverPreempts(pod)) {
    result.message = "not eligible due to preemptionPolicy=Never.";
    return result;
  }
  const std::string nominated_node = NominatedNode(pod);
  std::map<std::string, int> reasons;
  std::vector<std::pair<std::string, std::vector<const api::Pod*>>> candidates;
  NodeInfo scratch;
  for (const NodeInfo& node : nodes) {
    const NodeInfo* with_nominated = WithNominatedPods(pod, node, nominated, &scratch);
    const NodeInfo& info = with_nominated != nullptr ? *with_nominated : node;
    const FilterStatus status = scheduler::RunFilters(pod, info, request, inter_pod);
    const bool resolvable = status.resolvable;
    if (resolvable && info.node->metadata.name == nominated_node) {
      // Its victims are still leaving: wait for them rather than preempt more.
      for (const api::Pod* p : info.pods) {
        if (PodPriority(*p) < PodPriority(pod) && TerminatingByPreemption(*p)) {
          result.message = "not eligible due to a terminating pod on the nominated node.";
          return result;
        }
      }
    }
    if (!resolvable) {
      ++reasons[std::string(kPreemptionNotHelpful)];
      continue;
    }
    NodeVictims v = SelectVictimsOnNode(pod, info, request, inter_pod);
    if (v.failure) {
      for (const std::string& r : v.failure->reasons) ++reasons[r];
      continue;
    }
    candidates.emplace_back(info.node->metadata.name, std::move(v.victims));
  }
  if (candidates.empty()) {
    result.message = FitErrorText(nodes.size(), reasons);
    return result;
  }
  auto best = std::min_element(candidates.begin(), candidates.end(), BetterCandidate);
  result.node = best->first;
  result.victims = std::move(best->second);
  return result;
}

const NodeInfo* WithNominatedPods(const api::Pod& pod, const NodeInfo& info,
                                  const NominatedPods* nominated, NodeInfo* scratch) {
  if (nominated == nullptr) return nullptr;
  auto it = nominated->find(info.node->metadata.name);
  if (it == nominated->end()) return nullptr;
  const std::int32_t priority = PodPriority(pod);
  bool any = false;
  for (const api::Pod* p : it->second) {
    if (p->metadata.uid == pod.metadata.uid || PodPriority(*p) < priority) continue;
    if (!any) {
      std::optional<NodeTotals> computed;
      *scratch = NodeInfo{info.node, info.pods, scheduler::TotalsOf(info, computed)};
      any = true;
    }
    scheduler::CountPod(*scratch->totals, p, 1);
  }
  return any ? scratch : nullptr;
}

}  // namespace lws::cluster
