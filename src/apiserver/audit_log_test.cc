// The audit log (--audit-log-path): one audit.k8s.io/v1 Event a line per HTTP request, with the
// user, verb and objectRef as RBAC saw them and the answered code; in-process calls are not
// logged.
#include "apiserver/audit_log.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "apiserver/api_server_testing.h"

namespace lws::apiserver::testing {
namespace {

using api::Json;

std::vector<Json> Lines(const std::string& path) {
  std::vector<Json> lines;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) lines.push_back(Json::parse(line));
  return lines;
}

class AuditLogTest : public ApiServerTest {
 protected:
  void SetUp() override {
    path_ = (std::filesystem::temp_directory_path() /
             ("lws-audit-" + std::to_string(::getpid()) + ".log"))
                .string();
    std::filesystem::remove(path_);
    Open({.token = "admin-token", .audit_log_path = path_});
  }
  void TearDown() override { std::filesystem::remove(path_); }

  transport::HttpResponse Call(const std::string& method, const std::string& target,
                               const Json& body, const std::string& token) {
    transport::HttpRequest request;
    request.method = method;
    request.target = target;
    request.remote = "127.0.0.1:40000";
    if (!body.is_null()) request.body = body.dump();
    request.headers.Add("Content-Type", "application/json");
    request.headers.Add("User-Agent", "test/1.0");
    if (!token.empty()) request.headers.Add("Authorization", "Bearer " + token);
    return server_->Handle(request);
  }

  std::string path_;
};

TEST_F(AuditLogTest, EveryHttpRequestIsOneEventWithWhoWhatAndTheCode) {
  EXPECT_EQ(Call("POST", "/api/v1/namespaces/default/configmaps", {{"metadata", {{"name", "c"}}}},
                 "admin-token")
                .status,
            201);
  EXPECT_EQ(Call("GET", "/api/v1/namespaces/kube-system/secrets", nullptr, "").status, 403);
  EXPECT_EQ(Call("GET", "/version", nullptr, "").status, 200);
  // In-process writes (the write port) are the cluster's own controllers: not audited.
  WriteCall in_process;
  in_process.version = "v1";
  in_process.resource = "configmaps";
  in_process.namespace_ = "default";
  in_process.body = {{"metadata", {{"name", "d"}}}};
  in_process.field_manager = "test";
  EXPECT_TRUE(server_->Write(std::move(in_process)).ok());

  std::vector<Json> events = Lines(path_);
  ASSERT_EQ(events.size(), 3u);
  const Json& create = events[0];
  EXPECT_EQ(create["apiVersion"], "audit.k8s.io/v1");
  EXPECT_EQ(create["kind"], "Event");
  EXPECT_EQ(create["level"], "Metadata");
  EXPECT_EQ(create["stage"], "ResponseComplete");
  EXPECT_EQ(create["verb"], "create");
  EXPECT_EQ(create["user"]["username"], "system:admin");
  EXPECT_EQ(create["sourceIPs"], Json({"127.0.0.1"}));
  EXPECT_EQ(create["userAgent"], "test/1.0");
  EXPECT_EQ(create["objectRef"],
            Json({{"resource", "configmaps"}, {"namespace", "default"}, {"apiVersion", "v1"}}));
  EXPECT_EQ(create["responseStatus"]["code"], 201);
  EXPECT_EQ(create["requestURI"], "/api/v1/namespaces/default/configmaps");
  EXPECT_NE(create["auditID"], events[1]["auditID"]);
  const Json& refused = events[1];
  EXPECT_EQ(refused["verb"], "list");
  EXPECT_EQ(refused["user"]["username"], "system:anonymous");
  EXPECT_EQ(refused["responseStatus"]["code"], 403);
  EXPECT_EQ(refused["objectRef"]["resource"], "secrets");
  const Json& version = events[2];
  EXPECT_EQ(version["verb"], "get");
  EXPECT_FALSE(version.contains("objectRef"));
  EXPECT_EQ(std::filesystem::status(path_).permissions() & std::filesystem::perms::all,
            std::filesystem::perms::owner_read | std::filesystem::perms::owner_write);
}

}  // namespace
}  // namespace lws::apiserver::testing
