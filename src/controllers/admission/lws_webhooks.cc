// File: controllers/admission/lws_webhooks.cc
#include "controllers/admission/lws_webhooks.h"

#include <string>
#include <utility>

#include "api/codec.h"
#include "api/lws_defaults.h"
#include "api/lws_types.h"
#include "api/lws_validation.h"
#include "api/pod.h"
#include "controllers/admission/disaggregatedset_webhook.h"
#include "controllers/admission/webhook_denial.h"

namespace lws::controllers {
namespace {

using admission::AdmissionOperation;
using admission::AdmissionRequest;

using Wording = DenialWording;

constexpr std::string_view kMutateLws = "mleaderworkerset.kb.io";
constexpr std::string_view kValidateLws = "vleaderworkerset.kb.io";
constexpr std::string_view kMutatePod = "mpod.kb.io";
constexpr std::string_view kValidatePod = "vpod.kb.io";

class LwsWebhook final : public admission::AdmissionPlugin {
 public:
  explicit LwsWebhook(Wording wording) : wording_(wording) {}

  std::string_view Name() const override { return "LeaderWorkerSetWebhook"; }

  bool Handles(const api::ResourceInfo& resource, std::string_view subresource) const override {
    return subresource.empty() && resource.group == api::kLwsGroup &&
           resource.version == api::kLwsVersion && resource.resource == "leaderworkersets";
  }

  Status Mutate(AdmissionRequest& request) override {
    if (!CreateOrUpdate(request)) return Status::Ok();
    const admission::Decoded<api::LeaderWorkerSet>& decoded = request.Typed<api::LeaderWorkerSet>();
    // In-process, an object of the wrong shape is left to the server's schema check, which names
    // the field in its own words; the webhook server answers 400 as controller-runtime does.
    if (!decoded.errors.empty()) {
      if (wording_ == Wording::kApiServer) return Status::Ok();
      return Undecodable(wording_, kMutateLws, decoded.errors);
    }
    api::LeaderWorkerSet lws = decoded.value;
    api::DefaultLeaderWorkerSet(&lws);
    *request.object = api::Encode(lws);
    return Status::Ok();
  }

  Status Validate(const AdmissionRequest& request) override {
    if (!CreateOrUpdate(request)) return Status::Ok();
    const admission::Decoded<api::LeaderWorkerSet>& decoded = request.Typed<api::LeaderWorkerSet>();
    if (!decoded.errors.empty()) return Undecodable(wording_, kValidateLws, decoded.errors);
    api::ErrorList errors;
    if (request.old_object == nullptr) {
      errors = api::ValidateLeaderWorkerSet(decoded.value);
    } else {
      // managedFields are left out: no rule reads them.
      Result<std::shared_ptr<const api::LeaderWorkerSet>> old =
          request.OldTyped<api::LeaderWorkerSet>();
      if (!old.ok()) {
        return Denied(wording_, kValidateLws, Status(Code::kBadRequest, old.status().message()));
      }
      errors = api::ValidateLeaderWorkerSetUpdate(decoded.value, **old);
    }
    if (errors.empty()) return Status::Ok();
    return DeniedByFieldErrors(wording_, kValidateLws, errors);
  }

 private:
  Wording wording_;
};

// The webhooks' objectSelector: the label leaderworkerset.sigs.k8s.io/name exists.
bool HasSetNameLabel(const api::Json* pod) {
  if (pod == nullptr) return false;
  auto metadata = pod->find("metadata");
  if (metadata == pod->end() || !metadata->is_object()) return false;
  auto labels = metadata->find("labels");
  return labels != metadata->end() && labels->is_object() && labels->contains(api::kSetNameLabel);
}

class PodWebhook final : public admission::AdmissionPlugin {
 public:
  PodWebhook(api::PodMutationOptions options, Wording wording)
      : options_(options), wording_(wording) {}

  std::string_view Name() const override { return "PodWebhook"; }

  bool Handles(const api::ResourceInfo& resource, std::string_view subresource) const override {
    return subresource.empty() && resource.group.empty() && resource.version == "v1" &&
           resource.resource == "pods";
  }

  Status Mutate(AdmissionRequest& request) override {
    if (request.operation != AdmissionOperation::kCreate || !HasSetNameLabel(request.object)) {
      return Status::Ok();
    }
    const admission::Decoded<api::Pod>& decoded = request.Typed<api::Pod>();
    if (!decoded.errors.empty()) return Undecodable(wording_, kMutatePod, decoded.errors);
    api::Pod pod = decoded.value;
    // The API server names the pod's namespace from the URL; the webhook reads it from the pod.
    if (pod.metadata.namespace_.empty()) pod.metadata.namespace_ = request.namespace_;
    if (Status mutated = api::MutateLwsPod(&pod, options_); !mutated.ok()) {
      return Denied(wording_, kMutatePod, mutated);
    }
    *request.object = api::Encode(pod);
    return Status::Ok();
  }

  Status Validate(const AdmissionRequest& request) override {
    if (!CreateOrUpdate(request)) return Status::Ok();
    // On update the selector matches when either the old or the new object has the label.
    if (!HasSetNameLabel(request.object) && !HasSetNameLabel(request.old_object)) {
      return Status::Ok();
    }
    const admission::Decoded<api::Pod>& decoded = request.Typed<api::Pod>();
    if (!decoded.errors.empty()) return Undecodable(wording_, kValidatePod, decoded.errors);
    if (Status admitted = api::ValidateLwsPod(decoded.value); !admitted.ok()) {
      return Denied(wording_, kValidatePod, admitted);
    }
    return Status::Ok();
  }

 private:
  api::PodMutationOptions options_;
  Wording wording_;
};

}  // namespace

std::shared_ptr<admission::AdmissionPlugin> LwsWebhookPlugin(DenialWording wording) {
  return std::make_shared<LwsWebhook>(wording);
}

std::shared_ptr<admission::AdmissionPlugin> PodWebhookPlugin(api::PodMutationOptions options,
                                                             DenialWording wording) {
  return std::make_shared<PodWebhook>(options, wording);
}

void InstallLwsWebhooks(admission::AdmissionChain* chain,
                        const api::PodMutationOptions& pod_options) {
  chain->Add(LwsWebhookPlugin());
  chain->Add(PodWebhookPlugin(pod_options));
  chain->Add(DisaggregatedSetWebhookPlugin());
}

}  // namespace lws::controllers
