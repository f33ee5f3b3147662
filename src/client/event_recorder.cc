// The two event recorders (event_recorder.h): the events they make, and the writes the
// correlator or the series decide.
#include "client/event_recorder.h"

#include <fmt/format.h>

#include <optional>

#include "base/log.h"
#include "base/mutex.h"
#include "client/event_correlator.h"
#include "client/event_series.h"
#include "store/object.h"

namespace lws::client {
namespace {

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
  const std::string& action;
};

// The fields both forms share. Built key by key: nlohmann's brace lists build a two-element
// array per key first, and events are many of a rollout's writes.
Json EventBase(const Json& object, const std::string& ns, const EventText& text) {
  Json event = Json::object();
  event["apiVersion"] = "v1";
  event["kind"] = "Event";
  Json& meta = event["metadata"];
  meta["namespace"] = ns;
  event["involvedObject"] = InvolvedObject(object);
  event["type"] = text.type;
  event["reason"] = text.reason;
  event["message"] = text.message;
  return event;
}

// tools/record makeEvent.
Json CoreEvent(Json event, const std::string& now, const EventRecorderOptions& options) {
  Json& source = event["source"];
  source["component"] = options.component;
  if (!options.host.empty()) source["host"] = options.host;
  event["count"] = 1;
  event["firstTimestamp"] = now;
  event["lastTimestamp"] = now;
  event["reportingComponent"] = options.component;
  event["reportingInstance"] = options.host;
  return event;
}

// tools/events makeEvent, in the core/v1 form kube-apiserver stores it in.
Json SeriesEvent(Json event, const std::string& now_micro, const EventText& text,
                 const EventRecorderOptions& options) {
  event["eventTime"] = now_micro;
  event["action"] = text.action;
  event["reportingComponent"] = options.component;
  event["reportingInstance"] = options.instance.empty() ? options.component : options.instance;
  event["source"] = Json::object();
  event["firstTimestamp"] = nullptr;
  event["lastTimestamp"] = nullptr;
  return event;
}

std::int64_t UnixNanos(Time t) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(t.time_since_epoch()).count();
}

}  // namespace

class EventRecorder::State : public std::enable_shared_from_this<EventRecorder::State> {
 public:
  State(const Client* client, const Clock* clock, EventRecorderOptions options)
      : client_(client), clock_(clock), options_(std::move(options)) {}

  void Record(const Json& object, const EventText& text) {
    MutexLock lock(&mu_);
    ++recorded_;
    std::string ns = store::MetaString(object, "namespace");
    if (ns.empty()) ns = "default";  // events about cluster-scoped objects (nodes) live there
    const Time now = clock_->Now();
    Json event = EventBase(object, ns, text);
    event["metadata"]["name"] = NameAt(store::MetaString(object, "name"), now);
    if (options_.api == EventApi::kCoreV1) {
      RecordCore(CoreEvent(std::move(event), FormatRfc3339(now), options_), now);
    } else {
      RecordSeries(SeriesEvent(std::move(event), FormatRfc3339Micro(now), text, options_), now);
    }
  }

  std::uint64_t recorded() const {
    MutexLock lock(&mu_);
    return recorded_;
  }

  void Stop() {
    MutexLock lock(&mu_);
    if (timer_ != 0 && options_.loop != nullptr) options_.loop->Cancel(timer_);
    timer_ = 0;
  }

 private:
  // `<object>.<hex nanos>`, unique among this recorder's names.
  std::string NameAt(const std::string& object_name, Time now) REQUIRES(mu_) {
    std::int64_t nanos = UnixNanos(now);
    if (nanos <= last_nanos_) nanos = last_nanos_ + 1;
    last_nanos_ = nanos;
    return fmt::format("{}.{:x}", object_name, nanos);
  }

  void RecordCore(Json event, Time now) REQUIRES(mu_) {
    Correlated c = correlator_.Correlate(std::move(event), now);
    if (c.skip) return;
    std::optional<Json> written = Write(std::move(c.event), c.patch);
    if (written) correlator_.Recorded(*written, c.key);
  }

  void RecordSeries(Json event, Time now) REQUIRES(mu_) {
    if (options_.loop == nullptr && now - last_finish_ >= EventSeries::kFinishTime) {
      RunSeriesWork(now);  // no loop to run it: catch up here
    }
    std::optional<SeriesWrite> write = series_.Record(event, now);
    if (write) WriteSeries(std::move(*write));
    ArmSeriesTimer();
  }

