// File: base/mutex.h
//
// A mutex that Clang's thread-safety analysis understands. A member a mutex guards is declared
// GUARDED_BY(mu_), a function that expects the mutex held REQUIRES(mu_), one that takes it
// EXCLUDES(mu_); the analysis (-Wthread-safety, an error in the clang build CI runs: the fuzz
// preset) then rejects, at compile time, a read or write of a guarded member without the lock.
// With g++ the annotations compile to nothing and Mutex is a std::mutex.
//
// Lock with MutexLock (a scope); wait with CondVar while holding it.
#pragma once

#include <chrono>
#include <condition_variable>
#include <mutex>

#if defined(__clang__)
#define LWS_THREAD_ANNOTATION(x) __attribute__((x))
#else
#define LWS_THREAD_ANNOTATION(x)
#endif

#define CAPABILITY(x) LWS_THREAD_ANNOTATION(capability(x))
#define SCOPED_CAPABILITY LWS_THREAD_ANNOTATION(scoped_lockable)
#define GUARDED_BY(x) LWS_THREAD_ANNOTATION(guarded_by(x))
#define PT_GUARDED_BY(x) LWS_THREAD_ANNOTATION(pt_guarded_by(x))
#define REQUIRES(...) LWS_THREAD_ANNOTATION(requires_capability(__VA_ARGS__))
#define ACQUIRE(...) LWS_THREAD_ANNOTATION(acquire_capability(__VA_ARGS__))
#define RELEASE(...) LWS_THREAD_ANNOTATION(release_capability(__VA_ARGS__))
#define TRY_ACQUIRE(...) LWS_THREAD_ANNOTATION(try_acquire_capability(__VA_ARGS__))
#define EXCLUDES(...) LWS_THREAD_ANNOTATION(locks_excluded(__VA_ARGS__))
#define RETURN_CAPABILITY(x) LWS_THREAD_ANNOTATION(lock_returned(x))
// For the rare function whose locking the analysis cannot follow; say why next to it.
#define NO_THREAD_SAFETY_ANALYSIS LWS_THREAD_ANNOTATION(no_thread_safety_analysis)

namespace lws {

class CondVar;

class CAPABILITY("mutex") Mutex {
 public:
  Mutex() = default;
  Mutex(const Mutex&) = delete;
  Mutex& operator=(const Mutex&) = delete;

  void lock() ACQUIRE() { mu_.lock(); }
  void unlock() RELEASE() { mu_.unlock(); }
  bool try_lock() TRY_ACQUIRE(true) { return mu_.try_lock(); }

 private:
  friend class CondVar;
  std::mutex mu_;
};

// Holds `mu` for its scope; Unlock releases it early (and the destructor then does nothing),
// for work that must run outside the lock (callbacks, I/O).
class SCOPED_CAPABILITY MutexLock {
 public:
  explicit MutexLock(Mutex* mu) ACQUIRE(mu) : mu_(mu) { mu_->lock(); }
  ~MutexLock() RELEASE() {
    if (held_) mu_->unlock();
  }
  MutexLock(const MutexLock&) = delete;
  MutexLock& operator=(const MutexLock&) = delete;

  void Unlock() RELEASE() {
    mu_->unlock();
    held_ = false;
  }

 private:
  Mutex* mu_;
  bool held_ = true;
};

// A condition variable for a Mutex: every wait is made with the mutex held, and returns with it
// held again. There are no predicate overloads: the analysis does not see the lock inside a
// lambda, so callers loop over their condition (`while (!done_) cv_.Wait(&mu_);`).
class CondVar {
 public:
  void Wait(Mutex* mu) REQUIRES(mu) {
    std::unique_lock<std::mutex> lock(mu->mu_, std::adopt_lock);
    cv_.wait(lock);
    lock.release();  // still held: the caller's scope releases it
  }
  // False once `deadline` has passed (a wake-up may come earlier, spurious or not).
  template <class Clock, class Duration>
  bool WaitUntil(Mutex* mu, std::chrono::time_point<Clock, Duration> deadline) REQUIRES(mu) {
    std::unique_lock<std::mutex> lock(mu->mu_, std::adopt_lock);
    const bool woken = cv_.wait_until(lock, deadline) == std::cv_status::no_timeout;
    lock.release();
    return woken;
  }
  void NotifyOne() { cv_.notify_one(); }
  void NotifyAll() { cv_.notify_all(); }

 private:
  std::condition_variable cv_;
};

}  // namespace lws
