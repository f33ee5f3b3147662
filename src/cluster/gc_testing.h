// File: cluster/gc_testing.h
//
// Builders and the API server shared by the garbage collector's and the namespace deleter's
// tests. Test-only.
#pragma once

#include <memory>

#include "client/local/local_testing.h"
#include "store/store_testing.h"

namespace lws::cluster::testing {

// The API server over a test's own store and the in-process client the collector (or the
// namespace deleter) writes through, as `lws up` gives them theirs. The collector's updates pass
// the server's validation, so the objects it edits must be as the server stores them: tests
// create them with Create below, not straight into the store.
struct ControlPlaneOver {
  ControlPlaneOver(store::Store* store, const Clock* clock, std::string field_manager)
      : plane(store, clock),
        client(plane.Client(std::move(field_manager))),
        admin(plane.Client("test")) {}

  // Creates `object` through the API (defaulted and validated), its namespace first if needed.
  store::ObjectPtr Create(const api::ResourceInfo& info, api::Json object) {
    const std::string ns = store::MetaString(object, "namespace");
    if (info.namespaced && !ns.empty()) {
      (void)admin.Create(
          client::kNamespaces,
          {{"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", {{"name", ns}}}});
    }
    Result<store::ObjectPtr> created = admin.Create(client::ResourceOf(info), std::move(object));
    EXPECT_TRUE(created.ok()) << created.status().ToString();
    return created.ok() ? *created : nullptr;
  }

  client::testing::ServerOver plane;
  client::LocalClient client;
  client::LocalClient admin;  // the test's own writes
};

// A LeaderWorkerSet the API accepts (store::testing::LeaderWorkerSet has no template).
inline api::Json ValidLeaderWorkerSet(const std::string& name) {
  api::Json lws = store::testing::LeaderWorkerSet(name);
  lws["spec"]["leaderWorkerTemplate"] = {
      {"size", 1},
      {"workerTemplate", {{"spec", {{"containers", {{{"name", "c"}, {"image", "busybox"}}}}}}}}};
  return lws;
}

// A StatefulSet the API accepts (store::testing::StatefulSet has no selector or template).
inline api::Json ValidStatefulSet(const std::string& name) {
  api::Json sts = store::testing::StatefulSet(name);
  sts["spec"]["selector"] = {{"matchLabels", {{"app", name}}}};
  sts["spec"]["template"] = {{"metadata", {{"labels", {{"app", name}}}}},
                             {"spec", {{"containers", {{{"name", "c"}, {"image", "busybox"}}}}}}};
  return sts;
}

// `object` with an ownerReference to `owner` (a stored object of `info`) appended.
inline api::Json OwnedBy(api::Json object, const api::ResourceInfo& info,
                         const store::ObjectPtr& owner, bool block = false) {
  api::Json ref = {{"apiVersion", info.ApiVersion()},
                   {"kind", info.kind},
                   {"name", owner->name().name},
                   {"uid", owner->uid()}};
  if (block) ref["blockOwnerDeletion"] = true;
  object["metadata"]["ownerReferences"].push_back(ref);
  return object;
}

}  // namespace lws::cluster::testing
