// File: api/base64.h
//
// Standard base64 (RFC 4648, with padding) as Go's encoding/base64.StdEncoding
// reads and writes it. Kubernetes carries bytes this way everywhere JSON meets
// binary: Secret data, kubeconfig
// *-data fields, webhook caBundles, ExecCredential certificates, admission
// patches. One codec serves them all, so every reader rejects the same
// malformed input with the same message.
#pragma once

#include <string>
#include <string_view>

#include "base/result.h"

namespace lws::api {

std::string Base64Encode(std::string_view bytes);

// Decodes standard base64 with padding. Like Go's StdEncoding.Decode, '\r' and
// '\n' anywhere are skipped (kubeconfigs often wrap long data lines). A bad
// character, bad padding or a truncated last quantum is BadRequest "illegal
// base64 data at input byte N" (N: 0-based offset in `text`).
Result<std::string> Base64Decode(std::string_view text);

// The 6-bit value of one base64 character, or -1 when `c` is not in the
// standard alphabet.
int Base64Sextet(char c);

}  // namespace lws::api
