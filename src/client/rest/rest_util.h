// File: client/rest/rest_util.h
//
// The helpers the client configuration shares: the path arithmetic kubectl uses to resolve a
// kubeconfig's relative file references against the directory of the file that mentioned them.
// Base64 is api/base64.h; whole-file reads are base/file.h.
#pragma once

#include <string>
#include <string_view>

namespace lws::rest {

// "/a/b/config" -> "/a/b"; "config" -> "."; "/config" -> "/".
std::string DirName(std::string_view path);

// `path` unchanged when empty or absolute, else dir + "/" + path (filepath.Join without cleaning).
std::string ResolvePath(std::string_view dir, std::string_view path);

}  // namespace lws::rest
