// File: cli/commands.h
//
// Entry point of the `lws` command line: subcommand registration and dispatch (CLI11).
#pragma once

namespace lws::cli {

// Parses argv, runs the chosen subcommand and returns the process exit code.
int Main(int argc, char** argv);

}  // namespace lws::cli
