// String formats checked by the API server for CRDs (the formats kube-openapi's strfmt.Default
// registry knows and apiextensions keeps; all others are stripped from the schema), and Go's
// json.Marshal rendering used in messages and uniqueness keys.
#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <set>

#include "api/schema_node.h"
#include "api/yaml_scalar.h"

namespace lws::api {
namespace {

std::string Normalize(std::string_view format) {
  std::string out;
  for (char c : format) {
    if (c != '-') out.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  }
  return out;
}

bool AllOf(std::string_view s, int (*pred)(int)) {
  return std::all_of(s.begin(), s.end(),
                     [&](char c) { return pred(static_cast<unsigned char>(c)) != 0; });
}

bool Digits(std::string_view s, std::size_t n) { return s.size() == n && AllOf(s, ::isdigit); }

// RFC 3339 full-date: YYYY-MM-DD with a real month and day.
bool IsDate(std::string_view s) {
  if (s.size() != 10 || s[4] != '-' || s[7] != '-') return false;
  if (!Digits(s.substr(0, 4), 4) || !Digits(s.substr(5, 2), 2) || !Digits(s.substr(8, 2), 2))
    return false;
  int year = std::stoi(std::string(s.substr(0, 4)));
  int month = std::stoi(std::string(s.substr(5, 2)));
  int day = std::stoi(std::string(s.substr(8, 2)));
  static const int kDays[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (month < 1 || month > 12 || day < 1 || day > kDays[month - 1]) return false;
  bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  return !(month == 2 && day == 29 && !leap);
}

// RFC 3339 date-time: date, 'T', hh:mm:ss, optional fraction, then Z or +hh:mm (strfmt also
// accepts a lower-case t/z and a zone without colon).
bool IsDateTime(std::string_view s) {
  if (s.size() < 20 || !IsDate(s.substr(0, 10)) || (s[10] != 'T' && s[10] != 't')) return false;
  std::string_view t = s.substr(11);
  if (t.size() < 9 || t[2] != ':' || t[5] != ':' || !Digits(t.substr(0, 2), 2) ||
      !Digits(t.substr(3, 2), 2) || !Digits(t.substr(6, 2), 2)) {
    return false;
  }
  if (std::stoi(std::string(t.substr(0, 2))) > 23 || std::stoi(std::string(t.substr(3, 2))) > 59 ||
      std::stoi(std::string(t.substr(6, 2))) > 60) {
    return false;
  }
  std::size_t i = 8;
  if (i < t.size() && t[i] == '.') {
    std::size_t start = ++i;
    while (i < t.size() && std::isdigit(static_cast<unsigned char>(t[i]))) ++i;
    if (i == start) return false;
  }
  std::string_view zone = t.substr(i);
  if (zone == "Z" || zone == "z") return true;
  if (zone.size() != 6 && zone.size() != 5) return false;
  if (zone[0] != '+' && zone[0] != '-') return false;
  if (zone.size() == 6)
    return zone[3] == ':' && Digits(zone.substr(1, 2), 2) && Digits(zone.substr(4, 2), 2);
  return Digits(zone.substr(1, 4), 4);
}

bool IsHex(std::string_view s) { return !s.empty() && AllOf(s, ::isxdigit); }

bool IsUuid(std::string_view s, char version) {
  std::string compact;
  for (char c : s) {
    if (c != '-') compact.push_back(c);
  }
  if (compact.size() != 32 || !IsHex(compact)) return false;
  if (s.size() == 36 && (s[8] != '-' || s[13] != '-' || s[18] != '-' || s[23] != '-')) return false;
  if (s.size() != 32 && s.size() != 36) return false;
  if (version == 0) return true;
  char variant = static_cast<char>(std::tolower(static_cast<unsigned char>(compact[16])));
  return compact[12] == version &&
         (version == '3' || std::string_view("89ab").find(variant) != std::string_view::npos);
}

bool IsIPv4(std::string_view s) {
  int parts = 0;
  std::size_t start = 0;
  while (true) {
    std::size_t dot = s.find('.', start);
    std::string_view part =
        s.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start);
    if (part.empty() || part.size() > 3 || !AllOf(part, ::isdigit) ||
        std::stoi(std::string(part)) > 255)
      return false;
    if (part.size() > 1 && part[0] == '0') return false;
    ++parts;
    if (dot == std::string_view::npos) break;
    start = dot + 1;
  }
  return parts == 4;
}

bool IsIPv6(std::string_view s) {
  if (s.find(':') == std::string_view::npos) return false;
  int groups = 0;
  bool compressed = false;
  std::size_t i = 0;
  if (s.substr(0, 2) == "::") compressed = true, i = 2;
  while (i < s.size()) {
    std::size_t colon = s.find(':', i);
    std::string_view group =
        s.substr(i, colon == std::string_view::npos ? std::string_view::npos : colon - i);
    if (colon == std::string_view::npos && group.find('.') != std::string_view::npos) {
      if (!IsIPv4(group)) return false;
      groups += 2;
      break;
    }
    if (group.empty() || group.size() > 4 || !IsHex(group)) return false;
    ++groups;
    if (colon == std::string_view::npos) break;
    i = colon + 1;
    if (i < s.size() && s[i] == ':') {
      if (compressed) return false;
      compressed = true;
      ++i;
    } else if (i == s.size()) {
      return false;
    }
  }
  return compressed ? groups < 8 : groups == 8;
}

bool IsCidr(std::string_view s) {
  std::size_t slash = s.find('/');
  if (slash == std::string_view::npos) return false;
  std::string_view bits = s.substr(slash + 1);
  if (bits.empty() || bits.size() > 3 || !AllOf(bits, ::isdigit)) return false;
  int n = std::stoi(std::string(bits));
  std::string_view ip = s.substr(0, slash);
  return (IsIPv4(ip) && n <= 32) || (IsIPv6(ip) && n <= 128);
}

bool IsMac(std::string_view s) {
  for (char sep : {':', '-'}) {
    std::size_t groups = 0;
    bool ok = true;
    for (std::size_t i = 0; i < s.size(); i += 3, ++groups) {
      if (!IsHex(s.substr(i, 2)) || s.substr(i, 2).size() != 2) ok = false;
      if (i + 2 < s.size() && s[i + 2] != sep) ok = false;
    }
    if (ok && (groups == 6 || groups == 8 || groups == 20)) return true;
  }
  return false;
}

// RFC 1123 host name as strfmt checks it: dot-separated labels of letters, digits and '-'.
bool IsHostname(std::string_view s) {
  if (s.empty() || s.size() > 255) return false;
  std::size_t start = 0;
  while (start <= s.size()) {
    std::size_t dot = s.find('.', start);
    std::string_view label =
        s.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start);
    if (label.empty() && dot == std::string_view::npos && start > 0) break;  // trailing dot
    if (label.empty() || label.size() > 63 || label.front() == '-' || label.back() == '-')
      return false;
    for (char c : label) {
      if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-') return false;
    }
    if (dot == std::string_view::npos) break;
    start = dot + 1;
  }
  return true;
}

bool IsBase64(std::string_view s) {
  if (s.size() % 4 != 0) return false;
  std::size_t pad = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (c == '=') {
      ++pad;
      continue;
    }
    if (pad > 0 || !(std::isalnum(static_cast<unsigned char>(c)) || c == '+' || c == '/'))
      return false;
  }
  return pad <= 2;
}

}  // namespace

