// File: controllers/admission/disaggregatedset_webhook.cc
#include "controllers/admission/disaggregatedset_webhook.h"

#include "api/disaggregatedset_types.h"
#include "api/disaggregatedset_validation.h"
#include "controllers/admission/webhook_denial.h"

namespace lws::controllers {
namespace {

constexpr std::string_view kValidateDs = "vdisaggregatedset.kb.io";

class DisaggregatedSetWebhook final : public admission::AdmissionPlugin {
 public:
  explicit DisaggregatedSetWebhook(DenialWording wording) : wording_(wording) {}

  std::string_view Name() const override { return "DisaggregatedSetWebhook"; }

  bool Handles(const api::ResourceInfo& resource, std::string_view subresource) const override {
    return subresource.empty() && resource.group == api::kDsGroup && resource.version == "v1" &&
           resource.resource == api::kDsResource;
  }

  // Upstream's ValidateCreate and ValidateUpdate run the same checks on the new object.
  Status Validate(const admission::AdmissionRequest& request) override {
    if (!CreateOrUpdate(request)) return Status::Ok();
    const auto& decoded = request.Typed<api::DisaggregatedSet>();
    if (!decoded.errors.empty()) return Undecodable(wording_, kValidateDs, decoded.errors);
    api::DsValidation result = api::ValidateDisaggregatedSet(decoded.value);
    if (!result.errors.empty()) return DeniedByFieldErrors(wording_, kValidateDs, result.errors);
    if (request.warnings != nullptr) {
      request.warnings->insert(request.warnings->end(), result.warnings.begin(),
                               result.warnings.end());
    }
    return Status::Ok();
  }

 private:
  DenialWording wording_;
};

}  // namespace

std::shared_ptr<admission::AdmissionPlugin> DisaggregatedSetWebhookPlugin(DenialWording wording) {
  return std::make_shared<DisaggregatedSetWebhook>(wording);
}

}  // namespace lws::controllers
