// ValidateConfiguration: upstream's pkg/config/validation.go and tls.go, plus the leader
// election timing checks client-go's leaderelection.NewLeaderElector makes at start-up (the Go
// controller fails there with the same words; we fail while loading, before anything starts).
#include <algorithm>
#include <string>
#include <vector>

#include "api/go_duration.h"
#include "api/name_validation.h"
#include "api/object_meta_validation.h"
#include "config/configuration.h"
#include "config/tls_options.h"

namespace lws::config {
namespace {

using api::ErrorList;
using api::FieldPath;

// upstream schedulerprovider.SupportedSchedulerProviders.
const std::vector<std::string> kSupportedSchedulerProviders = {"volcano"};

// Upstream joins the DNS messages with "," (not "; " as object validation does).
std::string JoinComma(const std::vector<std::string>& messages) {
  std::string out;
  for (std::size_t i = 0; i < messages.size(); ++i) out += (i > 0 ? "," : "") + messages[i];
  return out;
}

// Upstream reports these at the bare path "schedulerProvider"; we name the full path so the
// message points into the file (gangSchedulingManagement.schedulerProvider).
void ValidateGangScheduling(const Configuration& c, ErrorList* errors) {
  if (!c.gang_scheduling_management) return;
  FieldPath path = FieldPath("gangSchedulingManagement").Child("schedulerProvider");
  const auto& provider = c.gang_scheduling_management->scheduler_provider;
  if (!provider || provider->empty()) {
    errors->push_back(api::Required(path, "must be set when gang scheduling is enabled"));
    return;
  }
  if (std::find(kSupportedSchedulerProviders.begin(), kSupportedSchedulerProviders.end(),
                *provider) == kSupportedSchedulerProviders.end()) {
    errors->push_back(api::NotSupported(path, *provider, kSupportedSchedulerProviders));
  }
}

void ValidateInternalCertManagement(const Configuration& c, ErrorList* errors) {
  // Names are only used by the internal rotator: with it disabled anything goes, as upstream.
  if (!c.internal_cert_management || !c.internal_cert_management->enable.value_or(false)) return;
  const InternalCertManagementConfig& certs = *c.internal_cert_management;
  FieldPath path("internalCertManagement");
  if (certs.webhook_service_name) {
    // The Service name becomes a DNS label of the certificate's name: <svc>.<ns>.svc.
    auto problems = api::IsDNS1035Label(*certs.webhook_service_name);
    if (!problems.empty()) {
      errors->push_back(api::Invalid(path.Child("webhookServiceName"), *certs.webhook_service_name,
                                     JoinComma(problems)));
    }
  }
  if (certs.webhook_secret_name) {
    auto problems = api::IsDNS1123Subdomain(*certs.webhook_secret_name);
    if (!problems.empty()) {
      errors->push_back(api::Invalid(path.Child("webhookSecretName"), *certs.webhook_secret_name,
                                     JoinComma(problems)));
    }
  }
}

void ValidateLeaderElection(const Configuration& c, ErrorList* errors) {
  if (!c.leader_election || !c.leader_election->leader_elect.value_or(false)) return;
  const LeaderElectionConfig& le = *c.leader_election;
  FieldPath path("leaderElection");
  auto invalid = [&](const char* field, Duration value, const char* detail) {
    errors->push_back(api::Invalid(path.Child(field), api::FormatGoDuration(value), detail));
  };
  if (le.lease_duration <= Duration::zero())
    invalid("leaseDuration", le.lease_duration, "leaseDuration must be greater than zero");
  if (le.renew_deadline <= Duration::zero())
    invalid("renewDeadline", le.renew_deadline, "renewDeadline must be greater than zero");
  if (le.retry_period <= Duration::zero())
    invalid("retryPeriod", le.retry_period, "retryPeriod must be greater than zero");
  if (!errors->empty()) return;
  if (le.lease_duration <= le.renew_deadline) {
    invalid("leaseDuration", le.lease_duration, "leaseDuration must be greater than renewDeadline");
  }
  // client-go's JitterFactor is 1.2: a renewal must fit at least one jittered retry.
  if (static_cast<double>(le.renew_deadline.count()) <=
      1.2 * static_cast<double>(le.retry_period.count())) {
    invalid("renewDeadline", le.renew_deadline,
            "renewDeadline must be greater than retryPeriod*JitterFactor");
  }
}

}  // namespace

ErrorList ValidateConfiguration(const Configuration& c) {
  ErrorList errors;
  ValidateGangScheduling(c, &errors);
  ValidateInternalCertManagement(c, &errors);
  if (c.tls) {
    ErrorList tls = ValidateTls(*c.tls, FieldPath("tls"));
    errors.insert(errors.end(), tls.begin(), tls.end());
  }
  ErrorList le;
  ValidateLeaderElection(c, &le);
  errors.insert(errors.end(), le.begin(), le.end());
  return errors;
}

}  // namespace lws::config
