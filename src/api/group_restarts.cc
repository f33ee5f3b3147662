#include "api/group_restarts.h"

#include <charconv>
#include <limits>

#include "api/go_duration.h"
#include "api/rollout_annotations.h"

namespace lws::api {
namespace {

const FieldPath kAnnotations = FieldPath("metadata").Child("annotations");

std::optional<std::int32_t> ParseCount(const std::string& text) {
  std::int32_t value = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (text.empty() || ec != std::errc() || ptr != end || value < 0) return std::nullopt;
  return value;
}

// The backoff's bounds: below a second it changes nothing a kubelet does; above an hour a group
// in a crash loop would look stuck rather than backed off.
constexpr Duration kMinBackoff = std::chrono::seconds(1);
constexpr Duration kMaxBackoff = std::chrono::hours(1);

Result<Duration> ParseBackoff(const std::string& text) {
  ASSIGN_OR_RETURN(Duration d, ParseGoDuration(text));
  if (d < kMinBackoff || d > kMaxBackoff) {
    return Status::BadRequest("must be between 1s and 1h");
  }
  return d;
}

Result<GroupRestartEntry> ParseEntry(const std::string& key, const Json& value) {
  if (key.find('/') == std::string::npos) {
    return Status::BadRequest("key " + GoQuote(key) + " is not <revision>/<groupIndex>");
  }
  if (!value.is_object())
    return Status::BadRequest("value of " + GoQuote(key) + " is not an object");
  GroupRestartEntry entry;
  for (const auto& [field, v] : value.items()) {
    if (field == "restarts" && v.is_number_integer() && v.get<std::int64_t>() >= 0 &&
        v.get<std::int64_t>() <= std::numeric_limits<std::int32_t>::max()) {
      entry.restarts = v.get<std::int32_t>();
    } else if (field == "exhausted" && v.is_boolean()) {
      entry.exhausted = v.get<bool>();
    } else {
      return Status::BadRequest("field " + GoQuote(field) + " of " + GoQuote(key) +
                                " is not restarts (a non-negative integer) or exhausted (a bool)");
    }
  }
  return entry;
}

Result<GroupRestartCounts> ParseCounts(const std::string& text) {
  Json doc = Json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!doc.is_object()) return Status::BadRequest("must be a JSON object");
  GroupRestartCounts counts;
  for (const auto& [key, value] : doc.items()) {
    ASSIGN_OR_RETURN(counts[key], ParseEntry(key, value));
  }
  return counts;
}

bool RecreatesGroups(const LeaderWorkerSet& lws) {
  const std::string& policy = lws.spec.leader_worker_template.restart_policy;
  return policy == kRecreateGroupOnPodRestart || policy == kRecreateGroupAfterStart;
}

}  // namespace

GroupRestartConfig ReadGroupRestartConfig(const ObjectMeta& meta) {
  GroupRestartConfig config;
  if (auto it = meta.annotations.find(kMaxGroupRestartsAnnotation); it != meta.annotations.end()) {
    config.max_restarts = ParseCount(it->second);
  }
  if (auto it = meta.annotations.find(kGroupRestartBackoffAnnotation);
      it != meta.annotations.end()) {
    if (Result<Duration> d = ParseBackoff(it->second); d.ok()) config.backoff = *d;
  }
  config.counted = meta.annotations.count(kFailurePolicyAnnotation) > 0;
  return config;
}

ErrorList ValidateGroupRestartAnnotations(const LeaderWorkerSet& lws) {
  ErrorList errs;
  const StringMap& annotations = lws.metadata.annotations;
  bool asked = false;
  if (auto it = annotations.find(kMaxGroupRestartsAnnotation); it != annotations.end()) {
    asked = true;
    if (!ParseCount(it->second)) {
      errs.push_back(Invalid(kAnnotations.Key(kMaxGroupRestartsAnnotation), it->second,
                             "must be a non-negative integer"));
    }
  }
  if (auto it = annotations.find(kGroupRestartBackoffAnnotation); it != annotations.end()) {
    asked = true;
    if (Result<Duration> d = ParseBackoff(it->second); !d.ok()) {
      errs.push_back(Invalid(kAnnotations.Key(kGroupRestartBackoffAnnotation), it->second,
                             d.status().message()));
    }
  }
  if (auto it = annotations.find(kGroupRestartsAnnotation); it != annotations.end()) {
    if (Result<GroupRestartCounts> counts = ParseCounts(it->second); !counts.ok()) {
      errs.push_back(Invalid(kAnnotations.Key(kGroupRestartsAnnotation), it->second,
                             counts.status().message()));
    }
  }
  if (asked && !RecreatesGroups(lws)) {
    errs.push_back(Invalid(FieldPath("spec").Child("leaderWorkerTemplate").Child("restartPolicy"),
                           lws.spec.leader_worker_template.restart_policy,
                           "must be RecreateGroupOnPodRestart or RecreateGroupAfterStart when " +
                               kMaxGroupRestartsAnnotation + " or " +
                               kGroupRestartBackoffAnnotation + " is set"));
  }
  return errs;
}

std::string GroupRestartKey(const std::string& revision, const std::string& group_index) {
  return revision + "/" + group_index;
}

Result<GroupRestartCounts> ReadGroupRestartCounts(const ObjectMeta& meta) {
  auto it = meta.annotations.find(kGroupRestartsAnnotation);
  if (it == meta.annotations.end()) return GroupRestartCounts{};
  Result<GroupRestartCounts> counts = ParseCounts(it->second);
  if (!counts.ok()) {
    return Status::BadRequest("annotation " + kGroupRestartsAnnotation + ": " +
                              counts.status().message());
  }
  return counts;
}

std::string EncodeGroupRestartCounts(const GroupRestartCounts& counts) {
  Json doc = Json::object();
  for (const auto& [key, entry] : counts) {
    Json value = {{"restarts", entry.restarts}};
    if (entry.exhausted) value["exhausted"] = true;
    doc[key] = std::move(value);
  }
  return doc.dump();
}

std::optional<GroupRestartCounts> PruneGroupRestartCounts(const GroupRestartCounts& counts,
                                                          const std::string& revision,
                                                          bool rollout_done,
                                                          std::int32_t group_count) {
  GroupRestartCounts kept;
  for (const auto& [key, entry] : counts) {
    const std::size_t slash = key.rfind('/');
    std::optional<std::int32_t> index = ParseCount(key.substr(slash + 1));
    if (!index || *index >= group_count) continue;
    if (rollout_done && key.substr(0, slash) != revision) continue;
    kept.emplace(key, entry);
  }
  if (kept.size() == counts.size()) return std::nullopt;
  return kept;
}

Json GroupRestartCountsPatch(const GroupRestartCounts& counts,
                             const std::string& resource_version) {
  return AnnotationPatch(
      kGroupRestartsAnnotation,
      counts.empty() ? std::nullopt : std::optional<std::string>(EncodeGroupRestartCounts(counts)),
      resource_version);
}

Duration GroupRestartDelay(Duration base, std::int32_t restarts) {
  if (restarts <= 0) return Duration::zero();
  const Duration cap = std::max(base, kMaxGroupRestartBackoff);
  Duration delay = base;
  for (std::int32_t i = 1; i < restarts && delay < cap; ++i) delay *= 2;
  return std::min(delay, cap);
}

}  // namespace lws::api
