// File: simulate/node_drain.h
//
// A `drain` of the scenario timeline, done as `kubectl drain --ignore-daemonsets --force
// --delete-emptydir-data` does it (k8s.io/kubectl/pkg/drain): the node is cordoned first (by the
// caller), then every pod on it but DaemonSet and mirror pods is evicted through
// pods/{name}/eviction. An eviction a PodDisruptionBudget refuses (429) is asked again every
// 5 s, as kubectl does; an evicted pod is waited for until it is gone (or replaced by a pod of
// the same name and another uid, as a StatefulSet does). Any other refusal ends the drain with
// kubectl's error. Like kubectl's default (--timeout=0) a drain waits for ever: the run's
// horizon bounds it.
#pragma once

#include <map>
#include <optional>
#include <string>

#include "base/clock.h"
#include "client/local/local_client.h"

namespace lws::simulate {

// What a drain did, for the report.
struct DrainResult {
  std::string node;
  double at_s = 0;                   // when it began, from the cluster's start
  int pods = 0;                      // the pods it had to evict
  int evicted = 0;                   // evictions the API server accepted (or pods already gone)
  std::int64_t refused = 0;          // 429 answers: a budget allowed no disruption at that moment
  std::optional<double> finished_s;  // from `at_s` until the last evicted pod was gone
  std::string refusal;               // the last 429's message
  std::string error;                 // an eviction failed otherwise: the drain stopped there
};

class NodeDrain {
 public:
  static constexpr Duration kRetryInterval = std::chrono::seconds(5);  // kubectl's

  NodeDrain(std::string node, Time at, double at_s);

  // Lists the pods to evict; the node must already be cordoned.
  Status Start(const client::LocalClient& user);
  // Asks for the evictions that are due and notes the evicted pods that are gone.
  void Step(const client::LocalClient& user, Time now);

  bool done() const { return result_.finished_s.has_value() || !result_.error.empty(); }
  const DrainResult& result() const { return result_; }

 private:
  struct PodToEvict {
    std::string ns, name, uid;
    Time due;  // the next eviction request
    bool evicted = false;
  };
  void Evict(const client::LocalClient& user, PodToEvict* pod, Time now);
  bool Gone(const client::LocalClient& user, const PodToEvict& pod) const;

  Time at_;
  DrainResult result_;
  std::map<std::string, PodToEvict> pods_;  // by namespace/name, in kubectl's (sorted) order
};

// Whether `kubectl drain --ignore-daemonsets` leaves `pod` on the node: a DaemonSet's pod (its
// controller would put it back at once) or a mirror pod (the kubelet's own).
bool DrainSkips(const api::Json& pod);

}  // namespace lws::simulate
