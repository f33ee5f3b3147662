// The lws executable: wiring only. Each subcommand lives in cli/.
#include "cli/commands.h"

int main(int argc, char** argv) { return lws::cli::Main(argc, argv); }
