// File: base/run_on_loop.h
//
// Running one piece of work on an EventLoop's thread from another thread, and waiting for its
// result: what `lws up` and the real-clock tests need to start and stop components that may only
// be touched from the loop (the loop's tasks never run concurrently, so the work sees a quiet
// world). On a VirtualLoop nobody runs the loop while the caller waits: use it with a
// RealEventLoop only.
#pragma once

#include <future>
#include <utility>

#include "base/event_loop.h"

namespace lws {

// Runs `work` on `loop` and returns what it returns (void too), once it ran.
// REQUIRES: called from outside the loop's own thread (it would wait for itself).
template <typename F>
auto RunOnLoop(EventLoop* loop, F work) {
  std::packaged_task<decltype(work())()> task(std::move(work));
  auto done = task.get_future();
  loop->Post([&task] { task(); });
  return done.get();
}

}  // namespace lws
