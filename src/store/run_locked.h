// File: store/run_locked.h
//
// Internal to the store: runs a body under the store mutex and turns an escaping exception (a
// JSON library surprise, bad_alloc) into a 500 Status, so that no exception leaves a public
// store function and the lock is always released.
#pragma once

#include <exception>
#include <mutex>
#include <string>

#include "base/status.h"

namespace lws::store::internal {

template <class F>
auto RunLocked(std::mutex& mu, F&& body) -> decltype(body()) {
  std::lock_guard lock(mu);
  try {
    return body();
  } catch (const std::exception& e) {
    return Status::Internal(std::string("store: unexpected failure: ") + e.what());
  }
}

}  // namespace lws::store::internal
