// File: apiserver/audit_log.cc
#include "apiserver/audit_log.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace lws::apiserver {

api::Json AuditEventJson(const AuthorizationAttributes& a, const transport::HttpRequest& request,
                         Time received, Time completed, int code, const std::string& audit_id) {
  api::Json user = {{"username", a.user.name}};
  if (!a.user.uid.empty()) user["uid"] = a.user.uid;
  if (!a.user.groups.empty()) user["groups"] = a.user.groups;
  api::Json event = {{"kind", "Event"},
                     {"apiVersion", "audit.k8s.io/v1"},
                     {"level", "Metadata"},
                     {"auditID", audit_id},
                     {"stage", "ResponseComplete"},
                     {"requestURI", request.target},
                     {"verb", a.verb},
                     {"user", user},
                     {"responseStatus", {{"metadata", api::Json::object()}, {"code", code}}},
                     {"requestReceivedTimestamp", FormatRfc3339Micro(received)},
                     {"stageTimestamp", FormatRfc3339Micro(completed)}};
  if (!request.remote.empty()) {
    const std::size_t colon = request.remote.rfind(':');
    std::string ip = request.remote.substr(0, colon);
    if (ip.size() >= 2 && ip.front() == '[') ip = ip.substr(1, ip.size() - 2);
    event["sourceIPs"] = {ip};
  }
  if (std::string agent = request.headers.Get("User-Agent"); !agent.empty()) {
    event["userAgent"] = agent;
  }
  if (a.resource_request) {
    api::Json ref = {{"resource", a.resource}, {"apiVersion", a.api_version}};
    if (!a.namespace_.empty()) ref["namespace"] = a.namespace_;
    if (!a.name.empty()) ref["name"] = a.name;
    if (!a.api_group.empty()) ref["apiGroup"] = a.api_group;
    if (!a.subresource.empty()) ref["subresource"] = a.subresource;
    event["objectRef"] = ref;
  }
  return event;
}

Result<std::unique_ptr<AuditLog>> AuditLog::Open(const std::string& path, const Clock* clock) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
  if (fd < 0) {
    return Status::BadRequest(fmt::format("--audit-log-path {}: {}", path, std::strerror(errno)));
  }
  std::FILE* file = ::fdopen(fd, "a");
  if (file == nullptr) {
    ::close(fd);
    return Status::Internal(fmt::format("--audit-log-path {}: {}", path, std::strerror(errno)));
  }
  return std::unique_ptr<AuditLog>(new AuditLog(file, clock));
}

AuditLog::~AuditLog() { std::fclose(file_); }

void AuditLog::Record(const AuthorizationAttributes& attributes,
                      const transport::HttpRequest& request, Time received, int code) {
  const Time completed = clock_->Now();
  MutexLock lock(&mu_);
  // auditID is a UUID upstream; a per-process counter in UUID form is as unique within a log.
  const std::string id = fmt::format("00000000-0000-4000-8000-{:012x}", ++next_id_);
  const std::string line =
      AuditEventJson(attributes, request, received, completed, code, id).dump() + "\n";
  std::fwrite(line.data(), 1, line.size(), file_);
  std::fflush(file_);
}

}  // namespace lws::apiserver
