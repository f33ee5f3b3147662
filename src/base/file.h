// File: base/file.h
//
// Reading a whole file, the one piece of file I/O that configuration,
// certificates, tokens and cluster files all need. The error text follows Go's
// os.ReadFile ("open <path>: no such file or directory"), so a message about a
// kubeconfig or a token file reads as kubectl's would, and it always names the
// file.
#pragma once

#include <string>

#include "base/result.h"

namespace lws {

// The whole file, bytes as they are. NotFound "open <path>: no such file or
// directory" when it is missing, else Internal "open <path>: <strerror>" or
// "read <path>: I/O error".
Result<std::string> ReadFile(const std::string& path);

bool FileExists(const std::string& path);

// Creates `path` (and missing parents) and makes it private to its owner (mode 0700), also when
// it existed: a data directory holds Secrets and keys.
Status CreatePrivateDirectory(const std::string& path);

// Writes `text` to a temporary file next to `path` and renames it over `path`, so a reader (or
// a crash) never sees half a file; with `owner_only` the file is mode 0600 from the start (keys).
// Internal "cannot write <file>: <reason>" on failure.
Status WriteFileAtomically(const std::string& path, const std::string& text, bool owner_only);

}  // namespace lws
