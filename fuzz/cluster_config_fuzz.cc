// Fuzzes the cluster file decoder of `lws up --config`: any input must decode or fail with a
// Status (kBadRequest for broken YAML, kInvalid with one cause per problem), never crash; a spec
// that decodes must be internally consistent (sizes in order, changes sorted by time).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "cluster/cluster_config.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto spec = lws::cluster::ParseClusterConfig(text, "fuzz.yaml");
  if (!spec.ok()) {
    if (spec.status().code() == lws::Code::kInvalid && spec.status().causes().empty()) std::abort();
    return 0;
  }
  for (const auto& pool : spec->pools) {
    if (pool.min_nodes > pool.initial_nodes || pool.initial_nodes > pool.max_nodes) std::abort();
  }
  for (std::size_t i = 1; i < spec->changes.size(); ++i) {
    if (spec->changes[i].at < spec->changes[i - 1].at) std::abort();
  }
  return 0;
}
