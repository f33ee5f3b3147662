// File: store/run_locked.h
//
// Internal to the store: runs a body under the store mutex and turns an escaping exception (a
// JSON library surprise, bad_alloc) into a 500 Status, so that no exception leaves a public
// store function and the lock is always released.
//
// The body is a lambda declared REQUIRES(mu_), so that the analysis checks it as run with the
// lock held: `RunLocked(mu_, [&]() REQUIRES(mu_) { return ListLocked(...); })`.
#pragma once

#include <exception>
#include <string>

#include "base/mutex.h"
#include "base/status.h"

namespace lws::store::internal {

// Not analysed: the analysis cannot tell that `mu` is the mutex the body's REQUIRES names.
template <class F>
NO_THREAD_SAFETY_ANALYSIS auto RunLocked(Mutex& mu, F&& body) -> decltype(body()) {
  MutexLock lock(&mu);
  try {
    return body();
  } catch (const std::exception& e) {
    return Status::Internal(std::string("store: unexpected failure: ") + e.what());
  }
}

}  // namespace lws::store::internal
