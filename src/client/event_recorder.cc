#include "client/event_recorder.h"

#include <fmt/format.h>

#include "base/log.h"
#include "store/object.h"

namespace lws::client {

namespace {

constexpr std::size_t kMaxFolded = 4096;  // forget the oldest keys beyond this (bounded memory)
// Name tries per event: the k-th is 2^k - 1 ns past the clock, so 40 reach 18 minutes ahead.
constexpr int kNameAttempts = 40;

Json InvolvedObject(const Json& object) {
  Json ref = Json::object();
  ref["kind"] = object.value("kind", "");
  ref["apiVersion"] = object.value("apiVersion", "");
  for (const char* field : {"namespace", "name", "uid", "resourceVersion"}) {
    std::string value = store::MetaString(object, field);
    if (!value.empty()) ref[field] = value;
  }
  return ref;
}

// What an event says about its object.
struct EventText {
  const std::string& type;
  const std::string& reason;
  const std::string& message;
  const std::string& action;  // "" : none
};

// A new Event about `object` named `name`, as client-go's recorder makes one. Built key by key:
// nlohmann's brace lists build a two-element array per key first, and events are a tenth of a
// simulated rollout's writes.
Json NewEvent(const Json& object, const std::string& name, const std::string& ns,
              const EventText& text, const std::string& now, const std::string& component,
              const std::string& host) {
  Json event = Json::object();
  event["apiVersion"] = "v1";
  event["kind"] = "Event";
  Json& meta = event["metadata"];
  meta["name"] = name;
  meta["namespace"] = ns;
  event["involvedObject"] = InvolvedObject(object);
  event["type"] = text.type;
  event["reason"] = text.reason;
  event["message"] = text.message;
  Json& source = event["source"];
  source["component"] = component;
  if (!host.empty()) source["host"] = host;
  event["count"] = 1;
  event["firstTimestamp"] = now;
  event["lastTimestamp"] = now;
  event["reportingComponent"] = component;
  event["reportingInstance"] = host.empty() ? component : host;
  if (!text.action.empty()) event["action"] = text.action;
  return event;
}

}  // namespace

EventRecorder::EventRecorder(const Client* client, const Clock* clock, std::string component,
                             std::string host)
    : client_(client), clock_(clock), component_(std::move(component)), host_(std::move(host)) {}

void EventRecorder::Record(const Json& object, const std::string& type, const std::string& reason,
                           const std::string& message, const std::string& action) {
  std::lock_guard<std::mutex> lock(mu_);
  std::string ns = store::MetaString(object, "namespace");
  if (ns.empty()) ns = "default";  // events about cluster-scoped objects (nodes) live there
  std::string now = FormatRfc3339(clock_->Now());
  Key key{store::MetaString(object, "uid"), type, reason, message, action};
  auto it = folded_.find(key);
  if (it != folded_.end()) {
    recency_.splice(recency_.end(), recency_, it->second.recency);
    ++it->second.count;
    Json patch = {{"count", it->second.count}, {"lastTimestamp", now}};
    Result<store::ObjectPtr> patched = client_->Patch(kEvents, ns, it->second.event_name,
                                          apiserver::PatchType::kMerge, patch);
    if (patched.ok()) return;
    recency_.erase(it->second.recency);  // the event expired or was deleted: record a new one
    folded_.erase(it);
  }
  std::int64_t nanos = std::chrono::duration_cast<std::chrono::nanoseconds>(
                           clock_->Now().time_since_epoch()).count();
  if (nanos <= last_nanos_) nanos = last_nanos_ + 1;  // unique names at one instant
  const std::string object_name = store::MetaString(object, "name");
  const EventText text{type, reason, message, action};
  // Other recorders name their events from the same clock: on a virtual clock they often
  // record about the same object at the same instant (a restarted controller right after the old
  // one, hundreds of events), so a taken name moves on by 1, 3, 7, ... nanoseconds: past a block
  // of n taken names in about log2(n) tries, where one-by-one tries gave up after 256.
  Result<store::ObjectPtr> created = Status::AlreadyExists("");
  std::string name;
  for (int attempt = 0; attempt < kNameAttempts && created.status().code() == Code::kAlreadyExists;
       ++attempt) {
    last_nanos_ = nanos + ((std::int64_t{1} << attempt) - 1);
    name = fmt::format("{}.{:x}", object_name, last_nanos_);
    // Built again for each try: the server takes the event it is handed, and copying it for
    // every try cost as much as building it.
    created = client_->Create(kEvents, NewEvent(object, name, ns, text, now, component_, host_));
  }
  ++recorded_;
  if (!created.ok()) {
    Logger(component_)->warn("cannot record event {} on {}: {}", reason, name,
                             created.status().message());
    return;
  }
  if (folded_.size() >= kMaxFolded) {
    folded_.erase(recency_.front());
    recency_.pop_front();
  }
  recency_.push_back(key);
  folded_[key] = {name, 1, std::prev(recency_.end())};
}

}  // namespace lws::client
