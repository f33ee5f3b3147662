// File: apiserver/request_handler.h
//
// One request's trip through the API server (internal to apiserver/): the parsed target, the
// registry snapshot it works on, the resource it addresses, the time it started and the warnings
// it collects, with one method per verb. The methods live in handlers_*.cc by concern:
//   handlers_discovery.cc   /version, health, discovery, OpenAPI
//   handlers_read.cc        GET, LIST (JSON or Table), WATCH (watch_stream.h)
//   handlers_write.cc       POST, PUT, DELETE, deletecollection
//   write_stages.cc         the object pipeline of every write: decode, mutate, validate
//   handlers_patch.cc       PATCH: merge, JSON, strategic, server-side apply
//   handlers_subresource.cc /scale, pods/binding
//   handlers_eviction.cc    pods/eviction
//   handlers_subresource.cc /scale, pods/binding, the kubelet's subresources
//   handlers_log.cc         pods/log (pod_log.h), from the server's PodLogSource
//   handlers_crd.cc         CustomResourceDefinition side effects, namespace lifecycle
//   handlers_review.cc      TokenReview and (Self)SubjectAccessReview (create-only),
//                           TokenRequest (serviceaccounts/token)
#pragma once

#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "api/codec.h"
#include "apiserver/answer.h"
#include "apiserver/api_request.h"
#include "apiserver/api_server.h"
#include "apiserver/managed_fields.h"
#include "apiserver/request_target.h"
#include "base/clock.h"
#include "store/store.h"
#include "transport/http.h"

namespace lws::apiserver {

using api::Json;

// fieldValidation=Strict|Warn|Ignore (Warn when absent, as the server defaults it).
enum class FieldValidation { kStrict, kWarn, kIgnore };

// The fact "this stored version passed UpdateManagedFields' shape check" (ValidateShape with
// duplicates allowed, managedFields left out; handlers_write.cc). A write over a marked version
// walks only what it changed instead of the whole live object as well. A handler marks the
// version it stored when that version passed the check, or provably would: the check looks only
// at associative lists and depth, so adding scalars or flat maps to a checked object keeps it
// checked.
bool ShapesChecked(const store::ObjectPtr& version,
                   const std::shared_ptr<const ServedResources>& served);
void MarkShapesChecked(const store::ObjectPtr& version,
                       const std::shared_ptr<const ServedResources>& served);

// A handler's answer as the write port gives it: the stored object, the document the handler
// answered with as an object, or the Status of a refusal (code >= 300).
Result<store::ObjectPtr> PortAnswer(Answer answer, const ApiRequest& request);

class RequestHandler {
 public:
  // `user`: who the request comes from, as the server authenticated it.
  // REQUIRES: `request` outlives the handler.
  RequestHandler(ApiServer* server, const ApiRequest& request,
                 std::shared_ptr<const ServedResources> served, admission::UserInfo user);
  // The answer for the HTTP adapter: every failure as a metav1.Status response, the warnings as
  // Warning headers; `object` names the stored object answered, if any.
  Answer Run();
  // The answer for the write port: the stored object (or the Status document a delete or a
  // binding answers with), or the failure as the Status the HTTP answer would carry.
  Result<store::ObjectPtr> RunWrite();

 private:
  // Dispatch.
  Answer RunDiscovery();
  Answer RunResource();
  // The addressed resource's answer before it becomes an HttpResponse or a port answer.
  Result<Answer> ResourceAnswer();
  Result<Answer> RunVerb();
  Result<Answer> RunSubresource();

  // handlers_discovery.cc
  Result<Answer> Version();
  Result<Answer> Health();
  Result<Answer> CoreVersionsOrAggregated(bool core);
  Result<Answer> GroupDocument();
  Result<Answer> ResourceListDocument();
  Result<Answer> OpenApiV2Document();
  Result<Answer> OpenApiRootDocument();
  Result<Answer> OpenApiGroupDocument();

