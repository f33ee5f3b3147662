#include "base/assert.h"

#include <cstdio>
#include <cstdlib>
#include <string>

namespace lws::internal {

void AssertFail(const char* file, int line, const char* expr, std::string_view why) {
  std::string what(why);
  std::fprintf(stderr, "%s:%d: assertion failed: %s: %s\n", file, line, expr, what.c_str());
  std::fflush(stderr);
  std::abort();
}

}  // namespace lws::internal
