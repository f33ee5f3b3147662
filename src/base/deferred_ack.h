// File: base/deferred_ack.h
//
// Lets a layer below an API handler hold back the handler's answer without blocking its thread.
// A durable store write is acknowledged only once its flush has returned (store/group_sync.h);
// blocking the handler's thread for that caps how many writes share one flush at the number of
// handler threads, and each blocked thread costs two context switches per write. Instead the
// HTTP server opens a DeferredAck around each handler call; the store, finding one open on its
// thread, registers "answer once seq N is flushed" and returns at once; the server then sends the
// handler's answer when the flush completes (or a 500 with the flush's error), from the flusher.
//
// Outside any open DeferredAck (in-process callers, tests, the simulator) Defer returns false and
// the caller waits itself, as before.
//
// Threading: a DeferredAck belongs to the thread that opened it; Release may be called on any
// thread, exactly once.
#pragma once

#include <functional>

#include "base/status.h"

namespace lws {

class DeferredAck {
 public:
  // Called with Ok once the held-back work is complete, or with the error that stopped it.
  using Release = std::function<void(Status)>;
  // Starts the held-back work's wait; calls `release` (on any thread) when it ends.
  using Waiter = std::function<void(Release release)>;

  DeferredAck();  // opens the scope on this thread (scopes nest; the innermost collects)
  ~DeferredAck();
  DeferredAck(const DeferredAck&) = delete;
  DeferredAck& operator=(const DeferredAck&) = delete;

  // Whether a scope is open on this thread: ask before building a waiter that takes what the
  // caller would otherwise use itself.
  static bool Open();
  // Inside an open scope: adds `waiter` to it and returns true (the caller must not wait).
  // Outside any: returns false and drops `waiter`.
  static bool Defer(Waiter waiter);

  // The waiters deferred in this scope as one (each started after the previous released Ok; the
  // first error releases at once), or an empty function when nothing was deferred.
  Waiter Take();

 private:
  DeferredAck* outer_;
  Waiter waiter_;
};

}  // namespace lws
