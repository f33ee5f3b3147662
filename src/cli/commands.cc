#include "cli/commands.h"

#include <CLI/CLI.hpp>

#include "cli/apiserver.h"
#include "cli/controller.h"
#include "cli/program.h"
#include "cli/rollout.h"
#include "cli/simulate.h"
#include "cli/up.h"
#include "cli/validate.h"

namespace lws::cli {

namespace {

// Installed as kubectl-lws, the binary is a kubectl plugin: `kubectl lws rollout status x` runs
// `kubectl-lws rollout status x`, and the help says how users type it.
std::string ProgramName(const char* argv0) {
  std::string_view path = argv0 != nullptr ? argv0 : "lws";
  const std::size_t slash = path.rfind('/');
  if (slash != std::string_view::npos) path.remove_prefix(slash + 1);
  return path == "kubectl-lws" ? "kubectl lws" : "lws";
}

}  // namespace

int Main(int argc, char** argv) {
  CLI::App app{"lws: LeaderWorkerSet for Kubernetes, in C++", ProgramName(argv[0])};
  app.require_subcommand(1);
  AddProgramFlags(app);
  int exit_code = 0;
  AddValidateCommand(app, &exit_code);
  AddApiServerCommand(app, &exit_code);
  AddUpCommand(app, &exit_code);
  AddControllerCommand(app, &exit_code);
  AddSimulateCommand(app, &exit_code);
  AddRolloutCommand(app, &exit_code);
  CLI11_PARSE(app, argc, argv);
  return exit_code;
}

}  // namespace lws::cli