  void WriteSeries(SeriesWrite write) REQUIRES(mu_) {
    std::optional<Json> written = Write(std::move(write.event), write.patch);
    if (written) series_.Recorded(*written);
  }

  // finishSeries every 6 minutes, refreshExistingEventSeries every 30 (every 5th).
  void RunSeriesWork(Time now) REQUIRES(mu_) {
    last_finish_ = now;
    std::vector<SeriesWrite> writes = series_.Finish(now);
    if (++finish_ticks_ % 5 == 0) {
      for (SeriesWrite& w : series_.Refresh()) writes.push_back(std::move(w));
    }
    for (SeriesWrite& w : writes) WriteSeries(std::move(w));
  }

  void ArmSeriesTimer() REQUIRES(mu_) {
    if (options_.loop == nullptr || timer_ != 0 || series_.empty()) return;
    std::weak_ptr<State> weak = weak_from_this();
    timer_ = options_.loop->After(EventSeries::kFinishTime, [weak] {
      std::shared_ptr<State> self = weak.lock();
      if (!self) return;
      MutexLock lock(&self->mu_);
      self->timer_ = 0;
      self->RunSeriesWork(self->clock_->Now());
      self->ArmSeriesTimer();
    });
  }

  // recordEvent: the patch of the stored event when given (a create when it is gone), else a
  // create under the event's name or, when another recorder took it, the next free one.
  std::optional<Json> Write(Json event, const std::optional<Json>& patch) REQUIRES(mu_) {
    const std::string ns = store::MetaString(event, "namespace");
    if (patch) {
      Result<store::ObjectPtr> patched = client_->Patch(
          kEvents, ns, store::MetaString(event, "name"), client::PatchType::kStrategic, *patch);
      if (patched.ok()) return (*patched)->document();
      if (patched.status().code() != Code::kNotFound) return Failed(event, patched.status());
      event["metadata"].erase("resourceVersion");
    }
    const std::string base = store::MetaString(event, "name");
    const std::size_t dot = base.rfind('.');
    const std::string object_name = base.substr(0, dot);
    std::int64_t nanos = std::stoll(base.substr(dot + 1), nullptr, 16);
    Result<store::ObjectPtr> created = Status::AlreadyExists("");
    for (int attempt = 0;
         attempt < kNameAttempts && created.status().code() == Code::kAlreadyExists; ++attempt) {
      if (attempt > 0) {
        last_nanos_ = std::max(last_nanos_, nanos + ((std::int64_t{1} << attempt) - 1));
        event["metadata"]["name"] = fmt::format("{}.{:x}", object_name, last_nanos_);
      }
      // The server takes the event it is handed: copied for a try that may fail.
      created = client_->Create(kEvents, attempt + 1 < kNameAttempts ? event : std::move(event));
    }
    if (!created.ok()) return Failed(event, created.status());
    return (*created)->document();
  }

  std::optional<Json> Failed(const Json& event, const Status& status) {
    Logger(options_.component)
        ->warn("cannot record event {} on {}: {}", api::StringMember(event, "reason"),
               store::MetaString(event, "name"), status.message());
    return std::nullopt;
  }

  const Client* client_;
  const Clock* clock_;
  const EventRecorderOptions options_;
  mutable Mutex mu_;
  EventCorrelator correlator_ GUARDED_BY(mu_);
  EventSeries series_ GUARDED_BY(mu_);
  std::uint64_t recorded_ GUARDED_BY(mu_) = 0;
  std::int64_t last_nanos_ GUARDED_BY(mu_) = 0;
  TaskId timer_ GUARDED_BY(mu_) = 0;
  Time last_finish_ GUARDED_BY(mu_);
  std::uint64_t finish_ticks_ GUARDED_BY(mu_) = 0;
};

EventRecorder::EventRecorder(const Client* client, const Clock* clock, EventRecorderOptions options)
    : state_(std::make_shared<State>(client, clock, std::move(options))) {}

EventRecorder::EventRecorder(const Client* client, const Clock* clock, std::string component,
                             std::string host)
    : EventRecorder(
          client, clock,
          EventRecorderOptions{.component = std::move(component), .host = std::move(host)}) {}

EventRecorder::~EventRecorder() { state_->Stop(); }

void EventRecorder::Record(const Json& object, const std::string& type, const std::string& reason,
                           const std::string& message, const std::string& action) {
  state_->Record(object, EventText{type, reason, message, action});
}

std::uint64_t EventRecorder::recorded() const { return state_->recorded(); }

}  // namespace lws::client
