// File: client/local_testing.h
//
// The embedded control plane on a virtual clock, for tests of the cluster's components: an
// in-memory store and an API server on a VirtualLoop's clock, and a helper to make clients.
#pragma once

#include <memory>
#include <string>

#include "apiserver/api_server.h"
#include "client/local_client.h"
#include "sim/virtual_loop.h"
#include "store/store.h"

namespace lws::client::testing {

struct ControlPlane {
  // `admission` is the API server's admission chain, e.g. with the LWS webhooks
  // (controllers::InstallLwsWebhooks) for tests of components whose pods they mutate.
  explicit ControlPlane(std::uint64_t seed = 7, bool install_lws_crd = false,
                        apiserver::AdmissionChain admission = {}) {
    store::StoreOptions store_options;
    store_options.clock = &loop.clock();
    store_options.seed = seed;
    store_options.watch_queue_size = 1'000'000;
    store = store::Store::Open(store_options).value();
    apiserver::ApiServerOptions options;
    options.store = store.get();
    options.clock = &loop.clock();
    options.install_lws_crd = install_lws_crd;
    options.admission = std::move(admission);
    server = apiserver::ApiServer::Create(std::move(options)).value();
  }
  LocalClient Client(std::string manager) { return LocalClient(server.get(), store.get(), manager); }

  sim::VirtualLoop loop;
  std::unique_ptr<store::Store> store;
  std::unique_ptr<apiserver::ApiServer> server;
};

}  // namespace lws::client::testing
