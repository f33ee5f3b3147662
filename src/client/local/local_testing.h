// File: client/local/local_testing.h
//
// The embedded control plane for tests of the cluster's components: an in-memory store and an
// API server on a VirtualLoop's clock, and a helper to make clients (or on any clock, for tests
// that bring their own loop).
#pragma once

#include <memory>
#include <string>

#include "apiserver/api_server.h"
#include "base/virtual_loop.h"
#include "client/local/local_client.h"
#include "store/store.h"

namespace lws::client::testing {

// An API server over `store` on `clock`; it adds its seed objects (namespaces, priority
// classes, the LWS CRD when asked) to the store.
inline std::unique_ptr<apiserver::ApiServer> ServerOverStore(
    store::Store* store, const Clock* clock, bool install_lws_crd = true,
    admission::AdmissionChain admission = {}) {
  apiserver::ApiServerOptions options;
  options.store = store;
  options.clock = clock;
  options.install_lws_crd = install_lws_crd;
  options.admission = std::move(admission);
  return apiserver::ApiServer::Create(std::move(options)).value();
}

// An in-memory store and an API server over it, both on `clock`: the embedded control plane
// without a loop, for tests that bring their own (ControlPlane below; a RealEventLoop).
struct InMemoryControlPlane {
  InMemoryControlPlane(const Clock* clock, std::uint64_t seed, bool install_lws_crd,
                       admission::AdmissionChain admission) {
    store::StoreOptions store_options;
    store_options.clock = clock;
    store_options.seed = seed;
    store_options.watch_queue_size = 1'000'000;
    store = store::Store::Open(store_options).value();
    server = ServerOverStore(store.get(), clock, install_lws_crd, std::move(admission));
  }

  std::unique_ptr<store::Store> store;
  std::unique_ptr<apiserver::ApiServer> server;
};

// An API server over a store a test already has (StoreTest's), on the test's clock, and clients
// of it: for components tested against the store's own fixtures (the garbage collector). The
// server adds its seed objects (namespaces, priority classes, the LWS CRD) to the store.
struct ServerOver {
  ServerOver(store::Store* store_in, const Clock* clock)
      : store(store_in), server(ServerOverStore(store, clock)) {}
  LocalClient Client(std::string manager) const {
    return LocalClient(server.get(), store, std::move(manager));
  }
  store::Store* store;
  std::unique_ptr<apiserver::ApiServer> server;
};

// The loop comes first: the store and the server read its clock.
struct VirtualLoopFirst {
  VirtualLoop loop;
};

struct ControlPlane : VirtualLoopFirst, InMemoryControlPlane {
  // `admission` is the API server's admission chain, e.g. with the LWS webhooks
  // (controllers::InstallLwsWebhooks) for tests of components whose pods they mutate.
  explicit ControlPlane(std::uint64_t seed = 7, bool install_lws_crd = false,
                        admission::AdmissionChain admission = {})
      : InMemoryControlPlane(&loop.clock(), seed, install_lws_crd, std::move(admission)) {}
  LocalClient Client(std::string manager) {
    return LocalClient(server.get(), store.get(), manager);
  }
};

}  // namespace lws::client::testing
