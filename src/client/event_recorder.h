// File: client/event_recorder.h
//
// Records core/v1 Events about objects, as client-go's event recorder does for the components
// of a real cluster: `kubectl get events` and `kubectl describe` show them. Repeats of the same
// (object, type, reason, message) are folded into one Event whose count and lastTimestamp grow,
// as the real recorder's correlator does, so a pod that stays unschedulable makes one Event,
// not one per scheduling attempt.
//
// Names are `<object name>.<hex of the time in nanoseconds>` (upstream's form) from the loop's
// clock, so a simulation run records the same names every time.
//
// Threading: one recorder per component; Record may be called from several threads (the
// operator's reconcile workers): one mutex, held across the write so that folding stays exact.
#pragma once

#include <list>
#include <map>
#include <mutex>
#include <string>
#include <tuple>

#include "base/clock.h"
#include "client/client.h"

namespace lws::client {

class EventRecorder {
 public:
  // `component` is the source (e.g. "default-scheduler", "kubelet"); `host` the node a kubelet
  // reports from ("" for control-plane components).
  EventRecorder(const Client* client, const Clock* clock, std::string component,
                std::string host = "");

  // `object` is the involved object as stored (kind, apiVersion, metadata). `type` is "Normal"
  // or "Warning". `action` is what the component did or failed to do ("Create", "Delete"), as
  // events.k8s.io/v1 readers see it; core/v1 readers (kubectl describe) show reason and message.
  // Failures are logged, never returned: an event is best effort, as upstream.
  void Record(const Json& object, const std::string& type, const std::string& reason,
              const std::string& message, const std::string& action = "");

  std::uint64_t recorded() const {
    std::lock_guard<std::mutex> lock(mu_);
    return recorded_;
  }

 private:
  // uid, type, reason, message, action
  using Key = std::tuple<std::string, std::string, std::string, std::string, std::string>;
  struct Folded {
    std::string event_name;
    std::int64_t count = 0;
    std::list<Key>::iterator recency;  // this key's place in `recency_`
  };

  const Client* client_;
  const Clock* clock_;
  std::string component_;
  std::string host_;
  mutable std::mutex mu_;
  std::map<Key, Folded> folded_;
  // The folded keys, least recently recorded first: the bound forgets the oldest, as the real
  // correlator's LRU cache does.
  std::list<Key> recency_;
  std::uint64_t recorded_ = 0;
  std::int64_t last_nanos_ = 0;
};

}  // namespace lws::client
