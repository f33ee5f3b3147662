// File: apiserver/audit_log.h
//
// kube-apiserver's audit log at level Metadata (--audit-log-path): one audit.k8s.io/v1 Event a
// line for every request that came over HTTP, written when its answer is ready (stage
// ResponseComplete; a watch when it started), with who asked (user, groups, source address, user
// agent), what (verb and objectRef as RBAC saw them, the request URI) and the answer's code.
// In-process callers (the controllers and kubelets of `lws up`) are not logged, as kube-apiserver
// does not see a kube-controller-manager's informer cache. Lines are flushed one by one, so a
// reader (`tail -f`, a test) sees each request as it ends.
#pragma once

#include <cstdio>
#include <memory>
#include <string>

#include "apiserver/rbac_rules.h"
#include "base/clock.h"
#include "base/mutex.h"
#include "base/result.h"
#include "transport/http.h"

namespace lws::apiserver {

class AuditLog {
 public:
  // Opens `path` for appending (created 0600: it names users and objects).
  static Result<std::unique_ptr<AuditLog>> Open(const std::string& path, const Clock* clock);
  ~AuditLog();

  // Records one request: its attributes (AttributesFor, with the user), the HTTP request, when it
  // was received, and the status code answered.
  void Record(const AuthorizationAttributes& attributes, const transport::HttpRequest& request,
              Time received, int code);

 private:
  AuditLog(std::FILE* file, const Clock* clock) : file_(file), clock_(clock) {}

  Mutex mu_;
  std::FILE* file_ GUARDED_BY(mu_);
  const Clock* clock_;
  std::uint64_t next_id_ GUARDED_BY(mu_) = 0;
};

// The audit.k8s.io/v1 Event of one request (exposed for tests).
api::Json AuditEventJson(const AuthorizationAttributes& attributes,
                         const transport::HttpRequest& request, Time received, Time completed,
                         int code, const std::string& audit_id);

}  // namespace lws::apiserver
