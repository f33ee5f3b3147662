// File: controllers/lws/progress_deadline.h
//
// The opt-in progress deadline (lws-cpp.dev/progress-deadline, api/rollout_annotations.h), the
// Deployment convention for LeaderWorkerSets: a rollout or scale that makes no progress for the
// deadline sets Progressing=False with reason ProgressDeadlineExceeded, a message naming the
// groups it waits for and why (the scheduler's message on an unschedulable pod), and a Warning
// event; progress sets Progressing=True again.
//
// Progress is any change of the signature: the revision, the groups, how many are updated, how
// many of their pods are bound to nodes and how many are Ready. A pod placed counts, so a
// rollout waiting for capacity stalls while one whose groups are starting does not; set the
// deadline above the time a group takes from placement to Ready, as for a Deployment.
//
// The time of the last progress lives in the controller's memory (a ProgressMark per LWS), not in
// the object: nothing is written until the deadline passes. A restarted controller starts the
// clock again, so a stall is reported at most one deadline late; a condition already False
// stays False until progress is made.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "api/lws_types.h"
#include "api/pod.h"
#include "base/clock.h"

namespace lws::controllers {

inline const std::string kReasonProgressDeadlineExceeded = "ProgressDeadlineExceeded";

struct ProgressMark {
  std::string signature;
  Time since;
  bool operator==(const ProgressMark&) const = default;
};

// The pods of group `index` (its leader and workers), for the signature and the reasons.
using GroupPodsLookup = std::function<std::vector<const api::Pod*>(const std::string& index)>;

struct ProgressDeadlineInputs {
  Duration deadline{};
  std::optional<ProgressMark> mark;  // what the controller remembers for this LWS
  Time now;
  GroupPodsLookup group_pods;
};

struct ProgressCheck {
  std::optional<ProgressMark> mark;       // to remember (nullopt: forget, nothing to track)
  std::optional<Duration> recheck_after;  // reconcile again then, to see the deadline pass
  bool exceeded = false;
};

// `complete`: the LWS is Available (nothing to progress towards).
ProgressCheck CheckProgress(const ProgressDeadlineInputs& in, const std::string& signature,
                            bool complete);

// The signature of the LWS's groups: revision, groups, updated groups, bound and Ready pods.
std::string ProgressSignature(const std::string& revision_key,
                              const std::vector<const api::Pod*>& leaders,
                              const GroupPodsLookup& group_pods);

// The condition message and event note of a stalled LWS: the groups below `replicas` that are
// not Ready (missing ones included) and, for the first of them with an unschedulable pod, the
// scheduler's message.
std::string StalledMessage(const api::LeaderWorkerSet& lws, Duration deadline,
                           const std::vector<const api::Pod*>& leaders,
                           const GroupPodsLookup& group_pods);

}  // namespace lws::controllers
