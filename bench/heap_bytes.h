// File: bench/heap_bytes.h
//
// The bytes the program's allocator has handed out and not yet taken back, for benchmarks that
// report memory as the heap's growth between two points. The programs link jemalloc (see the
// top-level CMakeLists.txt), whose heap glibc's mallinfo2 cannot see; without it, mallinfo2 is
// the answer.
#pragma once

#include <cstddef>
#include <cstdint>

#ifdef LWS_WITH_JEMALLOC
#include <jemalloc/jemalloc.h>
#else
#include <malloc.h>
#endif

namespace lws::bench {

inline std::size_t HeapBytesInUse() {
#ifdef LWS_WITH_JEMALLOC
  // jemalloc's statistics are a snapshot refreshed by advancing its epoch.
  std::uint64_t epoch = 1;
  std::size_t size = sizeof(epoch);
  mallctl("epoch", &epoch, &size, &epoch, size);
  std::size_t allocated = 0;
  size = sizeof(allocated);
  if (mallctl("stats.allocated", &allocated, &size, nullptr, 0) != 0) return 0;
  return allocated;
#else
  return mallinfo2().uordblks;
#endif
}

}  // namespace lws::bench
