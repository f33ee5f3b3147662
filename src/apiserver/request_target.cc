// File: apiserver/request_target.cc
#include "apiserver/request_target.h"

#include <boost/url/parse.hpp>
#include <boost/url/url_view.hpp>
#include <vector>

#include "base/status.h"

namespace lws::apiserver {
namespace {

using Segments = std::vector<std::string>;

bool IsHealthPath(const Segments& s) {
  return !s.empty() && (s[0] == "healthz" || s[0] == "readyz" || s[0] == "livez");
}

// {resource}[/{name}[/{subresource}]] after the group/version prefix, with the namespace forms.
void ParseResourcePath(const Segments& s, std::size_t i, RequestTarget* t) {
  std::size_t n = s.size() - i;
  if (n == 0) {
    t->kind = TargetKind::kResourceList;
    return;
  }
  if (s[i] == "namespaces" && n >= 3) {
    // namespaces/{ns}/{resource}...: a namespaced resource, except the namespace's own
    // subresources (namespaces/{name}/status, namespaces/{name}/finalize).
    bool own_subresource = n == 3 && (s[i + 2] == "status" || s[i + 2] == "finalize");
    if (!own_subresource) {
      t->namespace_ = s[i + 1];
      i += 2;
      n -= 2;
    }
  }
  if (n > 3) return;  // too deep: unknown
  t->kind = TargetKind::kResource;
  t->resource = s[i];
  if (n >= 2) t->name = s[i + 1];
  if (n == 3) t->subresource = s[i + 2];
}

void Classify(const Segments& s, RequestTarget* t) {
  if (s.size() == 1 && s[0] == "version") {
    t->kind = TargetKind::kVersion;
  } else if (IsHealthPath(s)) {
    t->kind = TargetKind::kHealth;
  } else if (!s.empty() && s[0] == "api") {
    if (s.size() == 1) {
      t->kind = TargetKind::kCoreVersions;
      return;
    }
    t->version = s[1];
    ParseResourcePath(s, 2, t);
  } else if (!s.empty() && s[0] == "apis") {
    if (s.size() == 1) {
      t->kind = TargetKind::kGroupList;
      return;
    }
    t->group = s[1];
    if (s.size() == 2) {
      t->kind = TargetKind::kGroup;
      return;
    }
    t->version = s[2];
    ParseResourcePath(s, 3, t);
  } else if (s.size() == 2 && s[0] == "openapi" && s[1] == "v2") {
    t->kind = TargetKind::kOpenApiV2;
  } else if (s.size() >= 2 && s[0] == "openapi" && s[1] == "v3") {
    if (s.size() == 2) {
      t->kind = TargetKind::kOpenApiRoot;
    } else if (s.size() == 4 && s[2] == "api") {
      t->kind = TargetKind::kOpenApiDoc;
      t->version = s[3];
    } else if (s.size() == 5 && s[2] == "apis") {
      t->kind = TargetKind::kOpenApiDoc;
      t->group = s[3];
      t->version = s[4];
    }
  }
}

}  // namespace

void QueryParams::Set(std::string key, std::string value) {
  values_.emplace(std::move(key), std::move(value));  // first value wins
}

void QueryParams::Replace(std::string key, std::string value) {
  values_.insert_or_assign(std::move(key), std::move(value));
}

bool QueryParams::Has(std::string_view key) const { return values_.find(key) != values_.end(); }

std::string QueryParams::Get(std::string_view key) const {
  auto it = values_.find(key);
  return it == values_.end() ? "" : it->second;
}

bool QueryParams::GetBool(std::string_view key) const {
  std::string v = Get(key);
  return v == "true" || v == "1" || v == "True" || v == "TRUE" || v == "t" || v == "T";
}

namespace {

// A path of unreserved characters and '/' only, with no query: what clients send for most
// requests. Such a target is valid origin form and none of its segments is percent-encoded, so
// splitting it at '/' gives what Boost.URL gives, without Boost.URL's general parse. Except a
// leading "/./": Boost.URL reads it as the
// prefix that lets a path begin with an empty segment and leaves the "." out, so such paths go
// to Boost.URL.
bool IsPlainPath(std::string_view target) {
  if (target.empty() || target.front() != '/' || target.starts_with("/./")) return false;
  for (char c : target) {
    const bool unreserved = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                            (c >= '0' && c <= '9') || c == '-' || c == '.' || c == '_' || c == '~';
    if (!unreserved && c != '/') return false;
  }
  return true;
}

RequestTarget ParsePlainPath(std::string_view target) {
  RequestTarget t;
  t.path = std::string(target);
  Segments segments;
  std::size_t start = 1;
  while (start <= target.size()) {
    std::size_t end = target.find('/', start);
    if (end == std::string_view::npos) end = target.size();
    if (end > start) segments.emplace_back(target.substr(start, end - start));
    start = end + 1;
  }
  Classify(segments, &t);
  return t;
}

}  // namespace

Result<RequestTarget> ParseRequestTarget(std::string_view target) {
  if (IsPlainPath(target)) return ParsePlainPath(target);
  return ParseRequestTargetWithUrl(target);
}

Result<RequestTarget> ParseRequestTargetWithUrl(std::string_view target) {
  auto parsed = boost::urls::parse_origin_form(target);
  if (!parsed) {
    return Status(Code::kBadRequest, "invalid request URI: " + parsed.error().message());
  }
  RequestTarget t;
  Segments segments;
  try {
    for (auto segment : parsed->segments()) {
      if (!segment.empty()) segments.push_back(std::string(segment));
    }
    t.path = std::string(parsed->path());
    boost::urls::encoding_opts opts;
    opts.space_as_plus = true;
    for (auto param : parsed->encoded_params()) {
      std::string key = param.key.decode(opts);
      std::string value = param.has_value ? param.value.decode(opts) : std::string();
      t.query.Set(std::move(key), std::move(value));
    }
  } catch (const std::exception& e) {
    return Status(Code::kBadRequest, std::string("invalid request URI: ") + e.what());
  }
  Classify(segments, &t);
  return t;
}

}  // namespace lws::apiserver
