// Fuzzes the `lws controller` configuration loader: any bytes must load or fail with a Status
// (BadRequest for decoding, Invalid with one cause per field error), never crash. A
// configuration that loads must be valid, stay the same under defaulting, survive being written
// out and read back, and keep its fields when flags that restate them are overlaid.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "api/yaml.h"
#include "config/configuration.h"
#include "config/flags.h"

namespace {

void CheckLoaded(const lws::config::Configuration& config) {
  using lws::config::Configuration;
  if (!lws::config::ValidateConfiguration(config).empty()) std::abort();
  Configuration again = config;
  lws::config::SetDefaults(&again);
  if (!(again == config)) std::abort();  // defaulting is idempotent
  auto back = lws::config::DecodeConfiguration(
      lws::api::EmitYaml(lws::config::ConfigurationToJson(config)));
  if (!back.ok() || !(*back == config)) std::abort();
  lws::config::ExplicitFlags flags;
  flags.metrics_bind_address = config.metrics.bind_address;
  flags.leader_elect = config.leader_election->leader_elect;
  flags.leader_elect_lease_duration = config.leader_election->lease_duration;
  if (!(lws::config::Overlay(config, flags) == config)) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto config = lws::config::LoadConfiguration(text);
  if (!config.ok()) {
    lws::Code code = config.status().code();
    if (code != lws::Code::kBadRequest && code != lws::Code::kInvalid) std::abort();
    if (code == lws::Code::kInvalid && config.status().causes().empty()) std::abort();
    return 0;
  }
  CheckLoaded(*config);
  return 0;
}
