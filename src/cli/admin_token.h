// File: cli/admin_token.h
//
// The administrator's bearer token of `lws up` and `lws apiserver` when none is given: 32 random
// bytes from OpenSSL's CSPRNG, hex-encoded. With a data directory it is kept in
// DATA_DIR/admin.token (owner-only, 0600) and reused on the next start, so that a kubeconfig
// written once keeps working, as kind's and k3s's do; without one it lives as long as the process.
#pragma once

#include <string>

#include "base/result.h"

namespace lws::cli {

// `given` when set (--token); else the token kept under `data_dir`, made and stored there the
// first time; else ("" data_dir) a fresh one.
Result<std::string> AdminToken(const std::string& given, const std::string& data_dir);

// A fresh token: 64 hex digits (256 bits).
Result<std::string> RandomToken();

}  // namespace lws::cli
