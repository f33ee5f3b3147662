// File: apiserver/write_port.h
//
// The API server's door for writers in the same process (client/local: the simulated cluster's
// controllers, the LWS controller of `lws up`, the simulator). A write is a typed WriteCall
// instead of an HTTP request: no URL to build and parse again, no query string, no body bytes,
// and the answer is the stored object itself. Behind the door it takes the same pipeline as a
// kubectl request (the HTTP handlers are adapters over the same RequestHandler): decoding,
// patching, defaulting, validation, the admission chain, managedFields, the store.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "api/codec.h"
#include "api/patch_type.h"
#include "api/resources.h"
#include "base/result.h"
#include "store/object.h"

namespace lws::admission {
struct UserInfo;  // admission/user_info.h
}  // namespace lws::admission

namespace lws::apiserver {

enum class WriteVerb {
  kCreate,  // POST: a new object, or a subresource that takes one (pods/binding, eviction)
  kUpdate,  // PUT: the whole object, or its status
  kPatch,   // PATCH with `patch_type`
  kDelete,  // DELETE with DeleteOptions as the body (null: the defaults)
};

struct WriteCall {
  WriteVerb verb = WriteVerb::kCreate;
  // The resource: group ("" for core), version, plural.
  std::string group;
  std::string version;
  std::string resource;
  std::string namespace_;   // "" for cluster-scoped resources
  std::string name;         // "" for a create (the body names the object)
  std::string subresource;  // "", "status", "scale", "binding", "eviction"
  // The object, the patch, the DeleteOptions, the Binding or the Eviction.
  api::Json body;
  api::PatchType patch_type = api::PatchType::kMerge;  // for kPatch
  // Who writes, in managedFields and as an event's reporting component. Server-side apply
  // sends it as fieldManager with force=true (a controller owns what it applies); the other
  // writes use it as the default manager, as a client-go controller's User-Agent is.
  std::string field_manager;
  bool dry_run = false;
  // Who the caller acts as (not owned), authorized as any user; null: the administrator.
  const admission::UserInfo* user = nullptr;
};

class WritePort {
 public:
  virtual ~WritePort() = default;
  // The object the server answered with (a delete's or a binding's answer may be a Status
  // document), or the server's error: the Status kubectl would be told, with its code, reason,
  // message and field causes.
  virtual Result<store::ObjectPtr> Write(WriteCall call) = 0;
  // The resource as it is served now, or null when it is not: an in-process reader's key to
  // the store. The handle keeps the resource alive when CRDs change what is served.
  virtual std::shared_ptr<const api::ResourceInfo> Served(const std::string& group,
                                                          const std::string& version,
                                                          const std::string& resource) const = 0;
  // Every resource served now (what the garbage collector and the namespace deleter act on);
  // the handle keeps the snapshot alive.
  virtual std::shared_ptr<const api::ResourceRegistry> ServedRegistry() const = 0;
};

}  // namespace lws::apiserver
