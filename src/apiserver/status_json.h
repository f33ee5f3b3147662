// File: apiserver/status_json.h
//
// The metav1.Status documents the API server sends: every error reaches the client as
//
//   {"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":...,
//    "reason":...,"details":{...},"code":...}
//
// with the HTTP code of the reason, and kubectl prints "Error from server (<reason>): <message>"
// or, for 422, "The <Kind> "<name>" is invalid: ...". lws::Status carries code, message and field
// causes; the request context (the resource of the URL and the object name) supplies the details,
// following kubectl-compat.md section 1:
//   1. NotFound, AlreadyExists, Conflict: details {name, group, kind = resource plural}.
//   2. Invalid: details {name, group, kind = Kind, causes}.
//   3. MethodNotAllowed: details {group, kind = resource plural}.
//   4. NotFound with no resource is the generic "unknown URL" answer, sent with empty details.
//   5. Causes, when present, are always in details; other reasons carry no details.
// The helpers below build the standard messages of apimachinery's errors package.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "api/field.h"
#include "api/resources.h"
#include "base/status.h"

namespace lws::apiserver {

using Json = api::Json;

// What a request addressed, for the details of its error Status.
struct StatusContext {
  const api::ResourceInfo* resource = nullptr;  // resource of the URL; null for unknown paths
  std::string name;                             // object name; "" for collections
};

// Returns the metav1.Status JSON for a failed `status` (rules 1-5 above).
// REQUIRES: !status.ok().
Json StatusJson(const Status& status, const StatusContext& context = {});

// Returns the Status a delete answers with when the object is gone at once and the resource
// does not return the deleted object: status Success, details {name, group, kind, uid}.
Json DeleteSuccessJson(const api::ResourceInfo& resource, std::string_view name,
                       std::string_view uid);

// The message of a stale resourceVersion (apimachinery OptimisticLockErrorMsg).
inline constexpr std::string_view kOptimisticLockMessage =
    "the object has been modified; please apply your changes to the latest version and try again";

// `pods "x" not found`, `leaderworkersets.leaderworkerset.x-k8s.io "x" not found`.
Status NotFoundError(const api::ResourceInfo& resource, std::string_view name);
// `pods "x" already exists`.
Status AlreadyExistsError(const api::ResourceInfo& resource, std::string_view name);
// `Operation cannot be fulfilled on pods "x": <reason>`.
Status ConflictError(const api::ResourceInfo& resource, std::string_view name,
                     std::string_view reason = kOptimisticLockMessage);
// 404 for a path the server does not serve: `the server could not find the requested resource`.
Status UnknownPathError();
// 405 for a verb a resource does not support: `create is not supported on resources of kind
// "leases.coordination.k8s.io"`.
Status MethodNotSupportedError(const api::ResourceInfo& resource, std::string_view verb);
// 405 for an HTTP method no handler takes: `the server does not allow this method on the
// requested resource`.
Status MethodNotAllowedError();
// 415 for a request body of an unsupported type: `the body of the request was in an unknown
// format - accepted media types include: <accepted, comma separated>`.
Status UnsupportedMediaTypeError(const std::vector<std::string>& accepted);

}  // namespace lws::apiserver
