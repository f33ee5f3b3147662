// Compiled by check.sh with clang's -Wthread-safety as an error: it must NOT compile, since
// Peek reads a guarded member without the lock. If it compiles, the analysis is off.
#include "base/mutex.h"

namespace {

class Counter {
 public:
  void Add() {
    lws::MutexLock lock(&mu_);
    ++count_;
  }
  int Peek() const { return count_; }  // the deliberate error

 private:
  mutable lws::Mutex mu_;
  int count_ GUARDED_BY(mu_) = 0;
};

}  // namespace

int main() {
  Counter c;
  c.Add();
  return c.Peek();
}