bool IsKnownStringFormat(std::string_view format) {
  static const std::set<std::string> kKnown = {
      "bsonobjectid", "uri",    "email",    "hostname",   "ipv4",     "ipv6",
      "cidr",         "mac",    "uuid",     "uuid3",      "uuid4",    "uuid5",
      "isbn",         "isbn10", "isbn13",   "creditcard", "ssn",      "hexcolor",
      "rgbcolor",     "byte",   "password", "date",       "duration", "datetime"};
  return !format.empty() && kKnown.count(Normalize(format)) > 0;
}

bool MatchesStringFormat(std::string_view format, const std::string& v) {
  std::string f = Normalize(format);
  if (f == "datetime") return IsDateTime(v);
  if (f == "date") return IsDate(v);
  if (f == "byte") return IsBase64(v);
  if (f == "uuid") return IsUuid(v, 0);
  if (f == "uuid3" || f == "uuid4" || f == "uuid5") return IsUuid(v, f.back());
  if (f == "ipv4") return IsIPv4(v);
  if (f == "ipv6") return IsIPv6(v);
  if (f == "cidr") return IsCidr(v);
  if (f == "mac") return IsMac(v);
  if (f == "hostname") return IsHostname(v);
  if (f == "bsonobjectid") return v.size() == 24 && IsHex(v);
  if (f == "hexcolor") {
    std::string_view h = v;
    if (!h.empty() && h[0] == '#') h.remove_prefix(1);
    return (h.size() == 3 || h.size() == 6) && IsHex(h);
  }
  // uri, email, isbn*, creditcard, ssn, rgbcolor, duration and password are accepted as they
  // are: their strfmt checks are not reproduced here.
  return true;
}

std::string GoJsonMarshal(const Json& v) {
  if (v.is_number_float()) {
    double f = v.get<double>();
    if (!std::isfinite(f)) return "null";
    double a = std::fabs(f);
    if (a != 0 && (a < 1e-6 || a >= 1e21)) {
      std::string s = yaml_internal::FormatGoFloat(f, 64);  // exponent form here
      std::size_t e = s.find("e-0");
      if (e != std::string::npos && e + 4 == s.size()) s.erase(e + 2, 1);
      e = s.find("e+0");
      if (e != std::string::npos && e + 4 == s.size()) s.erase(e + 2, 1);
      return s;
    }
    char buf[512];
    auto r = std::to_chars(buf, buf + sizeof buf, f, std::chars_format::fixed);  // shortest
    std::string s(buf, r.ptr);
    return s;
  }
  if (v.is_structured()) {
    std::string out = v.is_array() ? "[" : "{";
    bool first = true;
    for (auto it = v.begin(); it != v.end(); ++it) {
      if (!first) out += ",";
      first = false;
      if (v.is_object()) out += Json(it.key()).dump() + ":";
      out += GoJsonMarshal(it.value());
    }
    return out + (v.is_array() ? "]" : "}");
  }
  return v.dump();
}

}  // namespace lws::api