  // handlers_read.cc
  Result<Answer> Get();
  Result<Answer> List();
  Result<Answer> Watch();
  Result<Answer> GetStatus();

  // handlers_write.cc
  Result<Answer> Create();
  Result<Answer> Update(bool status_only);
  Result<Answer> Delete();
  Result<Answer> DeleteCollection();

  // handlers_review.cc
  Result<Answer> Review();
  // POST serviceaccounts/{name}/token: a TokenRequest answered with a signed token.
  Result<Answer> IssueServiceAccountToken();

  // handlers_patch.cc
  Result<Answer> Patch(std::string_view subresource);
  Result<Json> PatchedObject(const Json& live, const std::string& content_type, bool* created);

  // handlers_subresource.cc
  Result<Answer> Scale();
  Result<Answer> Binding();
  // pods/log without a log source, exec, attach, portforward, ephemeralcontainers: 400 with
  // why (no real kubelet), or NotFound.
  Result<Answer> KubeletSubresource();

  // handlers_eviction.cc: pods/eviction (kubectl drain) under PodDisruptionBudgets.
  Result<Answer> Eviction();
  Answer EvictionRefusal(const Status& status, int retry_after_seconds);
  // handlers_log.cc
  Result<Answer> PodLog();

  // The object pipeline shared by every write (write_stages.cc).
  // Decodes the body as an object of the addressed resource (400 on malformed or mismatched
  // apiVersion/kind/namespace/name).
  Result<Json> DecodeObjectBody(bool require_name_match);
  // The request body as JSON: the in-process caller's value when it passed one (taken: a
  // request's body is read once), else `decode` applied to the body's bytes.
  Result<Json> BodyJson(const std::function<Result<Json>(const std::string&)>& decode) const;
  // The body of a POST to a subresource that takes its own kind (Eviction, TokenRequest): a JSON
  // or YAML object whose kind, when set, is `kind` and whose apiVersion, when set, is one of
  // `versions`; else 400 "not a <kind> object: <apiVersion>, Kind=<kind>".
  Result<Json> SubresourceBody(std::string_view kind,
                               std::initializer_list<std::string_view> versions) const;
  // Strict: BadRequest naming every unknown field; Warn: a warning each; Ignore: nothing.
  Status ReportUnknownFields(const std::vector<std::string>& unknown, FieldValidation mode);
  // Defaults, validates and admits `object` for storing (`old` null on create): the stages
  // below in order, then the validating admission plugins.
  // `old_version`: the stored version `old` was read from (admission reads managedFields kept
  // apart from `old` there, and typed plugins share its decoded view).
  Status PrepareForWrite(Json* object, const Json* old, std::string_view subresource,
                         const store::StoredObject* old_version = nullptr);
  // The addressed resource's CRD schema; null for a built-in.
  const api::StructuralSchema* Schema() const;
  // Decode: depth, unknown fields per fieldValidation, pruned (CRDs) and defaulted.
  Status DecodeForWrite(Json* object, const Json* old, std::string_view subresource,
                        const api::StructuralSchema* schema);
  admission::AdmissionRequest AdmissionFor(Json* object, const Json* old,
                                           std::string_view subresource,
                                           const store::StoredObject* old_version);
  // Mutate: the mutating admission plugins, then pruned and defaulted again.
  Status MutateForWrite(admission::AdmissionRequest* admission,
                        const api::StructuralSchema* schema);
  // Validate: the CRD schema (and metadata) or the built-in rules; 422 Invalid with causes.
  Status ValidateForWrite(Json* object, const Json* old, std::string_view subresource,
                          const api::StructuralSchema* schema);
  // Admission of a DELETE of `current` (both phases; webhooks see it as oldObject).
  Status AdmitDelete(const store::StoredObject& current, bool dry_run);
  // Records the write over the whole live object `old` (managedFields inline) in managedFields
  // (patches and /scale; creates and updates use RecordWrite).
  Json WithManagedFields(const Json& old, Json updated, std::string_view subresource);
  FieldManagerScope ManagerScope(std::string_view subresource) const;
  // WithManagedFields with the entries kept apart (RecordOrDeferManagedFields): `current` is
  // the live version (null on create); `updated` loses any managedFields it carried. The
  // entries are deferred where the store will change nothing the recording tracks.
  store::NewEntries RecordWrite(const store::ObjectPtr& current, Json* updated,
                                std::string_view subresource, bool* shapes_checked);
  // Whether the store, writing `updated` over `current` (null on create), changes nothing the
  // write's managedFields track: RecordWrite then defers them.
  bool StoresOnlyUntracked(const store::StoredObject* current, const Json& updated,
                           std::string_view subresource) const;
  // Stores `object` as an update of `old` (main resource or /status), retrying nothing; with
  // `managed_fields`, those are the new version's (store::UpdateOptions::managed_fields).
  Result<store::ObjectPtr> StoreUpdate(Json object, bool status_only,
                                       std::optional<store::NewEntries> managed_fields = {});
  // Runs create side effects (CRD registration, namespace content) after a successful write.
  Status AfterWrite(const Json& stored, bool deleted);

