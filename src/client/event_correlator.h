// File: client/event_correlator.h
//
// What client-go's core/v1 event recorder (k8s.io/client-go/tools/record, events_cache.go) does
// with an event before writing it, as a function of the events and the time. The components
// of kube-controller-manager (the StatefulSet controller) and the cluster autoscaler record
// through it; `lws up`'s simulated ones do the same, so `kubectl get events` reads alike.
//
//   1. Aggregation (EventAggregator): events that differ only in their message (same source,
//      involved object, type and reason) are counted per key for 10 minutes; from the 10th
//      distinct message on, each is written as one shared event "(combined from similar
//      events): <message>" instead.
//   2. Observation (eventLogger): an event seen before (same key: everything but the time; for
//      an aggregate, the aggregate key) updates the existing one: count + 1, lastTimestamp and
//      message by a patch, under the first one's name.
//   3. Spam filter (EventSourceObjectSpamFilter): a token bucket per source and involved
//      object, 25 events at once, then one per 5 minutes; an event over it is dropped (after
//      step 2 counted it, as upstream).
// Every cache is bounded (4,096 keys, least recently used forgotten). Where Go picks an
// arbitrary element (the message a full aggregate record forgets), this picks the smallest, so
// a simulation replays.
//
// Not thread-safe: the recorder locks.
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>

#include "api/field.h"
#include "base/clock.h"
#include "base/lru_map.h"

namespace lws::client {

using api::Json;

struct CorrelatorOptions {
  std::size_t max_events = 10;                        // defaultAggregateMaxEvents
  Duration max_interval = std::chrono::seconds(600);  // defaultAggregateIntervalInSeconds
  int spam_burst = 25;                                // defaultSpamBurst
  double spam_qps = 1.0 / 300.0;                      // defaultSpamQPS
  std::size_t cache_entries = 4096;                   // maxLruCacheEntries
};

// What to do with one event.
struct Correlated {
  bool skip = false;  // dropped by the spam filter
  Json event;         // the event to write (count, name and timestamps already set)
  // For an event seen before (count > 1): the patch of the existing event ({count,
  // lastTimestamp, message}); when that event is gone, `event` is created instead.
  std::optional<Json> patch;
  std::string key;  // the cache key the event was observed under (for Recorded)
};

class EventCorrelator {
 public:
  explicit EventCorrelator(CorrelatorOptions options = {});

  // EventCorrelate: `event` is a new core/v1 Event as the recorder makes it (count 1, first and
  // last timestamp `now`, a fresh name).
  Correlated Correlate(Json event, Time now);
  // UpdateState: the event as written, whose name and resourceVersion later repeats patch;
  // `key` is Correlated::key (also updated: a recorder may have renamed the event it created).
  void Recorded(const Json& event, const std::string& key);

 private:
  struct AggregateRecord {
    std::set<std::string> messages;
    Time last;
  };
  struct Observation {
    std::int64_t count = 0;
    Json first_timestamp;
    std::string name;
    std::string resource_version;
  };
  struct TokenBucket {
    double tokens = 0;
    Time last;
  };

  // EventAggregate: the event to observe and the key it is observed under.
  std::pair<Json, std::string> Aggregate(Json event, Time now);
  // eventObserve.
  Correlated Observe(Json event, const std::string& key);
  // EventSourceObjectSpamFilter.Filter: true when the event is dropped.
  bool Filter(const Json& event, Time now);

  CorrelatorOptions options_;
  LruMap<std::string, AggregateRecord> aggregates_;
  LruMap<std::string, Observation> observations_;
  LruMap<std::string, TokenBucket> spam_;
};

}  // namespace lws::client
