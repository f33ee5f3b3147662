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

}  // namespace lws