  // handlers_crd.cc
  Status CheckNamespaceExists();
  Status CheckNameFree(const Json& object) const;
  // `shapes_checked`: `object` passed UpdateManagedFields' shape check; the created version is
  // then marked checked when the store added nothing the check looks at (MarkShapesChecked).
  // `managed_fields`, when given, are the created version's (store::CreateOptions).
  Result<store::ObjectPtr> CreateWithSideEffects(
      Json object, bool shapes_checked = false,
      std::optional<store::NewEntries> managed_fields = {});
  // Deletes what goes with `current`: a namespace's objects, a CRD's custom resources.
  Status BeforeDelete(const Json& current);
  Status DeleteAllIn(const api::ResourceInfo& resource, const std::string& ns);
  Status AllocateClusterIp(Json* service);
  Result<store::ObjectPtr> EstablishCrd(const store::ObjectPtr& crd);

  // builtin_strategy.cc: defaults and validation of built-in kinds, and their initial status.
  // DefaultBuiltin carries over from `old` (null on create) what an update may omit.
  void DefaultBuiltin(Json* object, const Json* old) const;
  api::ErrorList ValidateBuiltin(const Json& object, const Json* old,
                                 std::string_view subresource) const;
  Json InitialStatus(const Json& object) const;
  // The steps of a built-in kind's create strategy that need the object's uid before it is
  // stored (the Job's generated selector): reserves the uid in reserved_uid_.
  void PrepareBuiltinCreate(Json* object);

  // Responses.
  Answer ObjectResponse(int code, const store::ObjectPtr& object);
  Answer JsonResponse(int code, const Json& body, std::string content_type = "application/json");
  transport::HttpResponse ErrorResponse(const Status& status);
  // An Internal error is a bug or a failing disk: the log says which request met it.
  void LogIfInternal(const Status& status) const;
  void AddWarnings(transport::HttpResponse* response) const;

  // Query helpers.
  bool DryRun() const;
  Result<FieldValidation> FieldValidationMode() const;
  std::string FieldManager() const;

  ApiServer* server_;
  admission::UserInfo user_;
  const ApiRequest& request_;
  const RequestTarget& target_;  // request_.target
  std::shared_ptr<const ServedResources> served_;
  const api::ResourceInfo* info_ = nullptr;
  store::Store* store_;
  Time now_;
  std::vector<std::string> warnings_;
  // The name in a create's body, for error details (a collection URL names no object).
  std::string body_name_;
  // The uid PrepareBuiltinCreate gave the object being created ("" when none).
  std::string reserved_uid_;
};

}  // namespace lws::apiserver
