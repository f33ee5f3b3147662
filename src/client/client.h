// File: client/client.h
//
// What a controller needs from the API server, as one interface with two implementations: the
// in-process LocalClient (client/local_client.h), which `lws up` and the simulator use, and the
// REST client for a real cluster (client/rest, issue 6). The runtime's informers, the event
// recorder and the LWS controllers take a `const Client*`, so the same reconcilers run in both.
//
// Objects travel as the API's JSON; reads and watches hand out the store's immutable
// StoredObject (for the REST client: one built from the decoded answer), so an informer keeps
// exactly what a watch delivered. Errors are Status values with the server's reason, message
// and field causes (StatusFromAnswer).
//
// Threading: as each implementation documents; watch handlers run on the loop given to Watch.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "api/codec.h"
#include "api/patch_type.h"
#include "base/event_loop.h"
#include "base/result.h"
#include "client/resource.h"
#include "store/document_object.h"
#include "store/object.h"
#include "store/store.h"

namespace lws::client {

using api::Json;
using api::PatchContentType;
using api::PatchType;

struct DeleteOptions {
  std::optional<std::int64_t> grace_period_seconds;  // nullopt: the object's own
  std::string propagation_policy;                    // "", "Background", "Foreground", "Orphan"
  std::string precondition_uid;                      // "" : none
  std::string precondition_resource_version;         // "" : none
};

// A live watch; destroying it (or Stop) ends the subscription. Handlers already posted to the
// loop still run, but see no events after Stop.
class Subscription {
 public:
  virtual ~Subscription() = default;
  virtual void Stop() = 0;
};

using WatchHandler = std::function<void(const store::WatchEvent&)>;

class Client {
 public:
  virtual ~Client() = default;

  // POST / PUT / PUT status / PATCH / DELETE. Each returns the object the server answered with
  // (a DELETE's answer may be a Status document), or the server's error as a Status.
  // In process the answer is the stored version itself, shared as a GET's is, never a copy.
  // Over HTTP it is the decoded body.
  // The object to write is taken by value: a caller done with it moves it in.
  virtual Result<store::ObjectPtr> Create(const Resource& resource, Json object) const = 0;
  virtual Result<store::ObjectPtr> Update(const Resource& resource, Json object) const = 0;
  virtual Result<store::ObjectPtr> UpdateStatus(const Resource& resource, Json object) const = 0;
  virtual Result<store::ObjectPtr> Patch(const Resource& resource, const std::string& ns,
                                         const std::string& name, PatchType type, const Json& patch,
                                         const std::string& subresource = "") const = 0;
  virtual Result<store::ObjectPtr> Delete(const Resource& resource, const std::string& ns,
                                          const std::string& name,
                                          const DeleteOptions& options = {}) const = 0;
  // POST pods/<name>/binding: assigns the pod to `node` (409 when already bound).
  virtual Status Bind(const std::string& ns, const std::string& pod, const std::string& pod_uid,
                      const std::string& node) const = 0;

  virtual Result<store::ObjectPtr> Get(const Resource& resource, const std::string& ns,
                                       const std::string& name) const = 0;
  virtual Result<store::ListResult> List(const Resource& resource,
                                         const store::ListOptions& options = {}) const = 0;
  // Every object of `resource` in `ns` ("" all) as a synthetic ADDED, then every change, each
  // delivered to `handler` on `loop`. A watch that has to start over (the server ended it, or
  // answered 410 Gone) re-lists, so the handler sees ADDED again for objects that still exist
  // and must treat ADDED of a known object as an update.
  virtual Result<std::unique_ptr<Subscription>> Watch(EventLoop* loop, const Resource& resource,
                                                      const std::string& ns,
                                                      WatchHandler handler) const = 0;

  // The name in managedFields and the events' reporting component.
  virtual const std::string& field_manager() const = 0;
};

// The Status an API error answer carries (its reason, message and causes).
inline Status StatusFromAnswer(int http_code, const Json& body) {
  return store::StatusFromDocument(http_code, body);
}

// The resourceVersion rule and the stored-version wrapping of answers (store/document_object.h).
using store::ParseResourceVersionText;
inline Result<store::ObjectPtr> AnswerObject(Json answer) {
  return store::DocumentObject(std::move(answer));
}

}  // namespace lws::client
