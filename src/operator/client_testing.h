// File: operator/client_testing.h
//
// A client::Client that forwards to another and lets a test fail or answer any call first:
// controller-runtime's client/interceptor, for the operator's tests (a leader whose renewals
// fail, an API server that answers TokenReviews).
//
//   InterceptingClient client(&local);
//   client.on_write = [&](std::string_view verb, const Resource&, const Json&) ->
//   std::optional<Result<Json>> {
//     if (failing) return Status(Code::kServiceUnavailable, "injected");
//     return std::nullopt;  // forward
//   };
#pragma once

#include <functional>
#include <optional>
#include <string_view>

#include "client/client.h"

namespace lws::op::testing {

using client::Resource;

class InterceptingClient final : public client::Client {
 public:
  // Create, Update: an answer, or nullopt to forward. `verb` is "create" or "update".
  using WriteHook = std::function<std::optional<Result<Json>>(std::string_view verb,
                                                              const Resource&, const Json& object)>;
  // Get: an error to answer with, or nullopt to forward.
  using GetHook = std::function<std::optional<Status>(const Resource&, const std::string& ns,
                                                      const std::string& name)>;

  explicit InterceptingClient(const client::Client* inner) : inner_(inner) {}

  Result<store::ObjectPtr> Create(const Resource& r, Json object) const override {
    if (on_write) {
      if (auto answer = on_write("create", r, object)) return Answer(std::move(*answer));
    }
    return inner_->Create(r, std::move(object));
  }
  Result<store::ObjectPtr> Update(const Resource& r, Json object) const override {
    if (on_write) {
      if (auto answer = on_write("update", r, object)) return Answer(std::move(*answer));
    }
    return inner_->Update(r, std::move(object));
  }
  Result<store::ObjectPtr> UpdateStatus(const Resource& r, Json object) const override {
    return inner_->UpdateStatus(r, std::move(object));
  }
  Result<store::ObjectPtr> Patch(const Resource& r, const std::string& ns, const std::string& name,
                                 client::PatchType type, const Json& patch,
                                 const std::string& subresource = "") const override {
    return inner_->Patch(r, ns, name, type, patch, subresource);
  }
  Result<store::ObjectPtr> Delete(const Resource& r, const std::string& ns, const std::string& name,
                                  const client::DeleteOptions& options = {}) const override {
    return inner_->Delete(r, ns, name, options);
  }
  // A hook's answer as the client answers: the object as a stored version.
  static Result<store::ObjectPtr> Answer(Result<Json> answer) {
    if (!answer.ok()) return answer.status();
    return client::AnswerObject(std::move(*answer));
  }
  Status Bind(const std::string& ns, const std::string& pod, const std::string& pod_uid,
              const std::string& node) const override {
    return inner_->Bind(ns, pod, pod_uid, node);
  }
  Result<store::ObjectPtr> Get(const Resource& r, const std::string& ns,
                               const std::string& name) const override {
    if (on_get) {
      if (auto error = on_get(r, ns, name)) return *error;
    }
    return inner_->Get(r, ns, name);
  }
  Result<store::ListResult> List(const Resource& r,
                                 const store::ListOptions& options = {}) const override {
    return inner_->List(r, options);
  }
  Result<std::unique_ptr<client::Subscription>> Watch(EventLoop* loop, const Resource& r,
                                                      const std::string& ns,
                                                      client::WatchHandler handler) const override {
    return inner_->Watch(loop, r, ns, std::move(handler));
  }
  const std::string& field_manager() const override { return inner_->field_manager(); }

  WriteHook on_write;
  GetHook on_get;

 private:
  const client::Client* inner_;
};

}  // namespace lws::op::testing
