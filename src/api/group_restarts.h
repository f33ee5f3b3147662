// File: api/group_restarts.h
//
// Bounded group restarts and a backoff between group recreations: the LWS annotations that turn
// them on, the controller's per-group counts, and the delay arithmetic. Both are opt-in and
// under the project's own domain, because upstream has only proposals: the restart budget is
// KEP 820 (PR 877, open), the backoff upstream issue 1048 (a discussion). Without either
// annotation nothing here is read or written, so upstream manifests keep upstream behaviour.
//
// On the LWS, set by the user:
//   lws-cpp.dev/max-group-restarts: "3"      at most 3 group recreations per group and revision;
//                                            at the 4th failure the group is kept as it is (not
//                                            recreated) and the LWS gets Degraded=True.
//   lws-cpp.dev/group-restart-backoff: "30s" a recreated group is recreated again no sooner
//                                            than 30s, 60s, 120s... (capped at 5m, kubelet's
//                                            CrashLoopBackOff cap) after its leader was created.
// On the LWS, written by the controller (a JSON object; keys "<revision>/<groupIndex>", as
// upstream's proposed group-restart-counts annotation):
//   lws-cpp.dev/group-restarts:
//   {"abc123/0":{"restarts":2},"abc123/3":{"restarts":3,"exhausted":true}}
// On a retained leader pod, set by the user to recreate an exhausted group with a fresh budget:
//   lws-cpp.dev/recover: "true"
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "api/field.h"
#include "api/lws_types.h"
#include "base/clock.h"

namespace lws::api {

inline const std::string kMaxGroupRestartsAnnotation = "lws-cpp.dev/max-group-restarts";
inline const std::string kGroupRestartBackoffAnnotation = "lws-cpp.dev/group-restart-backoff";
inline const std::string kGroupRestartsAnnotation = "lws-cpp.dev/group-restarts";
inline const std::string kRecoverAnnotation = "lws-cpp.dev/recover";

// The longest wait between two recreations of a group, unless the base backoff is longer.
inline constexpr Duration kMaxGroupRestartBackoff = std::chrono::minutes(5);

// What the user asked for; both unset when the annotations are absent or do not parse (the
// webhook rejects such values, so only an LWS stored before the webhook ran can carry them).
struct GroupRestartConfig {
  std::optional<std::int32_t> max_restarts;
  std::optional<Duration> backoff;
  // A failure policy (rollout_annotations.h) reads the counts: recreations are counted even
  // without a budget or a backoff.
  bool counted = false;
  bool enabled() const { return max_restarts.has_value() || backoff.has_value() || counted; }
};
GroupRestartConfig ReadGroupRestartConfig(const ObjectMeta& meta);

// The webhook's checks of the three LWS annotations, with field paths
// metadata.annotations[<key>]: a count is a decimal integer in [0, 2^31), the backoff a Go
// duration in [1s, 1h], the state a JSON object of the shape above, and a budget or a backoff
// needs a restart policy that recreates groups.
ErrorList ValidateGroupRestartAnnotations(const LeaderWorkerSet& lws);

struct GroupRestartEntry {
  std::int32_t restarts = 0;  // recreations this controller made of the group at the revision
  bool exhausted = false;     // a failure came with no budget left: the group is kept as it is
  bool operator==(const GroupRestartEntry& o) const {
    return restarts == o.restarts && exhausted == o.exhausted;
  }
};

// Keyed by GroupRestartKey; ordered, so the encoded annotation is the same for the same counts.
using GroupRestartCounts = std::map<std::string, GroupRestartEntry>;

std::string GroupRestartKey(const std::string& revision, const std::string& group_index);

// The counts in the state annotation; empty when absent. A value that does not parse is an
// error naming the annotation (the webhook keeps users from writing one).
Result<GroupRestartCounts> ReadGroupRestartCounts(const ObjectMeta& meta);
std::string EncodeGroupRestartCounts(const GroupRestartCounts& counts);

// The counts without the entries of groups that can no longer exist: a group index >=
// `group_count` (scaled down, or a surge group gone), and, once the rollout is done, any revision
// but `revision`. nullopt when nothing is dropped.
std::optional<GroupRestartCounts> PruneGroupRestartCounts(const GroupRestartCounts& counts,
                                                          const std::string& revision,
                                                          bool rollout_done,
                                                          std::int32_t group_count);

// The merge patch that writes `counts` to the state annotation (removes it when empty), with the
// LWS's resourceVersion as a precondition: two writers of the annotation (the pod and LWS
// controllers, or two workers) cannot lose each other's counts, the later one gets a Conflict.
Json GroupRestartCountsPatch(const GroupRestartCounts& counts, const std::string& resource_version);

// How long after its leader was created a group that was already recreated `restarts` times may
// be recreated again: 0 for a group never recreated, then base, 2*base, 4*base..., capped at
// max(base, kMaxGroupRestartBackoff).
Duration GroupRestartDelay(Duration base, std::int32_t restarts);

}  // namespace lws::api
