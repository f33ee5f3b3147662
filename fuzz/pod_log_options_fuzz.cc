// File: fuzz/pod_log_options_fuzz.cc
//
// The query of GET pods/{name}/log (apiserver/pod_log.h) from arbitrary bytes: an error or
// options, never a crash; accepted options are never negative where kube-apiserver's
// validation forbids it; and rendering lines with them never writes more than limitBytes.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "apiserver/pod_log.h"

namespace {

using lws::apiserver::LogLine;

std::vector<LogLine> Lines(lws::Time start, std::size_t count) {
  std::vector<LogLine> lines;
  for (std::size_t i = 0; i < count; ++i) {
    lines.push_back({start + std::chrono::seconds(i), "line " + std::to_string(i)});
  }
  return lines;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string query(reinterpret_cast<const char*>(data), size);
  auto target = lws::apiserver::ParseRequestTarget("/api/v1/namespaces/d/pods/p/log?" + query);
  if (!target.ok()) return 0;
  auto options = lws::apiserver::ParsePodLogOptions(target->query, "p");
  if (!options.ok()) return 0;
  for (const auto& value : {options->tail_lines, options->limit_bytes, options->since_seconds}) {
    if (value && *value < 0) __builtin_trap();
  }
  const lws::Time now = lws::Time() + std::chrono::hours(24 * 365 * 56);
  lws::apiserver::LogRenderer renderer(*options, now);
  std::string out;
  if (renderer.RenderExisting(Lines(now - std::chrono::seconds(40), 30), &out)) {
    renderer.RenderMore(Lines(now, 10), &out);
  }
  if (options->limit_bytes && static_cast<std::int64_t>(out.size()) > *options->limit_bytes) {
    __builtin_trap();
  }
  return 0;
}
