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
  // Built key by key: nlohmann's brace lists build a two-element array per key first, and
  // events are a tenth of a simulated rollout's writes.
  Json event = Json::object();
  event["apiVersion"] = "v1";
  event["kind"] = "Event";
  event["metadata"]["namespace"] = ns;
  event["involvedObject"] = InvolvedObject(object);
  event["type"] = type;
  event["reason"] = reason;
  event["message"] = message;
  Json& source = event["source"];
  source["component"] = component_;
  if (!host_.empty()) source["host"] = host_;
  event["count"] = 1;
  event["firstTimestamp"] = now;
  event["lastTimestamp"] = now;
  event["reportingComponent"] = component_;
  event["reportingInstance"] = host_.empty() ? component_ : host_;
  if (!action.empty()) event["action"] = action;
  // Other recorders name their events from the same clock: on a virtual clock they often
  // record about the same object at the same instant (a restarted controller right after the old
  // one, hundreds of events), so a taken name moves on by 1, 3, 7, ... nanoseconds: past a block
  // of n taken names in about log2(n) tries, where one-by-one tries gave up after 256.
  Result<store::ObjectPtr> created = Status::AlreadyExists("");
  std::string name;
  for (int attempt = 0; attempt < kNameAttempts && created.status().code() == Code::kAlreadyExists;
       ++attempt) {
    last_nanos_ = nanos + ((std::int64_t{1} << attempt) - 1);
    name = fmt::format("{}.{:x}", store::MetaString(object, "name"), last_nanos_);
    event["metadata"]["name"] = name;
    created = client_->Create(kEvents, event);
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
