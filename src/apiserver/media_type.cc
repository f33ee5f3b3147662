#include "apiserver/media_type.h"

#include <algorithm>
#include <cstdlib>

namespace lws::apiserver {

namespace {

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

// Splits `s` at `sep` outside double-quoted strings.
std::vector<std::string_view> SplitOutsideQuotes(std::string_view s, char sep) {
  std::vector<std::string_view> parts;
  bool quoted = false;
  std::size_t start = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '"') quoted = !quoted;
    if (s[i] == sep && !quoted) {
      parts.push_back(s.substr(start, i - start));
      start = i + 1;
    }
  }
  parts.push_back(s.substr(start));
  return parts;
}

// Parses one "type/subtype;k=v" range; returns false when it is malformed.
bool ParseRange(std::string_view text, MediaRange* out) {
  std::vector<std::string_view> pieces = SplitOutsideQuotes(text, ';');
  std::string_view full = Trim(pieces[0]);
  std::size_t slash = full.find('/');
  if (slash == std::string_view::npos) {
    // Go's mime parser accepts a bare "*" as "*/*"; nothing else without a slash.
    if (full != "*") return false;
    out->type = "*";
    out->subtype = "*";
  } else {
    out->type = Lower(Trim(full.substr(0, slash)));
    out->subtype = Lower(Trim(full.substr(slash + 1)));
  }
  if (out->type.empty() || out->subtype.empty()) return false;
  for (std::size_t i = 1; i < pieces.size(); ++i) {
    std::string_view param = Trim(pieces[i]);
    if (param.empty()) continue;
    std::size_t eq = param.find('=');
    if (eq == std::string_view::npos) return false;
    std::string key = Lower(Trim(param.substr(0, eq)));
    std::string_view value = Trim(param.substr(eq + 1));
    if (value.size() >= 2 && value.front() == '"' && value.back() == '"') {
      value = value.substr(1, value.size() - 2);
    }
    if (key == "q") {
      std::string number(value);
      char* end = nullptr;
      double q = std::strtod(number.c_str(), &end);
      if (number.empty() || end != number.c_str() + number.size() || !(q >= 0.0) || q > 1.0) {
        return false;
      }
      out->q = q;
    } else {
      out->params[key] = std::string(value);
    }
  }
  return true;
}

}  // namespace

bool MediaRange::Accepts(std::string_view t, std::string_view s) const {
  return (type == "*" || type == t) && (subtype == "*" || subtype == s);
}

std::string MediaRange::Param(std::string_view key) const {
  auto it = params.find(std::string(key));
  return it == params.end() ? std::string() : it->second;
}

std::vector<MediaRange> ParseAccept(std::string_view header) {
  std::vector<MediaRange> ranges;
  if (Trim(header).empty()) {
    MediaRange any;
    any.type = "*";
    any.subtype = "*";
    ranges.push_back(any);
    return ranges;
  }
  for (std::string_view piece : SplitOutsideQuotes(header, ',')) {
    if (Trim(piece).empty()) continue;
    MediaRange range;
    if (ParseRange(piece, &range) && range.q > 0.0) ranges.push_back(std::move(range));
  }
  std::stable_sort(ranges.begin(), ranges.end(),
                   [](const MediaRange& a, const MediaRange& b) { return a.q > b.q; });
  return ranges;
}

}  // namespace lws::apiserver
