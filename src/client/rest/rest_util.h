// File: client/rest/rest_util.h
//
// Small byte and file helpers the client configuration shares: base64 as Go's encoding/json reads
// []byte fields (kubeconfig *-data fields, ExecCredential's certificate-authority-data), whole-file
// reads whose errors name the file, and the path arithmetic kubectl uses to resolve a kubeconfig's
// relative file references against the directory of the file that mentioned them.
#pragma once

#include <string>
#include <string_view>

#include "base/result.h"

namespace lws::rest {

// Standard base64 with padding (RFC 4648), as Go's base64.StdEncoding writes it.
std::string Base64Encode(std::string_view bytes);

// Decodes standard base64 with padding. Like Go's StdEncoding.Decode, '\r' and '\n' anywhere are
// skipped (kubeconfigs often wrap long data lines). A bad character, bad padding or a truncated
// last quantum is BadRequest "illegal base64 data at input byte N" (N: 0-based offset in `text`).
Result<std::string> Base64Decode(std::string_view text);

// The whole file; NotFound "open <path>: no such file or directory" when it is missing, else
// Internal with strerror. Named after Go's os.ReadFile error text so messages read like kubectl's.
Result<std::string> ReadFile(const std::string& path);

bool FileExists(const std::string& path);

// "/a/b/config" -> "/a/b"; "config" -> "."; "/config" -> "/".
std::string DirName(std::string_view path);

// `path` unchanged when empty or absolute, else dir + "/" + path (filepath.Join without cleaning).
std::string ResolvePath(std::string_view dir, std::string_view path);

}  // namespace lws::rest
