// File: client/rest/http_url.h
//
// URL arithmetic for the REST client: the parts of a server URL the transport dials and names in
// messages, the split of an absolute URL into server and request target (webhook calls), and
// query strings built from values that may hold any byte (label selectors, field managers,
// continue tokens).
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/result.h"

namespace lws::rest {

struct ServerUrl {
  bool tls = false;
  std::string host;       // as dialled: "127.0.0.1", "::1" (no brackets), "kube.example.com"
  std::string port;       // "6443"; the scheme's default when the URL names none
  std::string authority;  // "127.0.0.1:6443", "[::1]:6443": the Host header and dial messages
  std::string origin;     // "https://127.0.0.1:6443"
  std::string base_path;  // "" or a proxy's prefix without trailing '/': "/k8s/clusters/c-1"
};

// A kubeconfig's server: http or https, a host, an optional port and path; no query, fragment
// or user info. Errors name the URL and what is wrong with it.
Result<ServerUrl> ParseServerUrl(std::string_view url);

struct AbsoluteUrl {
  std::string origin;  // "https://webhook.ns.svc:443"
  std::string target;  // "/validate?timeout=10s" ("/" when the URL has no path)
};
Result<AbsoluteUrl> SplitAbsoluteUrl(std::string_view url);

// Percent-encodes a query key or value as Go's url.QueryEscape does, except that a space
// becomes %20 (both forms decode the same).
std::string QueryEscape(std::string_view value);

// "?k1=v1&k2=v2" (each escaped), "" for no parameters.
std::string QueryString(const std::vector<std::pair<std::string, std::string>>& parameters);

}  // namespace lws::rest
