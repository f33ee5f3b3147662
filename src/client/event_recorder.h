// File: client/event_recorder.h
//
// Records Events about objects as the components of a real cluster do, through one of
// client-go's two recorders, so `kubectl get events` reads as it would there:
//   - EventApi::kCoreV1 (tools/record: kube-controller-manager, the cluster autoscaler):
//     core/v1 Events with source, count and first/last timestamps, through the EventCorrelator
//     (event_correlator.h: aggregation of similar events, repeats counted, a spam filter of 25
//     events per source and object, then one per 5 minutes);
//   - EventApi::kEventsV1 (tools/events: upstream LWS, kube-scheduler): events.k8s.io/v1 Events
//     with action, reportingController and reportingInstance, repeats kept as a series
//     (event_series.h). They are written in the form kube-apiserver stores them in, core/v1
//     with eventTime (event_versions.h), and read through either API.
//
// Names are `<object name>.<hex of the time in nanoseconds>` (upstream's form) from the
// recorder's clock, so a simulation run records the same names every time; a name another
// recorder took at the same instant moves on by 1, 3, 7, ... nanoseconds.
//
// Failures are logged, never returned: an event is best effort, as upstream.
//
// Threading: Record may be called from several threads (the operator's reconcile workers): one
// mutex, held across the write so that counting stays exact. The series' periodic writes run on
// the loop given in the options (or at the next Record when there is none).
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "base/clock.h"
#include "base/event_loop.h"
#include "client/client.h"

namespace lws::client {

// Which of client-go's recorders a component records through.
enum class EventApi { kCoreV1, kEventsV1 };

struct EventRecorderOptions {
  std::string component;  // source.component (core/v1) or reportingController (events.k8s.io)
  // core/v1: source.host, the node a kubelet reports from ("" for control-plane components).
  std::string host;
  // events.k8s.io: reportingInstance (upstream: "<controller>-<hostname>"); "" : the component.
  std::string instance;
  EventApi api = EventApi::kCoreV1;
  // events.k8s.io: the loop the 6- and 30-minute series writes run on; null: at the next Record.
  EventLoop* loop = nullptr;
};

class EventRecorder {
 public:
  // REQUIRES: `client` and `clock` (and the options' loop) outlive the recorder.
  EventRecorder(const Client* client, const Clock* clock, EventRecorderOptions options);
  // A core/v1 recorder for `component` (reporting from `host`).
  EventRecorder(const Client* client, const Clock* clock, std::string component,
                std::string host = "");
  ~EventRecorder();
  EventRecorder(const EventRecorder&) = delete;
  EventRecorder& operator=(const EventRecorder&) = delete;

  // `object` is the involved (regarding) object as stored (kind, apiVersion, metadata). `type` is
  // "Normal" or "Warning". `action` is what the component did or failed to do ("Create",
  // "Binding"): events.k8s.io events carry it; the core/v1 recorder has none.
  void Record(const Json& object, const std::string& type, const std::string& reason,
              const std::string& message, const std::string& action = "");
  // The same about a stored version.
  void Record(const store::StoredObject& object, const std::string& type, const std::string& reason,
              const std::string& message, const std::string& action = "") {
    Record(object.document(), type, reason, message, action);
  }

  // Events handed to Record, written or not.
  std::uint64_t recorded() const;

  class State;  // shared with the series timer, which must not outlive it (event_recorder.cc)

 private:
  std::shared_ptr<State> state_;
};

}  // namespace lws::client
