// File: apiserver/api_server_testing.h
//
// A test fixture around ApiServer::Handle: an in-memory store on a ManualClock, and one-line
// request helpers that return the status code and the parsed body.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "apiserver/api_server.h"
#include "base/clock.h"
#include "store/store.h"

namespace lws::apiserver::testing {

inline constexpr const char* kPods = "/api/v1/namespaces/default/pods";
inline constexpr const char* kSts = "/apis/apps/v1/namespaces/default/statefulsets";
inline constexpr const char* kLws =
    "/apis/leaderworkerset.x-k8s.io/v1/namespaces/default/leaderworkersets";

struct Reply {
  int code = 0;
  api::Json body;
  transport::HttpResponse raw;
};

class ApiServerTest : public ::testing::Test {
 protected:
  void SetUp() override { Open({}); }

  // Re-creates the server over a fresh store (or over data_dir when set).
  void Open(ApiServerOptions options, std::string data_dir = "") {
    server_.reset();
    store_.reset();
    store::StoreOptions store_options;
    store_options.clock = &clock_;
    store_options.seed = 7;
    store_options.data_dir = std::move(data_dir);
    store_ = store::Store::Open(store_options).value();
    options.store = store_.get();
    options.clock = &clock_;
    server_ = ApiServer::Create(std::move(options)).value();
  }

  Reply Send(const std::string& method, const std::string& target, const std::string& body = "",
             const std::string& content_type = "application/json",
             const std::string& accept = "application/json") {
    transport::HttpRequest request;
    request.method = method;
    request.target = target;
    request.body = body;
    if (!content_type.empty()) request.headers.Add("Content-Type", content_type);
    if (!accept.empty()) request.headers.Add("Accept", accept);
    Reply reply;
    reply.raw = server_->Handle(request);
    reply.code = reply.raw.status;
    if (!reply.raw.stream) reply.body = api::Json::parse(reply.raw.body, nullptr, false);
    return reply;
  }
  Reply Get(const std::string& target) { return Send("GET", target); }
  Reply Post(const std::string& target, const api::Json& body) {
    return Send("POST", target, body.dump());
  }
  Reply Put(const std::string& target, const api::Json& body) {
    return Send("PUT", target, body.dump());
  }
  Reply Patch(const std::string& target, const std::string& type, const api::Json& body) {
    return Send("PATCH", target, body.dump(), type);
  }
  Reply Delete(const std::string& target, const api::Json& options = nullptr) {
    return Send("DELETE", target, options.is_null() ? "" : options.dump());
  }

  ManualClock clock_{Time(std::chrono::seconds(1'735'689'600))};
  std::unique_ptr<store::Store> store_;
  std::unique_ptr<ApiServer> server_;
};

inline api::Json PodJson(const std::string& name, const std::string& ns = "default") {
  return {{"apiVersion", "v1"},
          {"kind", "Pod"},
          {"metadata", {{"name", name}, {"namespace", ns}, {"labels", {{"app", "demo"}}}}},
          {"spec", {{"containers", {{{"name", "c"}, {"image", "busybox:1"}}}}}}};
}

inline api::Json StatefulSetJson(const std::string& name, int replicas = 2) {
  api::Json labels = {{"app", name}};
  return {{"apiVersion", "apps/v1"},
          {"kind", "StatefulSet"},
          {"metadata", {{"name", name}}},
          {"spec",
           {{"replicas", replicas},
            {"serviceName", name},
            {"selector", {{"matchLabels", labels}}},
            {"template",
             {{"metadata", {{"labels", labels}}},
              {"spec", {{"containers", {{{"name", "c"}, {"image", "busybox:1"}}}}}}}}}}};
}

inline api::Json LwsJson(const std::string& name, int replicas = 2) {
  api::Json pod_template = {{"spec", {{"containers", {{{"name", "c"}, {"image", "vllm:1"}}}}}}};
  return {{"apiVersion", "leaderworkerset.x-k8s.io/v1"},
          {"kind", "LeaderWorkerSet"},
          {"metadata", {{"name", name}}},
          {"spec",
           {{"replicas", replicas},
            {"leaderWorkerTemplate", {{"size", 2}, {"workerTemplate", pod_template}}}}}};
}

}  // namespace lws::apiserver::testing
