#include "api/lws_validation.h"

#include <limits>

#include "api/group_restarts.h"
#include "api/object_meta_validation.h"
#include "api/rollout_annotations.h"

namespace lws::api {

namespace {

// Go prints an intstr.IntOrString passed by value as a struct dump (%#v), since its String()
// method has a pointer receiver. Reproduce that text.
std::string GoIntOrString(const IntOrString& v) {
  return "intstr.IntOrString{Type:" + std::to_string(v.is_string() ? 1 : 0) +
         ", IntVal:" + std::to_string(v.is_string() ? 0 : v.int_value()) +
         ", StrVal:" + GoQuote(v.is_string() ? v.string_value() : "") + "}";
}

void ValidateNonNegative(std::int64_t value, const FieldPath& path, ErrorList* errs) {
  if (value < 0) errs->push_back(Invalid(path, value, "must be greater than or equal to 0"));
}

}  // namespace

FieldError InvalidIntOrString(const FieldPath& path, const IntOrString& v, std::string detail) {
  FieldError e = Invalid(path, Json(), std::move(detail));
  e.rendered_value = GoIntOrString(v);
  return e;
}

// validatePositiveIntOrPercent + isNotMoreThan100Percent (V6-V8).
void ValidateIntOrPercent(const IntOrString& v, const FieldPath& path, ErrorList* errs) {
  if (v.is_string()) {
    auto problems = IsValidPercent(v.string_value());
    for (auto& p : problems) errs->push_back(InvalidIntOrString(path, v, p));
    if (problems.empty()) {
      auto percent =
          GoAtoi(std::string_view(v.string_value()).substr(0, v.string_value().size() - 1));
      if (percent.ok() && *percent > 100) {
        errs->push_back(InvalidIntOrString(path, v, "must not be greater than 100%"));
      }
    }
  } else {
    ValidateNonNegative(v.int_value(), path, errs);
  }
}

namespace {

const FieldPath kSpec("spec");
const FieldPath kRollingUpdatePath =
    kSpec.Child("rolloutStrategy").Child("rollingUpdateConfiguration");
// Upstream spells this path with a capital S; kept for message compatibility.
const FieldPath kSubGroupSizePath =
    kSpec.Child("leaderWorkerTemplate").Child("SubGroupPolicy").Child("subGroupSize");

Json OptionalInt(const std::optional<std::int32_t>& v) { return v ? Json(*v) : Json(); }

void ValidateRollingUpdate(const LeaderWorkerSet& lws, ErrorList* errs) {
  const auto& config = lws.spec.rollout_strategy.rolling_update_configuration;
  if (!config) return;
  const FieldPath mu_path = kRollingUpdatePath.Child("maxUnavailable");
  const FieldPath ms_path = kRollingUpdatePath.Child("maxSurge");
  ValidateIntOrPercent(config->max_unavailable, mu_path, errs);
  ValidateIntOrPercent(config->max_surge, ms_path, errs);
  ValidateNonNegative(config->partition.value_or(0), kRollingUpdatePath.Child("partition"), errs);

  const std::int64_t replicas = lws.Replicas();
  auto max_unavailable = GetScaledValueFromIntOrPercent(config->max_unavailable, replicas, false);
  if (!max_unavailable.ok())
    errs->push_back(InvalidIntOrString(mu_path, config->max_unavailable, "invalid value"));
  auto max_surge = GetScaledValueFromIntOrPercent(config->max_surge, replicas, true);
  if (!max_surge.ok())
    errs->push_back(InvalidIntOrString(ms_path, config->max_surge, "invalid value"));
  // An unparsable value counts as 0 here, as in upstream (the value is unset on error).
  const std::int64_t mu = max_unavailable.ok() ? *max_unavailable : 0;
  const std::int64_t ms = max_surge.ok() ? *max_surge : 0;
  if (mu == 0 && ms == 0 && replicas != 0) {
    errs->push_back(
        InvalidIntOrString(mu_path, config->max_unavailable, "must not be 0 when `maxSurge` is 0"));
  }
}

void ValidateSubGroupPolicy(const LeaderWorkerSet& lws, ErrorList* errs) {
  const auto& policy = lws.spec.leader_worker_template.sub_group_policy;
  if (!policy) {
    auto it = lws.metadata.annotations.find(kSubGroupExclusiveKeyAnnotation);
    if (it != lws.metadata.annotations.end()) {
      errs->push_back(
          Invalid(FieldPath("metadata").Child("annotations").Child(kSubGroupExclusiveKeyAnnotation),
                  it->second, "cannot have subgroup-exclusive-topology without subGroupSize set"));
    }
    return;
  }
  if (!policy->sub_group_size) {
    // The reference webhook dereferences a nil subGroupSize and the request fails (Q12).
    errs->push_back(
        Required(kSubGroupSizePath, "subGroupSize must be set when subGroupPolicy is set"));
    return;
  }
  const std::int32_t size = lws.Size();
  const std::int32_t sgs = *policy->sub_group_size;
  if (sgs < 1) {
    // Upstream would divide by zero below (Q12); stop after the range error.
    errs->push_back(
        Invalid(kSubGroupSizePath, sgs, "subGroupSize must be equal or greater than 1"));
    if (sgs == 0) return;
  }
  if (size % sgs != 0 && (size - 1) % sgs != 0) {
    errs->push_back(
        Invalid(kSubGroupSizePath, sgs, "size or size - 1 must be divisible by subGroupSize"));
  }
  if (size < sgs)
    errs->push_back(Invalid(kSubGroupSizePath, sgs, "subGroupSize cannot be larger than size"));
  if (policy->type && *policy->type == kSubGroupLeaderExcluded && (size - 1) % sgs != 0) {
    errs->push_back(Invalid(kSubGroupSizePath, sgs,
                            "size-1 must be divisible by subGroupSize when using LeaderExcluded"));
  }
}

// "" is Ordinal (upstream normalizeGroupIdentity).
std::string GroupIdentity(const LeaderWorkerSet& lws) {
  return lws.spec.group_identity.empty() ? kGroupIdentityOrdinal : lws.spec.group_identity;
}

// Upstream ValidateGroupIdentity (KEP 898), with its messages.
void ValidateGroupIdentity(const LeaderWorkerSet& lws, ErrorList* errs) {
  const FieldPath identity_path = kSpec.Child("groupIdentity");
  const std::string identity = GroupIdentity(lws);
  const std::string& policy = lws.spec.group_replacement_policy;
  if (identity != kGroupIdentityOrdinal && identity != kGroupIdentityHash) {
    errs->push_back(
        NotSupported(identity_path, identity, {kGroupIdentityOrdinal, kGroupIdentityHash}));
    return;
  }
  if (!policy.empty() && policy != kGroupReplacementPostTermination &&
      policy != kGroupReplacementImmediate) {
    errs->push_back(NotSupported(kSpec.Child("groupReplacementPolicy"), policy,
                                 {kGroupReplacementImmediate, kGroupReplacementPostTermination}));
  }
  if (identity != kGroupIdentityHash) {
    if (policy == kGroupReplacementImmediate) {
      errs->push_back(Invalid(kSpec.Child("groupReplacementPolicy"), policy,
                              "Immediate is only supported with groupIdentity Hash"));
    }
    return;
  }
  if (!lws.spec.leader_worker_template.volume_claim_templates.empty()) {
    errs->push_back(Invalid(identity_path, identity,
                            "volumeClaimTemplates are not supported with groupIdentity Hash"));
  }
  const auto& config = lws.spec.rollout_strategy.rolling_update_configuration;
  if (config && config->partition.value_or(0) != 0) {
    errs->push_back(
        Invalid(identity_path, identity,
                "rollingUpdateConfiguration.partition is not supported with groupIdentity Hash"));
  }
  // Ours: the leader Deployment refuses maxUnavailable and maxSurge both 0 whatever its replicas
  // (a percentage read as its number); the check above spares replicas 0, which would leave the
  // Deployment failing to apply until the LWS changes.
  if (config && lws.Replicas() == 0) {
    auto zero = [](const IntOrString& v) {
      Result<std::int64_t> as_number = GetScaledValueFromIntOrPercent(v, 100, true);
      return as_number.ok() && *as_number == 0;
    };
    if (zero(config->max_unavailable) && zero(config->max_surge)) {
      errs->push_back(
          InvalidIntOrString(kRollingUpdatePath.Child("maxUnavailable"), config->max_unavailable,
                             "must not be 0 when `maxSurge` is 0 with groupIdentity Hash"));
    }
  }
  // Ours: the opt-in rollout behaviours and group-restart budgets act on the leader StatefulSet
  // and on group indexes, which Hash mode has neither of (the Deployment rolls the groups, and a
  // recreated group gets a new key). Refused rather than ignored; upstream refuses its own
  // maxGroupRestarts with Hash the same way. The pause is honoured (the Deployment is paused).
  for (const std::string& key :
       {kProgressDeadlineAnnotation, kSurgeFallbackAfterAnnotation, kSurgeFallbackReleaseAnnotation,
        kRolloutBeforeScaleUpAnnotation, kCapacityHandOffAnnotation, kFailurePolicyAnnotation,
        kFailureThresholdAnnotation, kMaxGroupRestartsAnnotation, kGroupRestartBackoffAnnotation}) {
    if (auto it = lws.metadata.annotations.find(key); it != lws.metadata.annotations.end()) {
      errs->push_back(Invalid(FieldPath("metadata").Child("annotations").Key(key), it->second,
                              "is not supported with groupIdentity Hash"));
    }
  }
}

}  // namespace

ErrorList ValidateLeaderWorkerSet(const LeaderWorkerSet& lws) {
  // V1: the name also names the headless Service, so it must be a DNS-1035 label.
  ErrorList errs = ValidateObjectMeta(lws.metadata, NameRule::kDNS1035Label, FieldPath("metadata"));
  const std::int64_t replicas = lws.Replicas();
  const std::int64_t size = lws.Size();
  if (replicas < 0) {
    errs.push_back(Invalid(kSpec.Child("replicas"), OptionalInt(lws.spec.replicas),
                           "replicas must be equal or greater than 0"));
  }
  if (replicas > 1'000'000) {
    errs.push_back(Invalid(kSpec.Child("replicas"), OptionalInt(lws.spec.replicas),
                           "replicas must be equal or less than 1000000"));
  }
  if (size < 1) {
    errs.push_back(Invalid(kSpec.Child("leaderWorkerTemplate").Child("size"),
                           OptionalInt(lws.spec.leader_worker_template.size),
                           "size must be equal or greater than 1"));
  }
  if (replicas * size > std::numeric_limits<std::int32_t>::max()) {
    errs.push_back(
        Invalid(kSpec.Child("replicas"), OptionalInt(lws.spec.replicas),
                "the product of replicas and worker replicas must not exceed 2147483647"));
  }
  ValidateRollingUpdate(lws, &errs);
  ValidateSubGroupPolicy(lws, &errs);
  ValidateGroupIdentity(lws, &errs);
  // Ours, not upstream's: the opt-in restart budget and backoff (group_restarts.h).
  ErrorList restarts = ValidateGroupRestartAnnotations(lws);
  errs.insert(errs.end(), restarts.begin(), restarts.end());
  ErrorList rollout = ValidateRolloutAnnotations(lws);
  errs.insert(errs.end(), rollout.begin(), rollout.end());
  return errs;
}

ErrorList ValidateLeaderWorkerSetUpdate(const LeaderWorkerSet& updated,
                                        const LeaderWorkerSet& old) {
  ErrorList errs = ValidateLeaderWorkerSet(updated);
  const auto& new_policy = updated.spec.leader_worker_template.sub_group_policy;
  const auto& old_policy = old.spec.leader_worker_template.sub_group_policy;
  auto size_of = [](const std::optional<SubGroupPolicy>& p) {
    return p && p->sub_group_size ? Json(*p->sub_group_size) : Json();
  };
  if (new_policy && old_policy && size_of(new_policy) != size_of(old_policy)) {
    errs.push_back(Invalid(kSubGroupSizePath, size_of(new_policy), "field is immutable"));
  }
  if (new_policy && !old_policy) {
    errs.push_back(Invalid(kSubGroupSizePath, size_of(new_policy),
                           "cannot enable subGroupSize after the lws is already created"));
  }
  if (!new_policy && old_policy) {
    errs.push_back(Invalid(kSubGroupSizePath, size_of(old_policy),
                           "cannot remove subGroupSize after enabled"));
  }
  if (GroupIdentity(updated) != GroupIdentity(old)) {
    errs.push_back(Invalid(kSpec.Child("groupIdentity"), updated.spec.group_identity,
                           "groupIdentity is immutable"));
  }
  const auto& network = updated.spec.network_config;
  if (network && !network->subdomain_policy) {
    Json old_value = old.spec.network_config && old.spec.network_config->subdomain_policy
                         ? Json(*old.spec.network_config->subdomain_policy)
                         : Json();
    errs.push_back(Invalid(kSpec.Child("networkConfig").Child("subdomainPolicy"), old_value,
                           "cannot set subdomainPolicy as null"));
  }
  return errs;
}

}  // namespace lws::api
