// File: fuzz/request_target_fuzz.cc
//
// ParseRequestTarget on arbitrary bytes: an error or a target, never a crash; a parsed resource
// path always has a resource name.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "apiserver/request_target.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto target = lws::apiserver::ParseRequestTarget(text);
  if (target.ok() && target->kind == lws::apiserver::TargetKind::kResource &&
      target->resource.empty()) {
    __builtin_trap();
  }
  return 0;
}
