#include "cli/commands.h"

#include <CLI/CLI.hpp>

#include "base/log.h"

namespace lws::cli {

int Main(int argc, char** argv) {
  CLI::App app{"lws: LeaderWorkerSet for Kubernetes, in C++"};
  app.require_subcommand(1);
  std::string log_level = "info";
  app.add_option("--log-level", log_level, "trace, debug, info, warn, error or off");
  CLI11_PARSE(app, argc, argv);
  return 0;
}

}  // namespace lws::cli
