// File: apiserver/media_type.h
//
// HTTP Accept headers as the Kubernetes API server reads them. A client lists the media types it
// takes, most preferred first, optionally weighted with q=; Kubernetes adds parameters that name a
// special representation of the same resource:
//
//   application/json;as=Table;v=v1;g=meta.k8s.io, application/json
//   application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList, application/json
//
// ParseAccept turns such a header into MediaRanges in preference order; discovery.h and table.h
// pick their representation from that list. The parser never fails: a malformed range is skipped
// (the server must never answer 406, kubectl-compat.md section 1).
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace lws::apiserver {

// One entry of an Accept header: "type/subtype;key=value;...".
struct MediaRange {
  std::string type;     // lower case; "*" for a wildcard
  std::string subtype;  // lower case; "*" for a wildcard
  // Parameters other than q, keys in lower case, values as sent (quotes removed).
  std::map<std::string, std::string> params;
  double q = 1.0;

  // Returns true iff this range accepts `type`/`subtype` (wildcards in this range match anything).
  bool Accepts(std::string_view type, std::string_view subtype) const;
  // Returns the parameter `key` (lower case) or "" when absent.
  std::string Param(std::string_view key) const;
};

// Returns the ranges of `header` ordered by descending q, ties in header order. Ranges with q=0
// (explicitly refused) are dropped. An empty header means "anything": a single "*/*".
std::vector<MediaRange> ParseAccept(std::string_view header);

}  // namespace lws::apiserver
