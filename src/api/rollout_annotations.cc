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

}  // namespace

RolloutBehaviours ReadRolloutBehaviours(const ObjectMeta& meta) {
  RolloutBehaviours b;
  if (auto it = meta.annotations.find(kProgressDeadlineAnnotation); it != meta.annotations.end()) {
    if (Result<Duration> d = ParseDeadline(it->second); d.ok()) b.progress_deadline = *d;
  }
  return b;
}

ErrorList ValidateRolloutAnnotations(const LeaderWorkerSet& lws) {
  ErrorList errs;
  const StringMap& annotations = lws.metadata.annotations;
  if (auto it = annotations.find(kProgressDeadlineAnnotation); it != annotations.end()) {
    if (Result<Duration> d = ParseDeadline(it->second); !d.ok()) {
      errs.push_back(Invalid(FieldPath("metadata").Child("annotations").Key(kProgressDeadlineAnnotation),
                             it->second, d.status().message()));
    }
  }
  return errs;
}

}  // namespace lws::api
