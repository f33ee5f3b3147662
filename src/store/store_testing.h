// File: store/store_testing.h
//
// Shared fixtures for the store tests: a registry with the built-ins and the LWS CRD, a manual
// clock, and small object builders. Test-only; not part of lws_store's API.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "api/lws_crd.h"
#include "api/resources.h"
#include "store/store.h"

namespace lws::store::testing {

inline const api::ResourceRegistry& Registry() {
  static const api::ResourceRegistry registry = [] {
    auto r = api::ResourceRegistry::WithBuiltins();
    (void)r.AddCustomResource(api::LwsCrd());
    return r;
  }();
  return registry;
}

inline const api::ResourceInfo& Pods() { return *Registry().Find("", "v1", "pods"); }
inline const api::ResourceInfo& ConfigMaps() { return *Registry().Find("", "v1", "configmaps"); }
inline const api::ResourceInfo& Nodes() { return *Registry().Find("", "v1", "nodes"); }
inline const api::ResourceInfo& StatefulSets() {
  return *Registry().Find("apps", "v1", "statefulsets");
}
inline const api::ResourceInfo& Lws() {
  return *Registry().Find("leaderworkerset.x-k8s.io", "v1", "leaderworkersets");
}

inline Json Pod(const std::string& name, const std::string& ns = "default",
                api::StringMap labels = {}) {
  Json pod = {{"apiVersion", "v1"},
              {"kind", "Pod"},
              {"metadata", {{"name", name}, {"namespace", ns}}},
              {"spec", {{"containers", {{{"name", "c"}, {"image", "busybox"}}}}}}};
  if (!labels.empty()) pod["metadata"]["labels"] = labels;
  return pod;
}

inline Json ConfigMap(const std::string& name, const std::string& ns = "default") {
  return {{"apiVersion", "v1"},
          {"kind", "ConfigMap"},
          {"metadata", {{"name", name}, {"namespace", ns}}},
          {"data", {{"k", "v"}}}};
}

inline Json StatefulSet(const std::string& name, int replicas = 1) {
  return {{"apiVersion", "apps/v1"},
          {"kind", "StatefulSet"},
          {"metadata", {{"name", name}, {"namespace", "default"}}},
          {"spec", {{"replicas", replicas}}}};
}

inline Json LeaderWorkerSet(const std::string& name) {
  return {{"apiVersion", "leaderworkerset.x-k8s.io/v1"},
          {"kind", "LeaderWorkerSet"},
          {"metadata", {{"name", name}, {"namespace", "default"}}},
          {"spec", {{"replicas", 1}}}};
}

// Watch options resuming after `rv`, optionally with selectors.
inline WatchOptions WatchFrom(std::uint64_t rv, const std::string& labels = "",
                              const std::string& fields = "") {
  WatchOptions options;
  options.resource_version = rv;
  options.label_selector = *api::Selector::Parse(labels);
  options.field_selector = *api::FieldSelector::Parse(fields);
  return options;
}

inline std::string Rv(const ObjectPtr& o) { return MetaString(o->document(), "resourceVersion"); }

class StoreTest : public ::testing::Test {
 protected:
  void SetUp() override { store_ = OpenStore(); }

  std::unique_ptr<Store> OpenStore(StoreOptions options = {}) {
    options.clock = &clock_;
    auto opened = Store::Open(std::move(options));
    EXPECT_TRUE(opened.ok()) << opened.status().ToString();
    return opened.ok() ? std::move(opened).value() : nullptr;
  }

  ObjectPtr MustCreate(const api::ResourceInfo& info, Json object) {
    auto created = store_->Create(info, std::move(object));
    EXPECT_TRUE(created.ok()) << created.status().ToString();
    return created.ok() ? *created : nullptr;
  }

  // Drains a watcher's queue.
  static std::vector<WatchEvent> Drain(const WatcherPtr& w) {
    std::vector<WatchEvent> events;
    w->Poll(&events);
    return events;
  }

  // "ADDED p1 5" per event: type, name and resourceVersion.
  static std::vector<std::string> Describe(const std::vector<WatchEvent>& events) {
    std::vector<std::string> out;
    for (const auto& e : events) {
      out.push_back(std::string(EventTypeName(e.type)) + " " + e.object->name().name + " " +
                    MetaString(e.object->document(), "resourceVersion"));
    }
    return out;
  }

  ManualClock clock_;
  std::unique_ptr<Store> store_;
};

}  // namespace lws::store::testing
