// File: cli/program.h
//
// What every lws executable shares (`lws` and `lws-controller`): the --version and --log-level
// flags, and the stack size of every thread it starts.
#pragma once

namespace CLI {
class App;
}

namespace lws::cli {

// --version prints "lws 0.1.0"; --log-level (trace, debug, info, warn, error or off) applies
// once the command line is parsed.
void AddProgramFlags(CLI::App& app);

// Every thread the program starts gets a 256 MiB stack (reserved, not committed). Request
// handling recurses once per nesting level of a client's document, and documents may nest
// api::kMaxJsonDepth (10,000) levels as in Kubernetes; glibc's default of 8 MiB is too little for
// that in the deepest paths (serialisation, merges, validation). Call first in main().
void ReserveThreadStacks();

}  // namespace lws::cli
