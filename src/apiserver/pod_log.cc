// File: apiserver/pod_log.cc
#include "apiserver/pod_log.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <charconv>

#include "api/field.h"

namespace lws::apiserver {

using api::Json;

namespace {

// strconv.ParseInt's errors, which the parameter codec returns as they are.
Result<std::optional<std::int64_t>> IntParam(const QueryParams& query, std::string_view key) {
  if (!query.Has(key)) return std::optional<std::int64_t>();
  const std::string text = query.Get(key);
  std::int64_t value = 0;
  const char* begin = text.data();
  const char* end = text.data() + text.size();
  if (begin != end && *begin == '+') ++begin;  // ParseInt takes a sign, plus or minus
  auto [ptr, ec] = std::from_chars(begin, end, value);
  if (text.empty() || ec == std::errc::invalid_argument || ptr != end) {
    return Status::BadRequest(
        fmt::format("strconv.ParseInt: parsing \"{}\": invalid syntax", text));
  }
  if (ec == std::errc::result_out_of_range) {
    return Status::BadRequest(
        fmt::format("strconv.ParseInt: parsing \"{}\": value out of range", text));
  }
  return std::optional<std::int64_t>(value);
}

api::ErrorList Validate(const PodLogOptions& options) {
  // pkg/apis/core/validation ValidatePodLogOptions.
  api::ErrorList errors;
  if (options.tail_lines && *options.tail_lines < 0) {
    errors.push_back(api::Invalid(api::FieldPath("tailLines"), *options.tail_lines,
                                  "must be greater than or equal to 0"));
  }
  if (options.limit_bytes && *options.limit_bytes < 1) {
    errors.push_back(
        api::Invalid(api::FieldPath("limitBytes"), *options.limit_bytes, "must be greater than 0"));
  }
  if (options.since_seconds && options.since_time) {
    errors.push_back(api::Forbidden(
        api::FieldPath(""), "at most one of `sinceTime` or `sinceSeconds` may be specified"));
  } else if (options.since_seconds && *options.since_seconds < 1) {
    errors.push_back(api::Invalid(api::FieldPath("sinceSeconds"), *options.since_seconds,
                                  "must be greater than 0"));
  }
  return errors;
}

using api::ChildOrNull;
using api::StringMember;

std::vector<std::string> NamesIn(const Json& spec, const char* list) {
  std::vector<std::string> names;
  for (const Json& c : ChildOrNull(spec, list)) names.push_back(StringMember(c, "name"));
  return names;
}

// Go's %s of a []string: "[a b]".
std::string GoList(const std::vector<std::string>& names) {
  return "[" + fmt::format("{}", fmt::join(names, " ")) + "]";
}

const Json* StatusOf(const Json& pod, const std::string& container) {
  const Json& status = ChildOrNull(pod, "status");
  for (const char* list :
       {"containerStatuses", "initContainerStatuses", "ephemeralContainerStatuses"}) {
    for (const Json& s : ChildOrNull(status, list)) {
      if (StringMember(s, "name") == container) return &s;
    }
  }
  return nullptr;
}

}  // namespace

Result<std::string> LogContainerName(const Json& pod, const std::string& requested) {
  const Json& spec = ChildOrNull(pod, "spec");
  const std::string pod_name = StringMember(ChildOrNull(pod, "metadata"), "name");
  const std::vector<std::string> containers = NamesIn(spec, "containers");
  const std::vector<std::string> init = NamesIn(spec, "initContainers");
  const std::vector<std::string> ephemeral = NamesIn(spec, "ephemeralContainers");
  if (!requested.empty()) {
    for (const auto* names : {&containers, &init, &ephemeral}) {
      if (std::find(names->begin(), names->end(), requested) != names->end()) return requested;
    }
    return Status::BadRequest(
        fmt::format("container {} is not valid for pod {}", requested, pod_name));
  }
  if (containers.size() == 1) return containers[0];
  if (containers.empty()) {
    return Status::BadRequest("a container name must be specified for pod " + pod_name);
  }
  // podutil.VisitContainers' order: init containers, containers, ephemeral containers.
  std::vector<std::string> all = init;
  all.insert(all.end(), containers.begin(), containers.end());
  all.insert(all.end(), ephemeral.begin(), ephemeral.end());
  return Status::BadRequest(fmt::format(
      "a container name must be specified for pod {}, choose one of: {}", pod_name, GoList(all)));
}

Result<std::string> LogContainerId(const Json& pod, const std::string& container, bool previous) {
  const std::string pod_name = StringMember(ChildOrNull(pod, "metadata"), "name");
  const Json* status = StatusOf(pod, container);
  auto error = [&](std::string_view what) {
    return Status::BadRequest(
        fmt::format("container \"{}\" in pod \"{}\" {}", container, pod_name, what));
  };
  if (status == nullptr) return error("is not available");
  const Json& last = ChildOrNull(ChildOrNull(*status, "lastState"), "terminated");
  const std::string last_id = StringMember(last, "containerID");
  const Json& state = ChildOrNull(*status, "state");
  if (previous) {
    if (last_id.empty()) {
      return Status::BadRequest(fmt::format(
          "previous terminated container \"{}\" in pod \"{}\" not found", container, pod_name));
    }
    return last_id;
  }
  if (state.contains("running")) return StringMember(*status, "containerID");
  if (state.contains("terminated")) {
    // The next container did not start: its terminated state has no ID, the last one has.
    std::string id = StringMember(ChildOrNull(state, "terminated"), "containerID");
    if (id.empty()) id = last_id;
    if (id.empty()) return error("is terminated");
    return id;
  }
  if (last.is_object()) {
    if (last_id.empty()) return error("is terminated");
    return last_id;
  }
  if (state.contains("waiting")) {
    const std::string reason = StringMember(ChildOrNull(state, "waiting"), "reason");
    if (reason == "ErrImagePull") return error("is waiting to start: image can't be pulled");
    if (reason == "ImagePullBackOff") {
      return error("is waiting to start: trying and failing to pull image");
    }
    return error("is waiting to start: " + reason);
  }
  return error("is waiting to start - no logs yet");
}

Result<PodLogOptions> ParsePodLogOptions(const QueryParams& query, const std::string& pod) {
  PodLogOptions options;
  options.container = query.Get("container");
  options.follow = query.GetBool("follow");
  options.previous = query.GetBool("previous");
  options.timestamps = query.GetBool("timestamps");
  ASSIGN_OR_RETURN(options.tail_lines, IntParam(query, "tailLines"));
  ASSIGN_OR_RETURN(options.limit_bytes, IntParam(query, "limitBytes"));
  ASSIGN_OR_RETURN(options.since_seconds, IntParam(query, "sinceSeconds"));
  if (query.Has("sinceTime")) {
    const std::string text = query.Get("sinceTime");
    Result<Time> parsed = ParseRfc3339(text);
    if (!parsed.ok()) {
      // metav1.Time's query parameter is parsed with time.RFC3339.
      return Status::BadRequest(
          fmt::format("parsing time \"{}\" as \"2006-01-02T15:04:05Z07:00\": cannot parse", text));
    }
    options.since_time = *parsed;
  }
  if (api::ErrorList errors = Validate(options); !errors.empty()) {
    return api::InvalidStatus("PodLogOptions", pod, errors);
  }
  return options;
}

std::string FormatRfc3339Nano(Time t) {
  std::string out = FormatRfc3339(t);  // seconds, ending in 'Z'
  const auto nanos = (t - std::chrono::floor<std::chrono::seconds>(t)).count();
  if (nanos == 0) return out;
  std::string fraction = fmt::format(".{:09d}", nanos);
  while (fraction.back() == '0') fraction.pop_back();
  out.insert(out.size() - 1, fraction);
  return out;
}

LogRenderer::LogRenderer(const PodLogOptions& options, Time now) : options_(options) {
  if (options.since_time) since_ = *options.since_time;
  if (options.since_seconds) {
    // A look-back longer than the clock's age means "every line"; subtracting it would overflow.
    const auto age = std::chrono::duration_cast<std::chrono::seconds>(now.time_since_epoch());
    if (*options.since_seconds < age.count()) {
      since_ = now - std::chrono::seconds(*options.since_seconds);
    } else {
      since_.reset();
    }
  }
  if (options.limit_bytes) bytes_left_ = *options.limit_bytes;
}

bool LogRenderer::RenderExisting(const std::vector<LogLine>& lines, std::string* out) {
  std::size_t first = 0;
  if (options_.tail_lines && static_cast<std::uint64_t>(*options_.tail_lines) < lines.size()) {
    first = lines.size() - static_cast<std::size_t>(*options_.tail_lines);
  }
  return RenderFrom(lines, first, out);
}

bool LogRenderer::RenderMore(const std::vector<LogLine>& lines, std::string* out) {
  return RenderFrom(lines, 0, out);
}

bool LogRenderer::RenderFrom(const std::vector<LogLine>& lines, std::size_t first,
                             std::string* out) {
  for (std::size_t i = first; i < lines.size() && !exhausted_; ++i) {
    const LogLine& line = lines[i];
    if (since_ && line.time < *since_) continue;
    std::string text = options_.timestamps ? FormatRfc3339Nano(line.time) + " " : "";
    text += line.message;
    text += '\n';
    if (bytes_left_ && static_cast<std::int64_t>(text.size()) >= *bytes_left_) {
      text.resize(static_cast<std::size_t>(*bytes_left_));
      exhausted_ = true;
    }
    if (bytes_left_) *bytes_left_ -= static_cast<std::int64_t>(text.size());
    out->append(text);
  }
  return !exhausted_;
}

}  // namespace lws::apiserver
