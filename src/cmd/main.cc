// The lws executable: wiring only. Each subcommand lives in cli/.
#include "cli/commands.h"
#include "cli/program.h"

int main(int argc, char** argv) {
  lws::cli::ReserveThreadStacks();
  return lws::cli::Main(argc, argv);
}
