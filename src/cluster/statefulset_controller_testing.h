// File: cluster/statefulset_controller_testing.h
//
// The StatefulSet controller's test fixture: an embedded control plane on a virtual clock, the
// controller under test, a "kubectl" client for the user's writes, and the kubelet moves the
// tests make by hand (there is no scheduler or kubelet here, as with `lws up --kubelet manual`):
// a pod becomes Running and Ready only when a test patches its status subresource.
#pragma once

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "client/informer.h"
#include "client/local/local_testing.h"
#include "cluster/statefulset_controller.h"

namespace lws::cluster::testing {

using api::Json;
using Strings = std::vector<std::string>;

// A StatefulSet "web" in "default" selecting app=web, image nginx:1.
inline Json WebSet(int replicas, const std::string& policy = "OrderedReady") {
  Json container = {{"name", "nginx"}, {"image", "nginx:1"}};
  return {{"apiVersion", "apps/v1"},
          {"kind", "StatefulSet"},
          {"metadata", {{"name", "web"}, {"namespace", "default"}}},
          {"spec",
           {{"replicas", replicas},
            {"podManagementPolicy", policy},
            {"serviceName", "web-svc"},
            {"selector", {{"matchLabels", {{"app", "web"}}}}},
            {"template",
             {{"metadata", {{"labels", {{"app", "web"}}}}},
              {"spec", {{"containers", Json::array({container})}}}}}}}};
}

class StatefulSetControllerTest : public ::testing::Test {
 protected:
  StatefulSetControllerTest()
      : controller_client_(cp_.Client(std::string(kStatefulSetControllerName))),
        user_(cp_.Client("kubectl")),
        controller_(&cp_.loop, &controller_client_),
        trace_informer_(&cp_.loop, &user_, client::kPods) {}

  void SetUp() override {
    // Pod additions and deletions in the order the API server made them: "+web-0", "-web-2".
    trace_informer_.AddHandler([this](const store::ObjectPtr& old, const store::ObjectPtr& now) {
      if (!old) trace_.push_back("+" + now->name().name);
      if (!now) trace_.push_back("-" + old->name().name);
    });
    ASSERT_TRUE(trace_informer_.Start().ok());
    ASSERT_TRUE(controller_.Start().ok());
  }
  void TearDown() override { controller_.Stop(); }

  void Settle() { cp_.loop.RunFor(std::chrono::seconds(1)); }

  void Create(const Json& set) {
    Result<store::ObjectPtr> created = user_.Create(client::kStatefulSets, set);
    ASSERT_TRUE(created.ok()) << created.status().ToString();
  }
  void PatchSpec(const Json& spec) {
    Result<store::ObjectPtr> patched = user_.Patch(client::kStatefulSets, "default", "web",
                                                   client::PatchType::kMerge, {{"spec", spec}});
    ASSERT_TRUE(patched.ok()) << patched.status().ToString();
  }
  void SetImage(const std::string& image) {
    Json container = {{"name", "nginx"}, {"image", image}};
    PatchSpec({{"template", {{"spec", {{"containers", Json::array({container})}}}}}});
  }

  Json Set() { return (*user_.Get(client::kStatefulSets, "default", "web"))->document(); }
  Json Status() { return Set()["status"]; }

  // Every object of `resource` (a copy of the list, so no temporary dangles in a range-for).
  std::vector<store::ObjectPtr> List(const client::Resource& resource) {
    Result<store::ListResult> list = user_.List(resource);
    EXPECT_TRUE(list.ok()) << list.status().ToString();
    return list.ok() ? list->items : std::vector<store::ObjectPtr>{};
  }

  // The pods of "default" by name.
  std::map<std::string, Json> Pods() {
    std::map<std::string, Json> out;
    for (const store::ObjectPtr& pod : List(client::kPods)) {
      out[pod->name().name] = pod->FullJson();  // managedFields included
    }
    return out;
  }
  Strings PodNames() {
    Strings names;
    for (const auto& [name, pod] : Pods()) names.push_back(name);
    return names;
  }
  std::string Uid(const std::string& pod) { return store::MetaString(Pods()[pod], "uid"); }
  std::string Revision(const std::string& pod) {
    return Pods()[pod]["metadata"]["labels"].value(std::string(kControllerRevisionHashLabel), "");
  }

  // The kubelet's moves.
  void PatchPodStatus(const std::string& pod, const Json& status) {
    Result<store::ObjectPtr> patched = user_.Patch(
        client::kPods, "default", pod, client::PatchType::kMerge, {{"status", status}}, "status");
    ASSERT_TRUE(patched.ok()) << pod << ": " << patched.status().ToString();
  }
  void MakeReady(const std::string& pod) {
    Json ready = {{"type", "Ready"},
                  {"status", "True"},
                  {"lastTransitionTime", FormatRfc3339(cp_.loop.Now())}};
    PatchPodStatus(pod, {{"phase", "Running"}, {"conditions", Json::array({ready})}});
  }
  static bool IsReady(const Json& pod) {
    if (pod["status"].value("phase", "") != "Running") return false;
    for (const Json& c : pod["status"].value("conditions", Json::array())) {
      if (c.value("type", "") == "Ready") return c.value("status", "") == "True";
    }
    return false;
  }
  // Makes every pod that is not Ready yet Ready; returns how many.
  int MakeAllReady() {
    int made = 0;
    for (const auto& [name, pod] : Pods()) {
      if (IsReady(pod)) continue;
      MakeReady(name);
      ++made;
    }
    return made;
  }
  // Settles and makes new pods Ready until a round finds none left to make Ready.
  void Converge() {
    for (int round = 0; round < 50; ++round) {
      Settle();
      if (MakeAllReady() == 0) return;
    }
    ADD_FAILURE() << "no convergence";
  }
  void DeletePod(const std::string& pod) {
    client::DeleteOptions now;
    now.grace_period_seconds = 0;
    ASSERT_TRUE(user_.Delete(client::kPods, "default", pod, now).ok());
  }

  // "<reason>: <message>" of every Event, oldest first, with the count when above 1.
  Strings Events() {
    std::vector<std::pair<std::string, std::string>> by_time;
    for (const store::ObjectPtr& e : List(client::kEvents)) {
      std::string line =
          e->document().value("reason", "") + ": " + e->document().value("message", "");
      if (e->document().value("count", 1) > 1)
        line += " (x" + std::to_string(e->document().value("count", 1)) + ")";
      by_time.emplace_back(e->name().name, line);  // names grow with time
    }
    std::sort(by_time.begin(), by_time.end());
    Strings out;
    for (auto& [name, line] : by_time) out.push_back(std::move(line));
    return out;
  }

  client::testing::ControlPlane cp_;
  client::LocalClient controller_client_;
  client::LocalClient user_;
  StatefulSetController controller_;
  client::Informer trace_informer_;
  Strings trace_;
};

}  // namespace lws::cluster::testing
