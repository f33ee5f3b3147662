// File: client/rest/http_url.cc
#include "client/rest/http_url.h"

#include <boost/url/parse.hpp>
#include <boost/url/url_view.hpp>

namespace lws::rest {
namespace {

Status BadUrl(std::string_view url, std::string_view why) {
  return Status::BadRequest("invalid server URL \"" + std::string(url) + "\": " + std::string(why));
}

bool Unreserved(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' ||
         c == '_' || c == '.' || c == '~';
}

}  // namespace

Result<ServerUrl> ParseServerUrl(std::string_view text) {
  auto parsed = boost::urls::parse_uri(text);
  if (!parsed) return BadUrl(text, parsed.error().message());
  const boost::urls::url_view& url = *parsed;
  ServerUrl out;
  if (url.scheme() == "https") {
    out.tls = true;
  } else if (url.scheme() != "http") {
    return BadUrl(text, "the scheme must be http or https");
  }
  if (url.has_userinfo() || url.has_query() || url.has_fragment()) {
    return BadUrl(text, "user info, query and fragment are not allowed");
  }
  out.host = std::string(url.host_address());
  if (out.host.empty()) return BadUrl(text, "no host");
  out.port = url.has_port() ? std::string(url.port()) : (out.tls ? "443" : "80");
  const bool ipv6 = url.host_type() == boost::urls::host_type::ipv6;
  out.authority = (ipv6 ? "[" + out.host + "]" : out.host) + ":" + out.port;
  out.origin = std::string(url.scheme()) + "://" + out.authority;
  out.base_path = std::string(url.encoded_path());
  while (!out.base_path.empty() && out.base_path.back() == '/') out.base_path.pop_back();
  return out;
}

Result<AbsoluteUrl> SplitAbsoluteUrl(std::string_view text) {
  auto parsed = boost::urls::parse_uri(text);
  if (!parsed) return BadUrl(text, parsed.error().message());
  std::string origin =
      std::string(parsed->scheme()) + "://" + std::string(parsed->encoded_host_and_port());
  ASSIGN_OR_RETURN(ServerUrl server, ParseServerUrl(origin));
  AbsoluteUrl out{server.origin, std::string(parsed->encoded_target())};
  if (out.target.empty() || out.target.front() != '/') out.target = "/" + out.target;
  return out;
}

std::string QueryEscape(std::string_view value) {
  constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(value.size());
  for (char c : value) {
    if (Unreserved(c)) {
      out.push_back(c);
    } else {
      const auto byte = static_cast<unsigned char>(c);
      out += {'%', kHex[byte >> 4], kHex[byte & 15]};
    }
  }
  return out;
}

std::string QueryString(const std::vector<std::pair<std::string, std::string>>& parameters) {
  std::string out;
  for (const auto& [key, value] : parameters) {
    out += out.empty() ? '?' : '&';
    out += QueryEscape(key) + "=" + QueryEscape(value);
  }
  return out;
}

}  // namespace lws::rest
