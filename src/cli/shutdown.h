// File: cli/shutdown.h
//
// How the long-running commands (`lws apiserver`, `lws up`, `lws controller`) end: SIGINT and
// SIGTERM are blocked in every thread and taken by the main thread with sigwait, so a handler
// thread is never interrupted mid-write; a shutdown that hangs ends the process after a grace
// period.
#pragma once

#include <signal.h>

#include <chrono>
#include <string>

namespace lws::cli {

// Blocks SIGINT and SIGTERM in this thread and every thread it starts afterwards, so that
// WaitForShutdownSignal receives them. Call before starting any thread.
sigset_t BlockShutdownSignals();
// Waits for SIGINT or SIGTERM; returns which.
int WaitForShutdownSignal(const sigset_t& set);

// After SIGTERM the server stops accepting and waits for the requests it is running; one stuck
// (a webhook that never answers, a handler past its deadline) must not keep the process alive:
// once `grace` has passed this ends the process (exit code 0, with a log line). Acknowledged
// writes are on disk by then, so nothing acknowledged is lost. Call once, when the signal came.
void ExitIfShutdownHangs(const std::string& command, std::chrono::seconds grace);
inline constexpr std::chrono::seconds kShutdownGrace{10};

}  // namespace lws::cli
