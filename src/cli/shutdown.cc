// File: cli/shutdown.cc
#include "cli/shutdown.h"

#include <pthread.h>

#include <cstdio>
#include <cstdlib>
#include <thread>

#include "base/log.h"

namespace lws::cli {

sigset_t BlockShutdownSignals() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
  return set;
}

int WaitForShutdownSignal(const sigset_t& set) {
  int signal = 0;
  sigwait(&set, &signal);
  return signal;
}

void ExitIfShutdownHangs(const std::string& command, std::chrono::seconds grace) {
  std::thread([command, grace] {
    std::this_thread::sleep_for(grace);
    Logger("serve")->warn(
        "{}: requests still running {} s after the shutdown signal; exiting "
        "without their answers (every acknowledged write is on disk)",
        command, grace.count());
    std::fflush(nullptr);
    std::_Exit(0);
  }).detach();
}

}  // namespace lws::cli
