// File: cli/controller_main.cc
#include <CLI/CLI.hpp>

#include "cli/controller.h"
#include "cli/program.h"

namespace lws::cli {

int ControllerMain(int argc, char** argv) {
  CLI::App app{"lws-controller: the LeaderWorkerSet operator (`lws controller` alone)",
               "lws-controller"};
  AddProgramFlags(app);
  ControllerCommandOptions options;
  AddControllerFlags(&app, &options);
  CLI11_PARSE(app, argc, argv);
  return RunController(options);
}

}  // namespace lws::cli
