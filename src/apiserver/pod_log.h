// File: apiserver/pod_log.h
//
// GET pods/{name}/log, the parts that decide: the query (core/v1 PodLogOptions), the
// container and instance it reads, and what it selects from that instance's lines, as
// kube-apiserver validates it and the kubelet reads a log file (pkg/kubelet/kuberuntime/logs):
// `tailLines` counts back from the end of what is there when the request comes,
// `sinceSeconds`/`sinceTime` then drop older lines, `timestamps` prefixes each line with its time
// in RFC 3339 with nanoseconds, and `limitBytes` cuts the output, mid-line if it falls there, and
// ends a follow. Pure: no clock, no I/O.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "api/json_fwd.h"
#include "apiserver/request_target.h"
#include "base/clock.h"
#include "base/result.h"
#include "podlog/container_log.h"

namespace lws::apiserver {

using podlog::ContainerLog;
using podlog::ContainerLogPtr;
using podlog::LogLine;
using podlog::PodLogSource;

struct PodLogOptions {
  std::string container;
  bool follow = false;
  bool previous = false;
  bool timestamps = false;
  std::optional<std::int64_t> tail_lines;
  std::optional<std::int64_t> limit_bytes;
  std::optional<std::int64_t> since_seconds;
  std::optional<Time> since_time;
};

// The options of `query`: BadRequest when a number or time does not parse (the parameter
// codec's error), Invalid (kind PodLogOptions, named `pod`) when ValidatePodLogOptions refuses
// them.
Result<PodLogOptions> ParsePodLogOptions(const QueryParams& query, const std::string& pod);

// Go's time.RFC3339Nano in UTC: "2026-12-06T02:10:10.5Z", trailing zeros of the fraction and
// a zero fraction left out.
std::string FormatRfc3339Nano(Time t);

// Which container a pod's log request reads (pkg/registry/core/pod LogLocation): `requested`
// when the pod has a container, init container or ephemeral container of that name; else the
// only container; else BadRequest "a container name must be specified for pod p, choose one
// of: [init a b]" (every container, init ones first) or "container c is not valid for pod p".
Result<std::string> LogContainerName(const api::Json& pod, const std::string& requested);

// The containerID of the instance whose log the kubelet reads for `container` of `pod`
// (kubelet validateContainerLogStatus): with `previous`, the last terminated one; else the
// running one, the terminated one, or the last terminated one. BadRequest with the kubelet's
// words when there is none ("container \"c\" in pod \"p\" is waiting to start: ContainerCreating").
Result<std::string> LogContainerId(const api::Json& pod, const std::string& container,
                                   bool previous);

// Renders the lines of one request in order, keeping count of the bytes limitBytes allows.
class LogRenderer {
 public:
  // `now`: the request's time, which sinceSeconds counts back from.
  LogRenderer(const PodLogOptions& options, Time now);

  // The lines there were when the request came: the last tailLines of them, then since.
  // Returns false once limitBytes is reached (the response is complete).
  bool RenderExisting(const std::vector<LogLine>& lines, std::string* out);
  // Lines written after that (a follow): since applies, tailLines does not.
  bool RenderMore(const std::vector<LogLine>& lines, std::string* out);
  bool exhausted() const { return exhausted_; }

 private:
  bool RenderFrom(const std::vector<LogLine>& lines, std::size_t first, std::string* out);

  const PodLogOptions options_;
  std::optional<Time> since_;
  std::optional<std::int64_t> bytes_left_;
  bool exhausted_ = false;
};

}  // namespace lws::apiserver
