// Fuzzes the scenario file of `lws simulate`: any input must decode or fail with a Status
// (kBadRequest for broken YAML, kInvalid with one line per problem), never crash; a scenario that
// decodes has a LeaderWorkerSet, at least one strategy, a positive horizon and a timeline in
// time order whose LWS changes name one of its LeaderWorkerSets. `file:` workloads are read from
// a directory that does not exist.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "simulate/scenario_file.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto s = lws::simulate::ParseScenario(text, "fuzz.yaml", "/nonexistent-fuzz-dir");
  if (!s.ok()) {
    if (s.status().code() == lws::Code::kInvalid && s.status().message().empty()) std::abort();
    return 0;
  }
  if (s->Leaderworkersets().empty() || s->strategies.empty()) std::abort();
  if (s->horizon <= lws::Duration::zero()) std::abort();
  for (std::size_t i = 1; i < s->timeline.size(); ++i) {
    if (s->timeline[i].at < s->timeline[i - 1].at) std::abort();
  }
  return 0;
}
