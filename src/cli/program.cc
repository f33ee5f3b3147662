// File: cli/program.cc
#include "cli/program.h"

#include <pthread.h>

#include <CLI/CLI.hpp>
#include <cstddef>
#include <memory>
#include <string>

#include "base/log.h"

namespace lws::cli {

void AddProgramFlags(CLI::App& app) {
  app.set_version_flag("--version", "lws 0.1.0");
  auto log_level = std::make_shared<std::string>("info");
  app.add_option("--log-level", *log_level, "trace, debug, info, warn, error or off")
      ->check(CLI::IsMember({"trace", "debug", "info", "warn", "error", "off"}));
  app.parse_complete_callback([log_level] { SetLogLevel(*log_level); });
}

void ReserveThreadStacks() {
  constexpr std::size_t kThreadStackBytes = 256u << 20;
  pthread_attr_t attr;
  if (pthread_attr_init(&attr) != 0) return;
  if (pthread_attr_setstacksize(&attr, kThreadStackBytes) == 0) pthread_setattr_default_np(&attr);
  pthread_attr_destroy(&attr);
}

}  // namespace lws::cli
