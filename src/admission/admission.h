// File: admission/admission.h
//
// The in-process admission chain of the embedded API server. As kube-apiserver runs webhooks,
// every mutating plugin that handles the resource may change the object once the server has
// decoded, pruned and defaulted it; the server then defaults the result again and validates it
// (CRD schema or built-in rules); then every validating plugin may reject it. Plugins run in
// registration order. The LWS
// webhooks (defaulting, validation, pod mutation) plug in here without the server knowing them.
//
// A plugin's rejection is returned to the client as it is: a plugin returns the Status upstream's
// webhook answer produces (422 Invalid with causes for validation errors, 403 Forbidden for
// policy denials).
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "admission/typed_object.h"
#include "admission/user_info.h"
#include "api/codec.h"
#include "api/resources.h"
#include "base/result.h"
#include "base/status.h"
#include "store/decoded_view.h"
#include "store/object.h"

namespace lws::admission {

enum class AdmissionOperation { kCreate, kUpdate, kDelete };

// "CREATE", "UPDATE", "DELETE": the operation as admission.Attributes and webhook rules name it.
std::string_view OperationName(AdmissionOperation operation);

// The built-in resource a plugin reads from the store (group "" for core/v1), version v1.
// REQUIRES: it exists (a programming error otherwise).
const api::ResourceInfo& BuiltinResource(const std::string& group, const std::string& resource);

struct AdmissionRequest {
  AdmissionOperation operation = AdmissionOperation::kCreate;
  const api::ResourceInfo* resource = nullptr;
  std::string subresource;  // "" for the main resource
  std::string namespace_;
  std::string name;
  api::Json* object = nullptr;            // the object to store; null on delete
  const api::Json* old_object = nullptr;  // the stored object; null on create
  // The stored version `old_object` was read from (null when the caller has none: the webhook
  // server's requests). Its managedFields may be kept apart from its JSON: webhooks see them in
  // the review's oldObject, read only by a plugin that needs them, since reading makes deferred
  // entries. Typed readers share its decoded view (OldTyped).
  const store::StoredObject* old_version = nullptr;
  bool dry_run = false;
  std::string field_manager;                     // ?fieldManager= as sent; "" when absent
  std::vector<std::string>* warnings = nullptr;  // where a plugin adds warnings for the client
  const UserInfo* user = nullptr;                // who asks; null: the administrator

  // *object as T, shared by the plugins that read it (typed_object.h). REQUIRES: object.
  template <api::Modeled T>
  const Decoded<T>& Typed() const {
    return typed_object.Get<T>(*object);
  }
  // *old_object as T, without managedFields: the stored version's shared view when the request
  // names it, else decoded here. REQUIRES: old_object.
  template <api::Modeled T>
  Result<std::shared_ptr<const T>> OldTyped() const {
    if (old_version != nullptr) return store::DecodedView<T>(*old_version);
    return store::DecodePrivateView<T>(*old_object);
  }
  // The chain's: forgotten whenever *object may have changed.
  TypedObject typed_object;
};

class AdmissionPlugin {
 public:
  virtual ~AdmissionPlugin() = default;
  virtual std::string_view Name() const = 0;
  // True iff the plugin wants requests for `resource` at `subresource` ("" = main resource).
  virtual bool Handles(const api::ResourceInfo& resource, std::string_view subresource) const = 0;
  // Mutating phase: may change *request.object. The default does nothing.
  virtual Status Mutate(AdmissionRequest& request) { return Status::Ok(); }
  // Validating phase: may only reject. The default admits.
  virtual Status Validate(const AdmissionRequest& request) { return Status::Ok(); }
};

class AdmissionChain {
 public:
  void Add(std::shared_ptr<AdmissionPlugin> plugin) { plugins_.push_back(std::move(plugin)); }
  // Before every plugin added so far: the server's own plugins run first, as kube-apiserver's
  // built-in ones run before its webhooks.
  void AddFirst(std::shared_ptr<AdmissionPlugin> plugin) {
    plugins_.insert(plugins_.begin(), std::move(plugin));
  }
  // Runs every handling plugin's Mutate, then every handling plugin's Validate; stops at the
  // first error. Each forgets the request's typed object where the JSON may have changed.
  Status Run(AdmissionRequest& request) const;
  // The two phases alone: the server validates the object itself between them (spec 3.3).
  Status RunMutating(AdmissionRequest& request) const;
  Status RunValidating(const AdmissionRequest& request) const;
  // True iff some plugin handles `resource` at `subresource`.
  bool Handles(const api::ResourceInfo& resource, std::string_view subresource) const;
  bool empty() const { return plugins_.empty(); }

 private:
  std::vector<std::shared_ptr<AdmissionPlugin>> plugins_;
};

}  // namespace lws::admission
