#include "api/rollout_annotations.h"

#include "api/go_duration.h"
#include "api/name_validation.h"

namespace lws::api {
namespace {

// Shorter than 10 s is below the time any group takes to start; longer than a day is no deadline.
constexpr Duration kMinDeadline = std::chrono::seconds(10);
constexpr Duration kMaxDeadline = std::chrono::hours(24);

Result<Duration> ParseDeadline(const std::string& text) {
  ASSIGN_OR_RETURN(Duration d, ParseGoDuration(text));
  if (d < kMinDeadline || d > kMaxDeadline)
    return Status::BadRequest("must be between 10s and 24h");
  return d;
}

std::optional<Duration> DeadlineAt(const ObjectMeta& meta, const std::string& key) {
  auto it = meta.annotations.find(key);
  if (it == meta.annotations.end()) return std::nullopt;
  Result<Duration> d = ParseDeadline(it->second);
  return d.ok() ? std::optional<Duration>(*d) : std::nullopt;
}

Result<SurgeFallbackState> ParseState(const std::string& text) {
  Json doc = Json::parse(text, nullptr, /*allow_exceptions=*/false);
  auto count = [&](const char* key) {
    return doc.contains(key) && doc[key].is_number_integer() && doc[key].get<std::int64_t>() >= 0 &&
           doc[key].get<std::int64_t>() <= 1'000'000;
  };
  if (!doc.is_object() || !doc.contains("revision") || !doc["revision"].is_string() ||
      !count("maxSurge") || !count("maxUnavailable") ||
      (doc.contains("reason") && !doc["reason"].is_string())) {
    return Status::BadRequest(
        "must be a JSON object with revision (a string), maxSurge and maxUnavailable (integers "
        ">= 0) and reason (a string)");
  }
  return SurgeFallbackState{doc["revision"].get<std::string>(), doc["maxSurge"].get<std::int32_t>(),
                            doc["maxUnavailable"].get<std::int32_t>(), doc.value("reason", "")};
}

std::optional<std::int32_t> ParseThreshold(const std::string& text) {
  if (text.empty() || text.size() > 6 ||
      text.find_first_not_of("0123456789") != std::string::npos) {
    return std::nullopt;
  }
  const std::int32_t value = std::stoi(text);
  return value >= 1 ? std::optional<std::int32_t>(value) : std::nullopt;
}

Result<FailedRevision> ParseFailed(const std::string& text) {
  Json doc = Json::parse(text, nullptr, /*allow_exceptions=*/false);
  auto str = [&](const char* key, bool required) {
    return doc.contains(key) ? doc[key].is_string() : !required;
  };
  if (!doc.is_object() || !str("revision", true) || !str("policy", true) ||
      !str("rolledBackTo", false) || !str("reason", false)) {
    return Status::BadRequest(
        "must be a JSON object with revision and policy (strings), and "
        "rolledBackTo and reason (strings)");
  }
  return FailedRevision{doc["revision"].get<std::string>(), doc["policy"].get<std::string>(),
                        doc.value("rolledBackTo", ""), doc.value("reason", "")};
}

}  // namespace

std::optional<FailedRevision> ReadFailedRevision(const ObjectMeta& meta) {
  auto it = meta.annotations.find(kFailedRevisionAnnotation);
  if (it == meta.annotations.end()) return std::nullopt;
  Result<FailedRevision> failed = ParseFailed(it->second);
  return failed.ok() ? std::optional<FailedRevision>(*failed) : std::nullopt;
}

std::string EncodeFailedRevision(const FailedRevision& f) {
  Json doc = {{"revision", f.revision}, {"policy", f.policy}, {"reason", f.reason}};
  if (!f.rolled_back_to.empty()) doc["rolledBackTo"] = f.rolled_back_to;
  return doc.dump();
}

bool AnnotationFlag(const ObjectMeta& meta, const std::string& key) {
  return meta.Annotation(key) == "true";
}

RolloutBehaviours ReadRolloutBehaviours(const ObjectMeta& meta) {
  RolloutBehaviours b;
  b.progress_deadline = DeadlineAt(meta, kProgressDeadlineAnnotation);
  b.surge_fallback_after = DeadlineAt(meta, kSurgeFallbackAfterAnnotation);
  b.surge_fallback_release = AnnotationFlag(meta, kSurgeFallbackReleaseAnnotation);
  b.rollout_before_scale_up = AnnotationFlag(meta, kRolloutBeforeScaleUpAnnotation);
  b.capacity_hand_off = DeadlineAt(meta, kCapacityHandOffAnnotation);
  if (const std::string& name = meta.Annotation(kHandOffPriorityClassAnnotation);
      IsDNS1123Subdomain(name).empty()) {
    b.hand_off_priority_class = name;
  }
  b.paused = AnnotationFlag(meta, kPausedAnnotation);
  const std::string& policy = meta.Annotation(kFailurePolicyAnnotation);
  if (policy == kFailurePolicyPause || policy == kFailurePolicyRollback) b.failure_policy = policy;
  if (auto t = ParseThreshold(meta.Annotation(kFailureThresholdAnnotation)))
    b.failure_threshold = *t;
  return b;
}

std::optional<SurgeFallbackState> ReadSurgeFallbackState(const ObjectMeta& meta) {
  auto it = meta.annotations.find(kSurgeFallbackAnnotation);
  if (it == meta.annotations.end()) return std::nullopt;
  Result<SurgeFallbackState> state = ParseState(it->second);
  return state.ok() ? std::optional<SurgeFallbackState>(*state) : std::nullopt;
}

Json SurgeFallbackPatch(const std::optional<SurgeFallbackState>& state,
                        const std::string& resource_version) {
  std::optional<std::string> value;
  if (state) {
    value = Json{{"revision", state->revision},
                 {"maxSurge", state->max_surge},
                 {"maxUnavailable", state->max_unavailable},
                 {"reason", state->reason}}
                .dump();
  }
  return AnnotationPatch(kSurgeFallbackAnnotation, value, resource_version);
}

ErrorList ValidateRolloutAnnotations(const LeaderWorkerSet& lws) {
  ErrorList errs;
  const StringMap& annotations = lws.metadata.annotations;
  auto path = [](const std::string& key) {
    return FieldPath("metadata").Child("annotations").Key(key);
  };
  for (const std::string& key :
       {kProgressDeadlineAnnotation, kSurgeFallbackAfterAnnotation, kCapacityHandOffAnnotation}) {
    auto it = annotations.find(key);
    if (it == annotations.end()) continue;
    if (Result<Duration> d = ParseDeadline(it->second); !d.ok()) {
      errs.push_back(Invalid(path(key), it->second, d.status().message()));
    }
  }
  for (const std::string& key :
       {kSurgeFallbackReleaseAnnotation, kRolloutBeforeScaleUpAnnotation, kPausedAnnotation}) {
    auto it = annotations.find(key);
    if (it != annotations.end() && it->second != "true" && it->second != "false") {
      errs.push_back(Invalid(path(key), it->second, "must be \"true\" or \"false\""));
    }
  }
  if (auto it = annotations.find(kHandOffPriorityClassAnnotation); it != annotations.end()) {
    for (const std::string& msg : IsDNS1123Subdomain(it->second)) {
      errs.push_back(Invalid(path(kHandOffPriorityClassAnnotation), it->second, msg));
    }
  }
  if (auto it = annotations.find(kFailurePolicyAnnotation); it != annotations.end() &&
                                                            it->second != kFailurePolicyPause &&
                                                            it->second != kFailurePolicyRollback) {
    errs.push_back(NotSupported(path(kFailurePolicyAnnotation), it->second,
                                {kFailurePolicyPause, kFailurePolicyRollback}));
  }
  if (auto it = annotations.find(kFailureThresholdAnnotation);
      it != annotations.end() && !ParseThreshold(it->second)) {
    errs.push_back(Invalid(path(kFailureThresholdAnnotation), it->second,
                           "must be an integer between 1 and 999999"));
  }
  if (auto it = annotations.find(kFailedRevisionAnnotation); it != annotations.end()) {
    if (Result<FailedRevision> f = ParseFailed(it->second); !f.ok()) {
      errs.push_back(Invalid(path(kFailedRevisionAnnotation), it->second, f.status().message()));
    }
  }
  if (auto it = annotations.find(kSurgeFallbackAnnotation); it != annotations.end()) {
    if (Result<SurgeFallbackState> s = ParseState(it->second); !s.ok()) {
      errs.push_back(Invalid(path(kSurgeFallbackAnnotation), it->second, s.status().message()));
    }
  }
  return errs;
}

}  // namespace lws::api
