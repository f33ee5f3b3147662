// File: fuzz/request_target_fuzz.cc
//
// ParseRequestTarget on arbitrary bytes: an error or a target, never a crash; a parsed resource
// path always has a resource name; and the plain-path split agrees with Boost.URL's parse.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "apiserver/request_target.h"

namespace {

using lws::apiserver::RequestTarget;

bool SameTarget(const RequestTarget& a, const RequestTarget& b) {
  return a.kind == b.kind && a.path == b.path && a.group == b.group && a.version == b.version &&
         a.namespace_ == b.namespace_ && a.resource == b.resource && a.name == b.name &&
         a.subresource == b.subresource && a.query.values() == b.query.values();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto target = lws::apiserver::ParseRequestTarget(text);
  if (target.ok() && target->kind == lws::apiserver::TargetKind::kResource &&
      target->resource.empty()) {
    __builtin_trap();
  }
  auto with_url = lws::apiserver::ParseRequestTargetWithUrl(text);
  if (target.ok() != with_url.ok()) __builtin_trap();
  if (target.ok() && !SameTarget(*target, *with_url)) __builtin_trap();
  return 0;
}
