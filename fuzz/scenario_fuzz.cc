// Fuzzes the scenario file of `lws simulate`: any input must decode or fail with a Status
// (kBadRequest for broken YAML, kInvalid with one line per problem), never crash; a scenario that
// decodes has a LeaderWorkerSet, at least one strategy, a positive horizon and a timeline in
// time order whose LWS changes name one of its LeaderWorkerSets. `file:` workloads are read from
// a directory that does not exist.
#include <algorithm>
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
  if (s->strategies.empty() || s->horizon <= lws::Duration::zero()) std::abort();
  using lws::simulate::IsRollable;
  auto has = [&](const lws::simulate::Change& c) {
    for (const lws::simulate::Strategy& strategy : s->strategies) {
      for (const lws::api::Json& o : s->WorkloadsOf(strategy)) {
        if (IsRollable(o) && lws::api::StringMember(o, "kind") == c.target_kind &&
            lws::simulate::NameOf(o) == c.target) {
          return true;
        }
      }
    }
    return false;
  };
  for (const lws::simulate::Strategy& strategy : s->strategies) {
    const auto& workloads = s->WorkloadsOf(strategy);
    if (std::none_of(workloads.begin(), workloads.end(), IsRollable)) std::abort();
  }
  for (std::size_t i = 0; i < s->timeline.size(); ++i) {
    if (i > 0 && s->timeline[i].at < s->timeline[i - 1].at) std::abort();
    const lws::simulate::Change& c = s->timeline[i];
    if (c.kind == lws::simulate::Change::Kind::kPatch && !c.target_kind.empty() && !has(c)) {
      std::abort();
    }
  }
  return 0;
}
