// Deferred acknowledgements (deferred_ack.h).
#include "base/deferred_ack.h"

#include <utility>

namespace lws {
namespace {

thread_local DeferredAck* open_scope = nullptr;

}  // namespace

DeferredAck::DeferredAck() : outer_(open_scope) { open_scope = this; }

DeferredAck::~DeferredAck() { open_scope = outer_; }

bool DeferredAck::Open() { return open_scope != nullptr; }

bool DeferredAck::Defer(Waiter waiter) {
  DeferredAck* scope = open_scope;
  if (scope == nullptr) return false;
  if (!scope->waiter_) {
    scope->waiter_ = std::move(waiter);
    return true;
  }
  // A second write in the same request: release once both are complete, in order. With one
  // store the later write's flush covers the earlier one, so the chain costs no extra flush.
  scope->waiter_ = [first = std::move(scope->waiter_),
                    second = std::move(waiter)](Release release) {
    first([second, release](Status status) {
      if (!status.ok()) return release(std::move(status));
      second(release);
    });
  };
  return true;
}

DeferredAck::Waiter DeferredAck::Take() { return std::exchange(waiter_, nullptr); }

}  // namespace lws
