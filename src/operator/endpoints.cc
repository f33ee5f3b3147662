// Health checks, the metrics handler and bind addresses (endpoints.h).
#include "operator/endpoints.h"

#include <fmt/format.h>

#include <charconv>
#include <set>

#include "operator/metrics_registry.h"

namespace lws::op {
namespace {

using transport::HttpRequest;
using transport::HttpResponse;

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Percent-decoding; `plus_is_space` for query values. Broken escapes are kept as they are.
std::string Unescape(std::string_view s, bool plus_is_space) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size() && HexValue(s[i + 1]) >= 0 && HexValue(s[i + 2]) >= 0) {
      out.push_back(static_cast<char>(HexValue(s[i + 1]) * 16 + HexValue(s[i + 2])));
      i += 2;
    } else if (s[i] == '+' && plus_is_space) {
      out.push_back(' ');
    } else {
      out.push_back(s[i]);
    }
  }
  return out;
}

HttpResponse Text(int status, std::string body) {
  HttpResponse response;
  response.status = status;
  response.headers.Add("Content-Type", "text/plain; charset=utf-8");
  response.headers.Add("X-Content-Type-Options", "nosniff");
  response.body = std::move(body);
  return response;
}

struct CheckOutcome {
  std::string name;
  bool healthy = true;
  bool excluded = false;
};

// Serves `path` when it is `endpoint` or below it; nullopt otherwise.
std::optional<std::string_view> Below(std::string_view path, std::string_view endpoint) {
  if (path == endpoint) return std::string_view();
  if (path.size() > endpoint.size() && path.substr(0, endpoint.size()) == endpoint &&
      path[endpoint.size()] == '/') {
    return path.substr(endpoint.size());
  }
  return std::nullopt;
}

}  // namespace

HttpResponse TextError(int status, std::string_view message) {
  return Text(status, std::string(message) + "\n");
}

void HealthChecks::Add(const std::string& name, HealthCheck check) {
  MutexLock lock(&mu_);
  checks_[name] = std::move(check);
}

HttpResponse HealthChecks::Serve(std::string_view subpath, bool verbose,
                                 const std::vector<std::string>& excludes) const {
  std::map<std::string, HealthCheck> checks;
  {
    MutexLock lock(&mu_);
    checks = checks_;  // run the checks unlocked: one may be slow, Add must not wait for it
  }
  if (checks.empty()) checks.emplace("ping", Ping);
  // path.Clean: "/" and "" serve the aggregate; "/name/" names a check.
  while (!subpath.empty() && subpath.back() == '/') subpath.remove_suffix(1);
  while (!subpath.empty() && subpath.front() == '/') subpath.remove_prefix(1);
  if (!subpath.empty()) {
    auto it = checks.find(std::string(subpath));
    if (it == checks.end()) return TextError(404, "404 page not found");
    Status s = it->second();
    if (!s.ok()) return TextError(500, "internal server error: " + s.message());
    return Text(200, "ok");
  }

  std::set<std::string> unmatched(excludes.begin(), excludes.end());
  std::vector<CheckOutcome> outcomes;
  bool failed = false;
  for (const auto& [name, check] : checks) {
    if (unmatched.erase(name) > 0) {
      outcomes.push_back({name, true, true});
      continue;
    }
    bool healthy = check().ok();
    failed = failed || !healthy;
    outcomes.push_back({name, healthy, false});
  }
  if (!failed && !verbose) return Text(200, "ok");
  std::string body;
  for (const CheckOutcome& c : outcomes) {
    if (c.excluded)
      body += "[+]" + c.name + " excluded: ok\n";
    else if (c.healthy)
      body += "[+]" + c.name + " ok\n";
    else
      body += "[-]" + c.name + " failed: reason withheld\n";
  }
  if (!unmatched.empty()) {
    std::vector<std::string> quoted;
    for (const std::string& name : unmatched) quoted.push_back("\"" + name + "\"");
    body += fmt::format("warn: some health checks cannot be excluded: no matches for {}\n",
                        fmt::join(quoted, ","));
  }
  body += failed ? "healthz check failed\n" : "healthz check passed\n";
  return Text(failed ? 500 : 200, std::move(body));
}

transport::HttpHandler HealthProbeHandler(std::string liveness_path, const HealthChecks* liveness,
                                          std::string readiness_path,
                                          const HealthChecks* readiness) {
  return [liveness_path = std::move(liveness_path), liveness,
          readiness_path = std::move(readiness_path), readiness](const HttpRequest& request) {
    const std::string path = TargetPath(request.target);
    const bool verbose = !QueryValues(request.target, "verbose").empty();
    const std::vector<std::string> excludes = QueryValues(request.target, "exclude");
    if (auto sub = Below(path, readiness_path)) return readiness->Serve(*sub, verbose, excludes);
    if (auto sub = Below(path, liveness_path)) return liveness->Serve(*sub, verbose, excludes);
    return TextError(404, "404 page not found");
  };
}

transport::HttpHandler MetricsHandler(const Registry* registry) {
  return [registry](const HttpRequest& request) {
    if (TargetPath(request.target) != "/metrics") return TextError(404, "404 page not found");
    HttpResponse response;
    response.headers.Add("Content-Type", std::string(kExpositionContentType));
    response.body = registry->Exposition();
    return response;
  };
}

std::string TargetPath(std::string_view target) {
  return Unescape(target.substr(0, target.find('?')), false);
}

std::vector<std::string> QueryValues(std::string_view target, std::string_view key) {
  std::vector<std::string> values;
  std::size_t q = target.find('?');
  if (q == std::string_view::npos) return values;
  std::string_view query = target.substr(q + 1);
  while (!query.empty()) {
    std::size_t amp = query.find('&');
    std::string_view pair = query.substr(0, amp);
    query = amp == std::string_view::npos ? std::string_view() : query.substr(amp + 1);
    std::size_t eq = pair.find('=');
    if (Unescape(pair.substr(0, eq), true) != key) continue;
    values.push_back(eq == std::string_view::npos ? "" : Unescape(pair.substr(eq + 1), true));
  }
  return values;
}

Result<std::optional<BindAddress>> ParseBindAddress(std::string_view text) {
  if (text.empty() || text == "0") return std::optional<BindAddress>();
  auto bad = [&](std::string_view why) {
    return Status::BadRequest(fmt::format("invalid bind address \"{}\": {}", text, why));
  };
  std::size_t colon = text.rfind(':');
  if (colon == std::string_view::npos) return bad("missing port (want host:port or :port)");
  std::string_view host = text.substr(0, colon);
  std::string_view port_text = text.substr(colon + 1);
  unsigned port = 0;
  auto [end, ec] = std::from_chars(port_text.data(), port_text.data() + port_text.size(), port);
  if (port_text.empty() || ec != std::errc() || end != port_text.data() + port_text.size() ||
      port > 65535) {
    return bad("port must be a number from 0 to 65535");
  }
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']')
    host = host.substr(1, host.size() - 2);
  else if (host.find(':') != std::string_view::npos)
    return bad("an IPv6 host must be in brackets");
  BindAddress address{std::string(host), static_cast<std::uint16_t>(port)};
  if (host.empty())
    address.host = "0.0.0.0";
  else if (host == "localhost")
    address.host = "127.0.0.1";
  else if (host.find_first_not_of("0123456789.") != std::string_view::npos &&
           host.find_first_not_of("0123456789abcdefABCDEF:.") != std::string_view::npos) {
    return bad("the host must be an IP address or localhost");
  }
  return std::optional<BindAddress>(address);
}

}  // namespace lws::op
