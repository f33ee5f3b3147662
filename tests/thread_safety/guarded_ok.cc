// Compiled by check.sh with clang's -Wthread-safety as an error: every access holds the lock.
#include "base/mutex.h"

namespace {

class Counter {
 public:
  void Add() EXCLUDES(mu_) {
    lws::MutexLock lock(&mu_);
    AddLocked();
    ready_.NotifyAll();
  }
  int WaitForOne() EXCLUDES(mu_) {
    lws::MutexLock lock(&mu_);
    while (count_ == 0) ready_.Wait(&mu_);
    const int seen = count_;
    lock.Unlock();
    return seen;
  }

 private:
  void AddLocked() REQUIRES(mu_) { ++count_; }

  lws::Mutex mu_;
  lws::CondVar ready_;
  int count_ GUARDED_BY(mu_) = 0;
};

}  // namespace

int main() {
  Counter c;
  c.Add();
  return c.WaitForOne() == 1 ? 0 : 1;
}
