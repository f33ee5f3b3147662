// Literal scanning for the JSONPath parser: Go's strconv.Atoi and unquoting rules, and the %#U
// rune description of client-go's error messages.
#include "apiserver/jsonpath_literals.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>

namespace lws::apiserver::jsonpath_literals {

namespace {

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

void AppendUtf8(std::uint32_t cp, std::string* out) {
  if (cp < 0x80) {
    out->push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out->push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out->push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out->push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

int HexValue(char c) {
  if (IsDigit(c)) return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

// Go's strconv.Atoi for the characters a number or an index may hold.
bool ParseInt64(std::string_view s, std::int64_t* out) {
  std::string text(s);
  if (text.empty() || text == "+" || text == "-") return false;
  std::size_t digits_from = (text[0] == '+' || text[0] == '-') ? 1 : 0;
  for (std::size_t i = digits_from; i < text.size(); ++i) {
    if (!IsDigit(text[i])) return false;
  }
  errno = 0;
  char* end = nullptr;
  long long v = std::strtoll(text.c_str(), &end, 10);
  if (errno == ERANGE || end != text.c_str() + text.size()) return false;
  *out = v;
  return true;
}

// Go's strconv unquoting of a '...' or "..." literal (client-go UnquoteExtend).
bool Unquote(std::string_view quoted, std::string* out) {
  char quote = quoted.front();
  std::string_view s = quoted.substr(1, quoted.size() - 2);
  for (std::size_t i = 0; i < s.size();) {
    char c = s[i++];
    if (c == quote) return false;
    if (c != '\\') {
      out->push_back(c);
      continue;
    }
    if (i >= s.size()) return false;
    char e = s[i++];
    switch (e) {
      case 'a':
        out->push_back('\a');
        continue;
      case 'b':
        out->push_back('\b');
        continue;
      case 'f':
        out->push_back('\f');
        continue;
      case 'n':
        out->push_back('\n');
        continue;
      case 'r':
        out->push_back('\r');
        continue;
      case 't':
        out->push_back('\t');
        continue;
      case 'v':
        out->push_back('\v');
        continue;
      case '\\':
        out->push_back('\\');
        continue;
      case '\'':
      case '"':
        if (e != quote) return false;
        out->push_back(e);
        continue;
      default:
        break;
    }
    int width = e == 'x' ? 2 : e == 'u' ? 4 : e == 'U' ? 8 : 0;
    if (width > 0) {
      if (i + width > s.size()) return false;
      std::uint32_t v = 0;
      for (int k = 0; k < width; ++k) {
        int h = HexValue(s[i + k]);
        if (h < 0) return false;
        v = v * 16 + static_cast<std::uint32_t>(h);
      }
      i += width;
      if (e == 'x') {
        out->push_back(static_cast<char>(v));
      } else {
        if (v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF)) return false;
        AppendUtf8(v, out);
      }
      continue;
    }
    if (e >= '0' && e <= '7') {
      if (i + 2 > s.size()) return false;
      std::uint32_t v = static_cast<std::uint32_t>(e - '0');
      for (int k = 0; k < 2; ++k) {
        char o = s[i + k];
        if (o < '0' || o > '7') return false;
        v = v * 8 + static_cast<std::uint32_t>(o - '0');
      }
      if (v > 255) return false;
      i += 2;
      out->push_back(static_cast<char>(v));
      continue;
    }
    return false;
  }
  return true;
}

std::string DescribeRune(char c) {
  char buf[32];
  auto u = static_cast<unsigned char>(c);
  if (u >= 0x20 && u < 0x7F) {
    std::snprintf(buf, sizeof buf, "U+%04X '%c'", u, c);
  } else {
    std::snprintf(buf, sizeof buf, "U+%04X", u);
  }
  return buf;
}

}  // namespace lws::apiserver::jsonpath_literals
