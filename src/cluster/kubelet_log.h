// File: cluster/kubelet_log.h
//
// The container logs of the simulated kubelets: what `kubectl logs` shows under `lws up`. The
// containers run no process, so there is no output to keep; instead each container instance's
// log records its lifecycle as the kubelets drive it (created from its image, started, ready,
// exited with a code, stopped for a deletion), one line per change, each with the loop's time
// (virtual time in simulations, so the same run writes the same log).
//
// The lines are read from the pod statuses the kubelets write (or API clients write, with
// --kubelet=manual), not from calls inside the kubelets: the status is where every container
// change is reported, with its containerID, exit code and restart count, so the log follows
// whatever the kubelets come to report without a second path to keep in step.
//
// A container instance is what the kubelet names by a containerID: a new ID in a status starts
// a new instance, and the log of the one before is kept for `kubectl logs --previous`. Per
// (pod uid, container) the two newest instances are kept; each keeps its newest `lines_max`
// lines; a deleted pod's logs are dropped once its last lines are written (a follower still
// reads them to the end).
//
// Threading: Start, Stop and the informer's handler run on the loop; Find runs on the API
// server's I/O threads, under mu_.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "api/codec.h"
#include "base/event_loop.h"
#include "base/mutex.h"
#include "client/informer.h"
#include "client/local/local_client.h"
#include "podlog/container_log.h"

namespace lws::cluster {

using api::Json;

struct KubeletLogOptions {
  std::size_t lines_max = 1000;  // per container instance
};

// The first line of every instance's log.
inline constexpr const char* kSimulatedContainerLine =
    "lws-cpp simulated container: no process runs; this log records its lifecycle";

class KubeletLogs final : public podlog::PodLogSource {
 public:
  // REQUIRES: loop and client outlive the component.
  KubeletLogs(EventLoop* loop, const client::LocalClient* client, KubeletLogOptions options = {});
  ~KubeletLogs() override;
  KubeletLogs(const KubeletLogs&) = delete;
  KubeletLogs& operator=(const KubeletLogs&) = delete;

  Status Start();
  // Ends every log (followers finish) and forgets them. Idempotent.
  void Stop();

  // The instance of `container` of pod `uid` whose containerID is `container_id`, among the two
  // kept; null when neither is.
  podlog::ContainerLogPtr Find(const std::string& uid, const std::string& container,
                               const std::string& container_id) const override;
  // How many (pod, container) pairs have logs: what the memory bound is about.
  std::size_t containers_logged() const;

 private:
  struct Instance {
    std::string container_id;
    podlog::ContainerLogPtr log;
  };
  // What the last status said of one container, to see what changed (loop only).
  struct Seen {
    std::string container_id;  // of the newest instance
    podlog::ContainerLogPtr log;
    bool ready = false;
    bool stopping = false;  // the pod's deletion was logged
    bool lost = false;
  };
  using Key = std::pair<std::string, std::string>;  // (pod uid, container)

  void OnPod(const store::ObjectPtr& old, const store::ObjectPtr& now);
  void Observe(const Json& pod);
  void ObserveContainer(const Json& pod, const Json& status, Seen& seen);
  // Writes the lines that open the instance `status` reports and keeps it.
  void Open(const Json& pod, const Json& status, const std::string& container_id, Seen& seen);
  void Forget(const std::string& uid, const char* last_line);
  void Write(Seen& seen, std::string message);

  EventLoop* loop_;
  const client::LocalClient* client_;
  const KubeletLogOptions options_;
  std::unique_ptr<client::Informer> pods_;
  std::map<std::string, std::map<std::string, Seen>> seen_;  // pod uid -> container -> seen
  mutable Mutex mu_;
  std::map<Key, std::vector<Instance>> instances_ GUARDED_BY(mu_);  // oldest first, two at most
  bool stopped_ = false;
};

}  // namespace lws::cluster
