// YAML emitting in the style of `kubectl get -o yaml` (goyaml.v2's encoder): block collections,
// two-space indentation, sequences at their key's indentation, natural key order, and quoting
// decided by asking the loader's own scalar resolver what a plain scalar would mean.
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "api/yaml.h"
#include "api/yaml_scalar.h"

namespace lws::api {
namespace {

using yaml_internal::NextCodePoint;

bool IsAsciiDigit(char32_t c) { return c >= '0' && c <= '9'; }
// unicode.IsLetter for ASCII; every non-ASCII code point counts as a letter (nearly all keys
// that hold any are words in some script).
bool IsLetter(char32_t c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c >= 0x80; }

std::u32string Runes(std::string_view s) {
  std::u32string out;
  for (std::size_t i = 0; i < s.size();) {
    char32_t c = 0;
    if (!NextCodePoint(s, &i, &c)) c = static_cast<unsigned char>(s[i++]);
    out.push_back(c);
  }
  return out;
}

// goyaml.v2's keyList.Less for two string keys: letters compare by code point, a non-letter sorts
// before a letter (after one when following a digit), digit runs compare numerically.
bool GoKeyLess(const std::u32string& a, const std::u32string& b) {
  bool digits = false;
  for (std::size_t i = 0; i < a.size() && i < b.size(); ++i) {
    if (a[i] == b[i]) {
      digits = IsAsciiDigit(a[i]);
      continue;
    }
    bool al = IsLetter(a[i]), bl = IsLetter(b[i]);
    if (al && bl) return a[i] < b[i];
    if (al || bl) return digits ? al : bl;
    std::uint64_t an = 0, bn = 0;
    if (a[i] == '0' || b[i] == '0') {
      for (std::size_t j = i; j-- > 0 && IsAsciiDigit(a[j]);) {
        if (a[j] != '0') {
          an = bn = 1;
          break;
        }
      }
    }
    std::size_t ai = i, bi = i;
    for (; ai < a.size() && IsAsciiDigit(a[ai]); ++ai) an = an * 10 + (a[ai] - '0');
    for (; bi < b.size() && IsAsciiDigit(b[bi]); ++bi) bn = bn * 10 + (b[bi] - '0');
    auto as = static_cast<std::int64_t>(an), bs = static_cast<std::int64_t>(bn);
    if (as != bs) return as < bs;
    if (ai != bi) return ai < bi;
    return a[i] < b[i];
  }
  return a.size() < b.size();
}

int TopLevelRank(const std::string& key) {
  static const char* const kFirst[] = {"apiVersion", "kind", "metadata", "spec", "status"};
  for (int i = 0; i < 5; ++i) {
    if (key == kFirst[i]) return i;
  }
  return 5;
}

std::vector<std::string> SortedKeys(const Json& obj, bool top_level) {
  std::vector<std::pair<std::u32string, std::string>> keys;
  for (auto it = obj.begin(); it != obj.end(); ++it) keys.emplace_back(Runes(it.key()), it.key());
  // stable_sort never reads out of range, even if the Go order is not a strict weak order.
  std::stable_sort(keys.begin(), keys.end(), [&](const auto& x, const auto& y) {
    if (top_level) {
      int rx = TopLevelRank(x.second), ry = TopLevelRank(y.second);
      if (rx != ry) return rx < ry;
    }
    return GoKeyLess(x.first, y.first);
  });
  std::vector<std::string> out;
  for (auto& k : keys) out.push_back(std::move(k.second));
  return out;
}

bool IsSpecialBreak(char32_t c) { return c == 0x85 || c == 0x2028 || c == 0x2029 || c == 0xFEFF; }

// True when `s` can be written as a plain scalar and read back as the same string.
bool CanBePlain(const std::string& s) {
  if (s.empty() || s == "<<") return false;
  if (!yaml_internal::ResolvePlain(s).is_string()) return false;
  char first = s.front(), last = s.back();
  if (first == ' ' || last == ' ' || last == ':') return false;
  if (std::string_view("?:,[]{}#&*!|>'\"%@`").find(first) != std::string_view::npos) return false;
  if (first == '-' && (s.size() == 1 || s[1] == ' ' || s.rfind("---", 0) == 0)) return false;
  if (s.rfind("...", 0) == 0) return false;
  if (s.find(": ") != std::string::npos || s.find(" #") != std::string::npos) return false;
  // Keep timestamps quoted, as kubectl does.
  if (s.size() >= 5 && s[4] == '-' &&
      std::all_of(s.begin(), s.begin() + 4, [](char c) { return c >= '0' && c <= '9'; })) {
    return false;
  }
  for (std::size_t i = 0; i < s.size();) {
    char32_t c = 0;
    if (!NextCodePoint(s, &i, &c)) return false;
    if (c == '\t' || c == '\n' || c == '\r' || !yaml_internal::IsPlainPrintable(c)) return false;
  }
  return true;
}

std::string DoubleQuoted(const std::string& s) {
  std::string out = "\"";
  for (std::size_t i = 0; i < s.size();) {
    std::size_t start = i;
    char32_t c = 0;
    if (!NextCodePoint(s, &i, &c)) {  // not UTF-8: keep the byte, nothing better exists
      out.push_back(s[i++]);
      continue;
    }
    char buf[16];
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\r':
        out += "\\r";
        break;
      default:
        if (c < 0x20 || c == 0x7F || (c >= 0x80 && c <= 0x9F)) {
          std::snprintf(buf, sizeof buf, "\\x%02X", static_cast<unsigned>(c));
          out += buf;
        } else if (IsSpecialBreak(c) || c == 0xFFFE || c == 0xFFFF) {
          std::snprintf(buf, sizeof buf, "\\u%04X", static_cast<unsigned>(c));
          out += buf;
        } else {
          out.append(s, start, i - start);
        }
    }
  }
  return out + "\"";
}

// A multi-line string reads best as a literal block; only strings whose every line survives
// the block rules unchanged qualify.
bool CanBeLiteral(const std::string& s) {
  if (s.find('\n') == std::string::npos || s.front() == ' ' || s.front() == '\t' ||
      s.front() == '\n') {
    return false;
  }
  std::size_t line_start = 0;
  for (std::size_t i = 0; i < s.size();) {
    char32_t c = 0;
    std::size_t at = i;
    if (!NextCodePoint(s, &i, &c)) return false;
    if (c == '\r' || (c != '\n' && c != '\t' && !yaml_internal::IsPlainPrintable(c))) return false;
    if (c == '\n') {
      std::string_view line(s.data() + line_start, at - line_start);
      if (!line.empty() && line.find_first_not_of(" \t") == std::string_view::npos) return false;
      line_start = i;
    }
  }
  std::string_view tail(s.data() + line_start, s.size() - line_start);
  return tail.empty() || tail.find_first_not_of(" \t") != std::string_view::npos;
}

void EmitLiteral(const std::string& s, int indent, std::string& out) {
  std::size_t trailing = s.size() - 1 - s.find_last_not_of('\n');
  out += trailing == 0 ? "|-\n" : trailing == 1 ? "|\n" : "|+\n";
  std::string pad(indent, ' ');
  std::size_t start = 0;
  while (start < s.size()) {
    std::size_t nl = s.find('\n', start);
    std::size_t end = nl == std::string::npos ? s.size() : nl;
    if (end > start) out += pad + s.substr(start, end - start);
    out += '\n';
    if (nl == std::string::npos) break;
    start = nl + 1;
  }
}

std::string ScalarText(const Json& v) {
  if (v.is_null()) return "null";
  if (v.is_boolean()) return v.get<bool>() ? "true" : "false";
  if (v.is_number_unsigned()) return std::to_string(v.get<std::uint64_t>());
  if (v.is_number_integer()) return std::to_string(v.get<std::int64_t>());
  if (v.is_number_float()) {
    std::string f = yaml_internal::FormatGoFloat(v.get<double>(), 64);
    if (f == "+Inf") return ".inf";
    if (f == "-Inf") return "-.inf";
    if (f == "NaN") return ".nan";
    return f;
  }
  const std::string& s = v.get_ref<const std::string&>();
  return CanBePlain(s) ? s : DoubleQuoted(s);
}

void EmitMap(const Json& obj, int indent, bool inline_first, bool top_level, std::string& out);
void EmitSeq(const Json& arr, int indent, bool inline_first, std::string& out);

// Writes `v` after "key:" or "- " (which the caller has written) and ends the line(s).
// `child_indent` is where the value's own lines start.
void EmitValue(const Json& v, int child_indent, bool in_seq, std::string& out) {
  if (v.is_object() && !v.empty()) {
    if (in_seq) return EmitMap(v, child_indent, true, false, out);
    out += '\n';
    return EmitMap(v, child_indent, false, false, out);
  }
  if (v.is_array() && !v.empty()) {
    if (in_seq) return EmitSeq(v, child_indent, true, out);
    out += '\n';
    return EmitSeq(v, child_indent - 2, false, out);
  }
  if (!in_seq) out += ' ';
  if (v.is_object()) {
    out += "{}\n";
  } else if (v.is_array()) {
    out += "[]\n";
  } else if (v.is_string() && !CanBePlain(v.get_ref<const std::string&>()) &&
             CanBeLiteral(v.get_ref<const std::string&>())) {
    EmitLiteral(v.get_ref<const std::string&>(), child_indent, out);
  } else {
    out += ScalarText(v) + "\n";
  }
}

void EmitMap(const Json& obj, int indent, bool inline_first, bool top_level, std::string& out) {
  bool first = true;
  for (const std::string& key : SortedKeys(obj, top_level)) {
    if (!(first && inline_first)) out += std::string(indent, ' ');
    first = false;
    std::string text = CanBePlain(key) ? key : DoubleQuoted(key);
    // YAML limits implicit keys to 1024 characters; longer ones need the explicit "? " form.
    if (text.size() > 1000)
      out += "? " + text + "\n" + std::string(indent, ' ') + ":";
    else
      out += text + ":";
    EmitValue(obj[key], indent + 2, false, out);
  }
}

void EmitSeq(const Json& arr, int indent, bool inline_first, std::string& out) {
  bool first = true;
  for (const Json& item : arr) {
    if (!(first && inline_first)) out += std::string(indent, ' ');
    first = false;
    out += "- ";
    EmitValue(item, indent + 2, true, out);
  }
}

}  // namespace

std::string EmitYaml(const Json& value) {
  std::string out;
  if (value.is_object() && !value.empty()) {
    EmitMap(value, 0, false, true, out);
  } else if (value.is_array() && !value.empty()) {
    EmitSeq(value, 0, false, out);
  } else {
    EmitValue(value, 2, true, out);
  }
  return out;
}

}  // namespace lws::api
