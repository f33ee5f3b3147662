// File: podlog/container_log.h
//
// What `kubectl logs` reads: the log of one container instance (one start of one container,
// what a real runtime keeps as one log file), and the source the server finds instances in.
// The API server only reads logs (apiserver/pod_log.h); whoever runs the containers writes them.
// Under `lws up` that is the simulated kubelets (cluster/kubelet_log.h); `lws apiserver` alone
// has no source, and pods/log answers that no kubelet serves it. Its own layer, below both, so
// that neither the kubelets nor the server include the other.
//
// Thread safety: an instance is written from the cluster's event loop and read from the
// server's I/O threads, so every method takes the instance's own lock. Followers are woken
// outside that lock: a wake-up only schedules a read (transport/http.h ResponseStream).
//
// Invariants:
//   1. Lines get consecutive sequence numbers from 0; at most `lines_max` of the newest are kept.
//   2. Once ended, an instance takes no more lines.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "base/clock.h"
#include "base/mutex.h"

namespace lws::podlog {

struct LogLine {
  Time time{};
  std::string message;  // one line, without its newline
  bool operator==(const LogLine&) const = default;
};

class ContainerLog {
 public:
  // REQUIRES: lines_max > 0.
  explicit ContainerLog(std::size_t lines_max);
  ContainerLog(const ContainerLog&) = delete;
  ContainerLog& operator=(const ContainerLog&) = delete;

  // Adds a line (ignored once ended), dropping the oldest past lines_max, and wakes followers.
  void Append(Time time, std::string message);
  // The instance stopped: followers read what is left and finish. Idempotent.
  void End();

  // Appends to *out the kept lines numbered *from and up (from the oldest kept when *from was
  // dropped) and moves *from past them. Returns whether the instance had ended when read, so a
  // caller that sees true has every line there will ever be.
  bool Read(std::uint64_t* from, std::vector<LogLine>* out) const;
  bool ended() const;

  // `wake` is called (from the writer's thread) after each Append and at End; a call already
  // under way may still land after Unsubscribe(id) returns, as a ResponseStream's wake-up may
  // come after Cancel (http.h). It must not call back into this instance.
  std::uint64_t Subscribe(std::function<void()> wake);
  void Unsubscribe(std::uint64_t id);

 private:
  void WakeAll();

  const std::size_t lines_max_;
  mutable Mutex mu_;
  std::deque<LogLine> lines_ GUARDED_BY(mu_);
  std::uint64_t first_ GUARDED_BY(mu_) = 0;  // the number of lines_.front()
  bool ended_ GUARDED_BY(mu_) = false;
  std::uint64_t next_id_ GUARDED_BY(mu_) = 0;
  std::map<std::uint64_t, std::shared_ptr<std::function<void()>>> followers_ GUARDED_BY(mu_);
};

using ContainerLogPtr = std::shared_ptr<ContainerLog>;

// Where the server finds container logs (ApiServer::set_pod_log_source). The server picks the
// instance from the pod's status as the kubelet does (validateContainerLogStatus: the running
// container's ID, or the last terminated one's) and asks for it by containerID.
class PodLogSource {
 public:
  virtual ~PodLogSource() = default;
  // The log of the instance `container_id` of container `container` of the pod with uid `uid`;
  // null when the source has none. Thread-safe.
  virtual ContainerLogPtr Find(const std::string& uid, const std::string& container,
                               const std::string& container_id) const = 0;
};

}  // namespace lws::podlog
