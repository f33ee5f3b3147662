// File: api/go_duration.h
//
// Go's time.ParseDuration, which metav1.Duration uses to read "15s", "1m30s" or "1.5h" from a
// configuration file. The full grammar is accepted (optional sign, several number+unit terms,
// fractions, units ns us µs μs ms s m h, a bare "0") and failures carry Go's exact messages, so
// an operator sees the same text as from the Go controller:
//   time: invalid duration "x"         time: missing unit in duration "5"
//   time: unknown unit "d" in duration "1d"
#pragma once

#include <string>
#include <string_view>

#include "base/clock.h"
#include "base/result.h"

namespace lws::api {

// BadRequest with Go's message on failure; values beyond int64 nanoseconds are invalid as in Go.
Result<Duration> ParseGoDuration(std::string_view text);

// Go's Duration.String(): "15s", "1m30s", "1.5s", "750ms", "2h0m0s", "0s". ParseGoDuration reads
// it back exactly.
std::string FormatGoDuration(Duration d);

}  // namespace lws::api
