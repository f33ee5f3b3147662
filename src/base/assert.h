// File: base/assert.h
//
// Assertions for programmer errors. They stay on in release builds: an invariant that does not
// hold means the process state cannot be trusted, so it stops with the file, line and reason.
#pragma once

#include <string_view>

namespace lws::internal {
[[noreturn]] void AssertFail(const char* file, int line, const char* expr, std::string_view why);
}  // namespace lws::internal

#define LWS_ASSERT(cond, why)                                                   \
  do {                                                                          \
    if (!(cond)) ::lws::internal::AssertFail(__FILE__, __LINE__, #cond, (why)); \
  } while (0)
