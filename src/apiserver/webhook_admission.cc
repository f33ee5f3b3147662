// File: apiserver/webhook_admission.cc
#include "apiserver/webhook_admission.h"

#include <atomic>
#include <cstdio>
#include <optional>

#include "apiserver/admission_review.h"
#include "apiserver/patch.h"
#include "base/log.h"
#include "base/mutex.h"

namespace lws::apiserver {
namespace {

// The parsed webhooks of one configuration kind, listed and parsed again only after a write to
// the configurations (Store::LastWrite): every admitted request asks, and the configurations
// rarely change.
class WebhookSource {
 public:
  WebhookSource(store::Store* store, WebhookType type)
      : store_(store),
        type_(type),
        resource_(admission::BuiltinResource("admissionregistration.k8s.io",
                                             type == WebhookType::kMutating
                                                 ? "mutatingwebhookconfigurations"
                                                 : "validatingwebhookconfigurations")) {}

  std::shared_ptr<const std::vector<Webhook>> Load() const {
    // Read before listing: a write in between makes the next call list again.
    const std::uint64_t last_write = store_->LastWrite(resource_);
    {
      MutexLock lock(&mu_);
      if (hooks_ != nullptr && last_write == parsed_at_) return hooks_;
    }
    Result<store::ListResult> list = store_->List(resource_, store::ListOptions{});
    if (!list.ok()) return std::make_shared<const std::vector<Webhook>>();
    auto hooks = std::make_shared<std::vector<Webhook>>();
    // The store lists by name: upstream also orders configurations by name.
    for (const store::ObjectPtr& item : list->items) {
      std::vector<Webhook> parsed = ParseWebhookConfiguration(item->document(), type_);
      hooks->insert(hooks->end(), parsed.begin(), parsed.end());
    }
    MutexLock lock(&mu_);
    hooks_ = std::move(hooks);
    parsed_at_ = last_write;
    return hooks_;
  }

 private:
  store::Store* store_;
  WebhookType type_;
  const api::ResourceInfo& resource_;
  mutable Mutex mu_;
  mutable std::uint64_t parsed_at_ GUARDED_BY(mu_) = 0;  // LastWrite when hooks_ was parsed
  mutable std::shared_ptr<const std::vector<Webhook>> hooks_ GUARDED_BY(mu_);
};

class WebhookAdmission final : public admission::AdmissionPlugin {
 public:
  explicit WebhookAdmission(WebhookAdmissionOptions options)
      : options_(std::move(options)),
        mutating_(options_.store, WebhookType::kMutating),
        validating_(options_.store, WebhookType::kValidating) {}

  std::string_view Name() const override { return "AdmissionWebhooks"; }

  bool Handles(const api::ResourceInfo& resource, std::string_view subresource) const override {
    if (IsExemptFromWebhooks(resource.group, resource.kind)) return false;
    for (const WebhookSource* source : {&mutating_, &validating_}) {
      for (const Webhook& hook : *source->Load()) {
        if (WebhookMayHandle(hook, resource.group, resource.version, resource.resource,
                             subresource)) {
          return true;
        }
      }
    }
    return false;
  }

  Status Mutate(admission::AdmissionRequest& request) override {
    std::shared_ptr<const std::vector<Webhook>> hooks = mutating_.Load();
    std::optional<api::StringMap> namespace_labels;
    for (const Webhook& hook : *hooks) {
      ASSIGN_OR_RETURN(bool call, Selects(hook, request, &namespace_labels));
      if (!call) continue;
      ASSIGN_OR_RETURN(std::optional<WebhookVerdict> verdict, Call(hook, request));
      if (!verdict.has_value()) continue;  // failed open
      RETURN_IF_ERROR(ApplyVerdict(hook, *verdict, request));
    }
    return Status::Ok();
  }

  Status Validate(const admission::AdmissionRequest& request) override {
    std::shared_ptr<const std::vector<Webhook>> hooks = validating_.Load();
    std::optional<api::StringMap> namespace_labels;
    Status first = Status::Ok();
    for (const Webhook& hook : *hooks) {
      Status outcome = ValidateWith(hook, request, &namespace_labels);
      if (!outcome.ok() && first.ok()) first = std::move(outcome);
    }
    return first;
  }

 private:
  static WebhookMatchRequest MatchRequestOf(const admission::AdmissionRequest& request) {
    WebhookMatchRequest match;
    match.operation = std::string(admission::OperationName(request.operation));
    match.group = request.resource->group;
    match.version = request.resource->version;
    match.resource = request.resource->resource;
    match.subresource = request.subresource;
    match.kind = request.resource->kind;
    match.namespace_ = request.namespace_;
    match.object = request.object;
    match.old_object = request.old_object;
    return match;
  }

  // Whether `hook` selects `request`, reading the Namespace's labels once when a selector needs
  // them. A missing namespace is its 404, as upstream answers.
  Result<bool> Selects(const Webhook& hook, const admission::AdmissionRequest& request,
                       std::optional<api::StringMap>* namespace_labels) const {
    WebhookMatchRequest match = MatchRequestOf(request);
    if (NeedsNamespaceLabels(hook, match) && !namespace_labels->has_value()) {
      const api::ResourceInfo& namespaces = admission::BuiltinResource("", "namespaces");
      ASSIGN_OR_RETURN(store::ObjectPtr ns, options_.store->Get(namespaces, "", match.namespace_));
      *namespace_labels = ObjectLabels(&ns->document());
    }
    return ShouldCallWebhook(hook, match,
                             namespace_labels->has_value() ? &**namespace_labels : nullptr);
  }

