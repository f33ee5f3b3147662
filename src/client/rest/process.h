// File: client/rest/process.h
//
// Runs a short-lived helper program and collects what it prints: the one piece of process
// management the client needs, for exec credential plugins. The child gets /dev/null as stdin
// (plugins run non-interactively), its stdout and stderr are read through pipes until both close,
// and a child that outlives the timeout is killed so that a hung plugin cannot hang the client.
// This is I/O code: it measures the timeout on the monotonic clock, not on a Clock.
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "base/result.h"

namespace lws::rest {

struct ProcessResult {
  int exit_code = 0;    // meaningful when term_signal == 0
  int term_signal = 0;  // the signal that ended the child, 0 when it exited
  std::string stdout_text;
  std::string stderr_text;
};

// Output beyond this many bytes per stream is dropped; a credential is far smaller.
inline constexpr std::size_t kMaxProcessOutputBytes = 4 << 20;

// Runs `command` (looked up on the calling process's PATH when it has no '/') with `args` and
// exactly the environment `env` ("NAME=value" entries). NotFound when the executable does not
// exist, Timeout when it ran longer than `timeout` (it is then killed), Internal for other
// spawn failures. A non-zero exit is not an error here: see ProcessResult.
Result<ProcessResult> RunProcess(const std::string& command, const std::vector<std::string>& args,
                                 const std::vector<std::string>& env,
                                 std::chrono::milliseconds timeout);

// The calling process's environment as "NAME=value" entries.
std::vector<std::string> ProcessEnvironment();

}  // namespace lws::rest
