// client-go's events.k8s.io series (event_series.h), after tools/events/event_broadcaster.go.
#include "client/event_series.h"

namespace lws::client {

std::string EventSeries::Key(const Json& event) {
  // Members in a fixed order, each JSON-encoded, so no two events share a key by accident.
  Json key = Json::array();
  for (const char* member :
       {"action", "reason", "reportingComponent", "involvedObject", "message", "related"}) {
    key.push_back(api::ChildOrNull(event, member));
  }
  return key.dump();
}

SeriesWrite EventSeries::PatchOf(const Json& event) {
  return SeriesWrite{event, Json{{"series", api::ChildOrNull(event, "series")}}};
}

std::optional<SeriesWrite> EventSeries::Record(const Json& event, Time now) {
  const std::string key = Key(event);
  auto it = cache_.find(key);
  if (it == cache_.end()) {
    cache_.emplace(key, event);
    return SeriesWrite{event, std::nullopt};
  }
  Json& cached = it->second;
  const std::string observed = FormatRfc3339Micro(now);
  Json& series = cached["series"];
  if (series.is_object()) {
    series["count"] = series.value("count", std::int64_t{1}) + 1;
    series["lastObservedTime"] = observed;
    return std::nullopt;
  }
  series = {{"count", 2}, {"lastObservedTime", observed}};
  return PatchOf(cached);
}

void EventSeries::Recorded(const Json& event) {
  auto it = cache_.find(Key(event));
  if (it == cache_.end()) return;  // finished meanwhile
  // The server's answer names the stored event; counted repeats since the write stay counted.
  Json series = api::ChildOrNull(it->second, "series");
  it->second = event;
  if (series.is_object()) it->second["series"] = std::move(series);
}

std::vector<SeriesWrite> EventSeries::Finish(Time now) {
  std::vector<SeriesWrite> writes;
  for (auto it = cache_.begin(); it != cache_.end();) {
    const Json& event = it->second;
    const Json& series = api::ChildOrNull(event, "series");
    const std::string since = series.is_object() ? api::StringMember(series, "lastObservedTime")
                                                 : api::StringMember(event, "eventTime");
    Result<Time> at = ParseRfc3339(since);
    const bool old = !at.ok() || *at < now - kFinishTime;
    if (!old) {
      ++it;
      continue;
    }
    if (series.is_object()) writes.push_back(PatchOf(event));
    it = cache_.erase(it);
  }
  return writes;
}

std::vector<SeriesWrite> EventSeries::Refresh() const {
  std::vector<SeriesWrite> writes;
  for (const auto& [key, event] : cache_) {
    if (api::ChildOrNull(event, "series").is_object()) writes.push_back(PatchOf(event));
  }
  return writes;
}

}  // namespace lws::client
