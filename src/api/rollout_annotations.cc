#include "api/rollout_annotations.h"

#include "api/go_duration.h"

namespace lws::api {
namespace {

// Shorter than 10 s is below the time any group takes to start; longer than a day is no deadline.
constexpr Duration kMinDeadline = std::chrono::seconds(10);
constexpr Duration kMaxDeadline = std::chrono::hours(24);

Result<Duration> ParseDeadline(const std::string& text) {
  ASSIGN_OR_RETURN(Duration d, ParseGoDuration(text));
  if (d < kMinDeadline || d > kMaxDeadline) return Status::BadRequest("must be between 10s and 24h");
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

}  // namespace

RolloutBehaviours ReadRolloutBehaviours(const ObjectMeta& meta) {
  RolloutBehaviours b;
  b.progress_deadline = DeadlineAt(meta, kProgressDeadlineAnnotation);
  b.surge_fallback_after = DeadlineAt(meta, kSurgeFallbackAfterAnnotation);
  b.surge_fallback_release = meta.Annotation(kSurgeFallbackReleaseAnnotation) == "true";
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
  Json value;
  if (state) {
    value = Json{{"revision", state->revision}, {"maxSurge", state->max_surge},
                 {"maxUnavailable", state->max_unavailable}, {"reason", state->reason}}
                .dump();
  }
  return {{"metadata",
           {{"resourceVersion", resource_version},
            {"annotations", {{kSurgeFallbackAnnotation, std::move(value)}}}}}};
}

ErrorList ValidateRolloutAnnotations(const LeaderWorkerSet& lws) {
  ErrorList errs;
  const StringMap& annotations = lws.metadata.annotations;
  auto path = [](const std::string& key) {
    return FieldPath("metadata").Child("annotations").Key(key);
  };
  for (const std::string& key : {kProgressDeadlineAnnotation, kSurgeFallbackAfterAnnotation}) {
    auto it = annotations.find(key);
    if (it == annotations.end()) continue;
    if (Result<Duration> d = ParseDeadline(it->second); !d.ok()) {
      errs.push_back(Invalid(path(key), it->second, d.status().message()));
    }
  }
  if (auto it = annotations.find(kSurgeFallbackReleaseAnnotation);
      it != annotations.end() && it->second != "true" && it->second != "false") {
    errs.push_back(Invalid(path(kSurgeFallbackReleaseAnnotation), it->second,
                           "must be \"true\" or \"false\""));
  }
  if (auto it = annotations.find(kSurgeFallbackAnnotation); it != annotations.end()) {
    if (Result<SurgeFallbackState> s = ParseState(it->second); !s.ok()) {
      errs.push_back(Invalid(path(kSurgeFallbackAnnotation), it->second, s.status().message()));
    }
  }
  return errs;
}

}  // namespace lws::api