  std::string NewUid() {
    std::uint64_t n = ++uid_counter_;
    char buffer[40];
    std::snprintf(buffer, sizeof buffer, "00000000-0000-4000-8000-%012llx",
                  static_cast<unsigned long long>(n & 0xffffffffffffULL));
    return buffer;
  }

  ReviewRequest ReviewRequestOf(const admission::AdmissionRequest& request) {
    ReviewRequest review;
    static_cast<WebhookMatchRequest&>(review) = MatchRequestOf(request);
    review.uid = NewUid();
    review.name = request.name;
    review.dry_run = request.dry_run;
    review.field_manager = request.field_manager;
    review.old_version = request.old_version;
    review.user = request.user;
    return review;
  }

  // Posts the review and checks the answer. A failure is a call failure (failurePolicy
  // decides) unless it is the dry-run refusal.
  Result<WebhookVerdict> Exchange(const Webhook& hook, const ReviewRequest& review) {
    if (hook.endpoint.url.empty()) {
      return Status::Internal(
          "could not get REST client: the webhook's clientConfig names no "
          "url or service, or its caBundle is not base64");
    }
    if (!options_.caller) {
      return Status::Internal("failed to call webhook: no webhook transport in this server");
    }
    Result<Json> answer =
        options_.caller(hook.endpoint, BuildAdmissionReview(review), hook.timeout);
    if (!answer.ok()) {
      return Status::Internal("failed to call webhook: " + answer.status().message());
    }
    ASSIGN_OR_RETURN(WebhookVerdict verdict, ReadAdmissionReview(*answer, review.uid, hook.type));
    if (!verdict.patch.is_null() && verdict.patch_type != "JSONPatch") {
      return Status::Internal("unsupported patch type " + api::GoQuote(verdict.patch_type));
    }
    return verdict;
  }

  // The checked answer of `hook`, nullopt when the call failed and the webhook fails open.
  Result<std::optional<WebhookVerdict>> Call(const Webhook& hook,
                                             const admission::AdmissionRequest& request) {
    if (request.dry_run && !SideEffectsAllowDryRun(hook.side_effects)) {
      if (!hook.side_effects.empty()) return WebhookDryRunUnsupported(hook.name);
    }
    Result<WebhookVerdict> verdict =
        request.dry_run && hook.side_effects.empty()
            ? Result<WebhookVerdict>(Status::Internal("Webhook SideEffects is nil"))
            : Exchange(hook, ReviewRequestOf(request));
    if (verdict.ok()) {
      if (request.warnings != nullptr) {
        request.warnings->insert(request.warnings->end(), verdict->warnings.begin(),
                                 verdict->warnings.end());
      }
      return std::optional<WebhookVerdict>(std::move(*verdict));
    }
    if (!hook.fail_open) {
      Logger("apiserver")
          ->warn("Failed calling webhook, failing closed {}: {}", hook.name,
                 verdict.status().message());
      return WebhookCallFailed(hook.name, verdict.status().message());
    }
    Logger("apiserver")
        ->warn("Failed calling webhook, failing open {}: {}", hook.name,
               verdict.status().message());
    return std::optional<WebhookVerdict>();
  }

  // Rejects on a denial; applies a mutating webhook's JSON patch to the request's object.
  static Status ApplyVerdict(const Webhook& hook, const WebhookVerdict& verdict,
                             admission::AdmissionRequest& request) {
    if (!verdict.allowed) return WebhookDenied(hook.name, verdict.status);
    if (verdict.patch.is_null() || verdict.patch.empty()) return Status::Ok();
    if (request.object == nullptr) {
      return Status::Internal("Internal error occurred: admission webhook " +
                              api::GoQuote(hook.name) +
                              " attempted to modify the object, which is not supported for "
                              "this operation");
    }
    Result<Json> patched = internal::ApplyJsonPatchDetailed(*request.object, verdict.patch);
    if (!patched.ok()) {
      return Status::Internal("Internal error occurred: " + patched.status().message());
    }
    if (!patched->is_object()) {
      return Status::Internal("Internal error occurred: admission webhook " +
                              api::GoQuote(hook.name) + " patched the object into a " +
                              std::string(patched->type_name()));
    }
    *request.object = std::move(*patched);
    return Status::Ok();
  }

  Status ValidateWith(const Webhook& hook, const admission::AdmissionRequest& request,
                      std::optional<api::StringMap>* namespace_labels) {
    ASSIGN_OR_RETURN(bool call, Selects(hook, request, namespace_labels));
    if (!call) return Status::Ok();
    ASSIGN_OR_RETURN(std::optional<WebhookVerdict> verdict, Call(hook, request));
    if (!verdict.has_value() || verdict->allowed) return Status::Ok();
    return WebhookDenied(hook.name, verdict->status);
  }

  WebhookAdmissionOptions options_;
  WebhookSource mutating_;
  WebhookSource validating_;
  std::atomic<std::uint64_t> uid_counter_{0};
};

}  // namespace

std::shared_ptr<admission::AdmissionPlugin> NewWebhookAdmission(WebhookAdmissionOptions options) {
  LWS_ASSERT(options.store != nullptr, "webhook admission needs the store");
  return std::make_shared<WebhookAdmission>(std::move(options));
}

}  // namespace lws::apiserver
