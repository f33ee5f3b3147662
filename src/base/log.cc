#include "base/log.h"

#include <spdlog/sinks/stdout_color_sinks.h>

#include "base/mutex.h"

namespace lws {

std::shared_ptr<spdlog::logger> Logger(const std::string& component) {
  if (auto existing = spdlog::get(component)) return existing;
  // Two threads asking for a new component at once must not both register it (spdlog throws on
  // the second): creation is serialised, and the loser finds the winner's logger.
  static Mutex creating;
  MutexLock lock(&creating);
  if (auto existing = spdlog::get(component)) return existing;
  auto logger = spdlog::stderr_color_mt(component);
  logger->set_pattern("%Y-%m-%dT%H:%M:%S.%e %^%l%$ [%n] %v");
  logger->set_level(spdlog::get_level());
  return logger;
}

bool SetLogLevel(std::string_view level) {
  auto parsed = spdlog::level::from_str(std::string(level));
  if (parsed == spdlog::level::off && level != "off") return false;
  spdlog::set_level(parsed);
  spdlog::apply_all([parsed](const std::shared_ptr<spdlog::logger>& l) { l->set_level(parsed); });
  return true;
}

}  // namespace lws
