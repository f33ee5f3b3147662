// File: client/local/local_client.h
//
// The in-process client the cluster's controllers (StatefulSet controller, scheduler, kubelets,
// node pools, the LWS controller of `lws up`) use to talk to the embedded API server. Writes go
// through the server's write port (apiserver/write_port.h) as typed calls: the same pipeline
// kubectl's requests take (defaults, CRD schema, validation, admission chain, managedFields),
// without a URL, a query string or bytes in between, so a pod the StatefulSet controller creates
// is exactly the pod a real kube-controller-manager would get back from a real API server.
//
// Reads and watches go to the store directly: they need no pipeline, and the store hands out
// its immutable shared objects without copying or parsing (DESIGN.md section 6). A watch is
// delivered on an EventLoop: the store's notifier only posts a drain task, so every handler runs
// on the loop, one at a time, in resourceVersion order; on the virtual loop that keeps a run a
// pure function of its seed.
//
// Threading: writes and reads may be called from any thread (the API server and the store are
// thread-safe). Watch handlers run on the loop given to Watch.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "api/codec.h"
#include "apiserver/write_port.h"
#include "base/event_loop.h"
#include "base/result.h"
#include "client/client.h"
#include "client/resource.h"
#include "store/store.h"

namespace lws::client {

using api::Json;

class LocalClient final : public Client {
 public:
  // `field_manager` names this client in managedFields and as the events' reporting component
  // ("statefulset-controller", "default-scheduler", "kubelet").
  // REQUIRES: writes (the API server) and store outlive the client.
  LocalClient(apiserver::WritePort* writes, store::Store* store, std::string field_manager);

  // Create / update / update status / patch / delete through the API pipeline. Each returns the
  // object the server answered with (a DELETE's answer may be a Status document), or the server's
  // error as a Status with its code, message and field causes.
  Result<store::ObjectPtr> Create(const Resource& resource, Json object) const override;
  Result<store::ObjectPtr> Update(const Resource& resource, Json object) const override;
  Result<store::ObjectPtr> UpdateStatus(const Resource& resource, Json object) const override;
  Result<store::ObjectPtr> Patch(const Resource& resource, const std::string& ns,
                                 const std::string& name, client::PatchType type, const Json& patch,
                                 const std::string& subresource = "") const override;
  Result<store::ObjectPtr> Delete(const Resource& resource, const std::string& ns,
                                  const std::string& name,
                                  const DeleteOptions& options = {}) const override;
  // PUT namespaces/<name>/finalize: the only write that changes a namespace's spec.finalizers
  // (the namespace deleter's last step).
  Result<store::ObjectPtr> FinalizeNamespace(Json ns) const;
  // Creates pods/<name>/binding: assigns the pod to `node` (409 when already bound).
  Status Bind(const std::string& ns, const std::string& pod, const std::string& pod_uid,
              const std::string& node) const override;
  // Creates pods/<name>/eviction (policy/v1), as `kubectl drain` asks: 429 TooManyRequests while a
  // PodDisruptionBudget allows no disruption, 404 when the pod is gone.
  Status Evict(const std::string& ns, const std::string& pod) const;

  // Reads straight from the store (no copies).
  Result<store::ObjectPtr> Get(const Resource& resource, const std::string& ns,
                               const std::string& name) const override;
  Result<store::ListResult> List(const Resource& resource,
                                 const store::ListOptions& options = {}) const override;

  // Every object of `resource` in `ns` ("" all) as a synthetic ADDED, then every change, each
  // delivered to `handler` on `loop`. A watch that ends (the store's queue overflowed, 429) is
  // restarted from a fresh list, so the handler sees ADDED again for objects that still exist
  // and must treat ADDED of a known object as an update.
  Result<std::unique_ptr<Subscription>> Watch(EventLoop* loop, const Resource& resource,
                                              const std::string& ns,
                                              WatchHandler handler) const override;

  const std::string& field_manager() const override { return field_manager_; }
  store::Store* store() const { return store_; }
  // Every resource the server serves now (write_port.h).
  std::shared_ptr<const api::ResourceRegistry> ServedRegistry() const {
    return writes_->ServedRegistry();
  }

 private:
  // A call of `verb` on `resource` in `ns` as this client's field manager.
  apiserver::WriteCall Call(apiserver::WriteVerb verb, const Resource& resource, std::string ns,
                            std::string name = "", std::string subresource = "") const;

  apiserver::WritePort* writes_;
  store::Store* store_;
  std::string field_manager_;
};

// The embedded API server as in-process clients reach it: its write port and the store they
// read. What a component that makes a client per part is given (the simulated cluster).
// REQUIRES: both outlive every client made.
struct LocalApi {
  apiserver::WritePort* writes = nullptr;
  store::Store* store = nullptr;
  LocalClient Client(std::string field_manager) const {
    return LocalClient(writes, store, std::move(field_manager));
  }
};

}  // namespace lws::client
