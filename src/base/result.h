// File: base/result.h
//
// Result<T> holds either a value or a non-OK Status (g++ 12 has no std::expected). Together with
// RETURN_IF_ERROR and ASSIGN_OR_RETURN it carries expected failures across layers as values.
#pragma once

#include <utility>
#include <variant>

#include "base/assert.h"
#include "base/status.h"

namespace lws {

template <class T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::move(value)) {}        // NOLINT: implicit by design, like StatusOr.
  Result(Status status) : v_(std::move(status)) {  // NOLINT
    LWS_ASSERT(!std::get<Status>(v_).ok(), "Result built from an OK status has no value");
  }

  bool ok() const { return std::holds_alternative<T>(v_); }
  const Status& status() const {
    static const Status kOk;
    return ok() ? kOk : std::get<Status>(v_);
  }

  // REQUIRES: ok().
  T& value() & { return Checked(); }
  const T& value() const& { return const_cast<Result*>(this)->Checked(); }
  T&& value() && { return std::move(Checked()); }
  T& operator*() & { return Checked(); }
  const T& operator*() const& { return const_cast<Result*>(this)->Checked(); }
  T* operator->() { return &Checked(); }
  const T* operator->() const { return &const_cast<Result*>(this)->Checked(); }

 private:
  T& Checked() {
    LWS_ASSERT(ok(), "value() on a failed Result: " + std::get<Status>(v_).ToString());
    return std::get<T>(v_);
  }
  std::variant<T, Status> v_;
};

namespace internal {
inline Status AsStatus(Status s) { return s; }
template <class T>
Status AsStatus(const Result<T>& r) {
  return r.status();
}
}  // namespace internal

}  // namespace lws

#define LWS_CONCAT_INNER(a, b) a##b
#define LWS_CONCAT(a, b) LWS_CONCAT_INNER(a, b)

// Returns the Status of `expr` from the enclosing function when it is not OK.
#define RETURN_IF_ERROR(expr)                                      \
  do {                                                             \
    ::lws::Status lws_status_ = ::lws::internal::AsStatus((expr)); \
    if (!lws_status_.ok()) return lws_status_;                     \
  } while (0)

// `ASSIGN_OR_RETURN(auto x, F());` declares x from F()'s value or returns F()'s Status.
#define ASSIGN_OR_RETURN(lhs, expr) \
  LWS_ASSIGN_OR_RETURN_IMPL(LWS_CONCAT(lws_result_, __LINE__), lhs, expr)
#define LWS_ASSIGN_OR_RETURN_IMPL(tmp, lhs, expr) \
  auto tmp = (expr);                              \
  if (!tmp.ok()) return tmp.status();             \
  lhs = std::move(tmp).value()
