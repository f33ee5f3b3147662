// File: client/event_series.h
//
// What client-go's events.k8s.io recorder (k8s.io/client-go/tools/events, event_broadcaster.go)
// does with an event before writing it, as a function of the events and the time. The LWS
// controller (upstream records with it, action and all) and kube-scheduler use it:
//   - the first event of its kind (same action, reason, reporting controller, regarding object,
//     note and related object: "isomorphic") is created;
//   - the second makes it a series: a patch sets series {count: 2, lastObservedTime};
//   - later ones only count in the cache (series.count + 1, lastObservedTime), written by the
//     periodic work: every 30 minutes each series is written again (refreshExistingEventSeries),
//     and a series not observed for 6 minutes is written a last time and forgotten
//     (finishSeries), as is a single event 6 minutes old.
// Events are kept in their stored core/v1 form (event_versions.h): eventTime, series, action,
// reportingComponent and reportingInstance, no count or first/last timestamps, as
// kube-apiserver stores an events.k8s.io/v1 Event.
//
// Not thread-safe: the recorder locks.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "api/field.h"
#include "base/clock.h"

namespace lws::client {

using api::Json;

// One write to make: create `event`, or patch the stored event `event` names with `patch`
// (creating `event` instead when it is gone, as recordEvent does).
struct SeriesWrite {
  Json event;
  std::optional<Json> patch;
};

class EventSeries {
 public:
  static constexpr Duration kFinishTime = std::chrono::minutes(6);
  static constexpr Duration kRefreshTime = std::chrono::minutes(30);

  // The write `event` (a new stored-form event, eventTime `now`) needs: none for the third and
  // later of its kind.
  std::optional<SeriesWrite> Record(const Json& event, Time now);
  // The event as written, which later writes patch.
  void Recorded(const Json& event);
  // finishSeries at `now`: the series last observed before now - 6 min, written a last time,
  // and forgotten; single events older than that forgotten unwritten.
  std::vector<SeriesWrite> Finish(Time now);
  // refreshExistingEventSeries: every series written again.
  std::vector<SeriesWrite> Refresh() const;
  bool empty() const { return cache_.empty(); }

 private:
  // getKey: action, reason, reportingController, regarding, note and related.
  static std::string Key(const Json& event);
  static SeriesWrite PatchOf(const Json& event);

  std::map<std::string, Json> cache_;  // by Key(); ordered, so writes replay in one order
};

}  // namespace lws::client
