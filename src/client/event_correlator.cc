// client-go's EventCorrelator (event_correlator.h), after tools/record/events_cache.go.
#include "client/event_correlator.h"

#include <fmt/format.h>

#include <algorithm>

#include "store/object.h"

namespace lws::client {
namespace {

std::string Member(const Json& object, std::string_view key) {
  return api::StringMember(object, key);
}

std::string Involved(const Json& event, std::string_view key) {
  return api::StringMember(api::ChildOrNull(event, "involvedObject"), key);
}

std::string Source(const Json& event, std::string_view key) {
  return api::StringMember(api::ChildOrNull(event, "source"), key);
}

// getEventKey: everything that identifies an event but its time.
std::string EventKey(const Json& event) {
  return Source(event, "component") + Source(event, "host") + Involved(event, "kind") +
         Involved(event, "namespace") + Involved(event, "name") + Involved(event, "fieldPath") +
         Involved(event, "uid") + Involved(event, "apiVersion") + Member(event, "type") +
         Member(event, "reason") + Member(event, "message");
}

// EventAggregatorByReasonFunc's aggregate key: the event key without the message, with the
// reporting controller and instance.
std::string AggregateKey(const Json& event) {
  return Source(event, "component") + Source(event, "host") + Involved(event, "kind") +
         Involved(event, "namespace") + Involved(event, "name") + Involved(event, "uid") +
         Involved(event, "apiVersion") + Member(event, "type") + Member(event, "reason") +
         Member(event, "reportingComponent") + Member(event, "reportingInstance");
}

// getSpamKey: the source and the involved object.
std::string SpamKey(const Json& event) {
  return Source(event, "component") + Source(event, "host") + Involved(event, "kind") +
         Involved(event, "namespace") + Involved(event, "name") + Involved(event, "uid") +
         Involved(event, "apiVersion");
}

std::int64_t UnixNanos(Time t) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(t.time_since_epoch()).count();
}

}  // namespace

EventCorrelator::EventCorrelator(CorrelatorOptions options)
    : options_(options),
      aggregates_(options.cache_entries),
      observations_(options.cache_entries),
      spam_(options.cache_entries) {}

Correlated EventCorrelator::Correlate(Json event, Time now) {
  auto [aggregated, key] = Aggregate(std::move(event), now);
  Correlated out = Observe(std::move(aggregated), key);
  out.skip = Filter(out.event, now);
  return out;
}

std::pair<Json, std::string> EventCorrelator::Aggregate(Json event, Time now) {
  const std::string aggregate_key = AggregateKey(event);
  AggregateRecord record;
  if (AggregateRecord* found = aggregates_.Get(aggregate_key)) record = *found;
  // A record older than the interval (or none: its time is the epoch) starts again.
  if (now - record.last > options_.max_interval) record = AggregateRecord{};
  record.messages.insert(Member(event, "message"));
  record.last = now;
  const bool over = record.messages.size() >= options_.max_events;
  if (over) record.messages.erase(record.messages.begin());  // Go: PopAny
  aggregates_.Put(aggregate_key, record);
  if (!over) {
    std::string key = EventKey(event);
    return {std::move(event), std::move(key)};
  }
  // One event for them all, observed under the aggregate key so that it is updated in place.
  const std::string stamp = FormatRfc3339(now);
  Json combined = Json::object();
  combined["apiVersion"] = "v1";
  combined["kind"] = "Event";
  combined["metadata"] = {{"name", fmt::format("{}.{:x}", Involved(event, "name"), UnixNanos(now))},
                          {"namespace", store::MetaString(event, "namespace")}};
  combined["count"] = 1;
  combined["firstTimestamp"] = stamp;
  combined["lastTimestamp"] = stamp;
  combined["involvedObject"] = api::ChildOrNull(event, "involvedObject");
  combined["message"] = "(combined from similar events): " + Member(event, "message");
  combined["type"] = Member(event, "type");
  combined["reason"] = Member(event, "reason");
  combined["source"] = api::ChildOrNull(event, "source");
  return {std::move(combined), aggregate_key};
}

Correlated EventCorrelator::Observe(Json event, const std::string& key) {
  Correlated out;
  Observation observation;
  if (Observation* last = observations_.Get(key)) observation = *last;
  if (observation.count > 0) {
    Json& meta = event["metadata"];
    meta["name"] = observation.name;
    if (!observation.resource_version.empty())
      meta["resourceVersion"] = observation.resource_version;
    event["firstTimestamp"] = observation.first_timestamp;
    event["count"] = observation.count + 1;
    out.patch = Json{{"count", observation.count + 1},
                     {"lastTimestamp", event["lastTimestamp"]},
                     {"message", event["message"]}};
  }
  observations_.Put(
      key,
      Observation{event.value("count", std::int64_t{1}), api::ChildOrNull(event, "firstTimestamp"),
                  store::MetaString(event, "name"), store::MetaString(event, "resourceVersion")});
  out.event = std::move(event);
  out.key = key;
  return out;
}

bool EventCorrelator::Filter(const Json& event, Time now) {
  const std::string key = SpamKey(event);
  TokenBucket bucket{static_cast<double>(options_.spam_burst), now};  // a new bucket is full
  if (TokenBucket* found = spam_.Get(key)) bucket = *found;
  const double elapsed = std::chrono::duration<double>(now - bucket.last).count();
  bucket.tokens = std::min<double>(options_.spam_burst,
                                   bucket.tokens + std::max(0.0, elapsed) * options_.spam_qps);
  bucket.last = std::max(bucket.last, now);
  const bool accepted = bucket.tokens >= 1.0;
  if (accepted) bucket.tokens -= 1.0;
  spam_.Put(key, bucket);
  return !accepted;
}

void EventCorrelator::Recorded(const Json& event, const std::string& key) {
  const Observation observation{
      event.value("count", std::int64_t{1}), api::ChildOrNull(event, "firstTimestamp"),
      store::MetaString(event, "name"), store::MetaString(event, "resourceVersion")};
  observations_.Put(EventKey(event), observation);
  if (key != EventKey(event)) observations_.Put(key, observation);
}

}  // namespace lws::client
