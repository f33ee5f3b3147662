#include "api/go_json.h"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>

namespace lws::api {

namespace {

constexpr char kHex[] = "0123456789abcdef";

// True for the ASCII bytes Go copies into a string unescaped when HTML escaping is on: printable
// characters other than `"`, `\`, `<`, `>` and `&` (DEL is printed as is).
bool IsHtmlSafe(unsigned char b) {
  if (b < 0x20 || b >= 0x80) return false;
  return b != '"' && b != '\\' && b != '<' && b != '>' && b != '&';
}

bool IsContinuation(unsigned char b) { return b >= 0x80 && b <= 0xBF; }

// Returns the length (2 to 4) of the valid UTF-8 sequence starting at s[i], a non-ASCII byte, or
// 0 when Go's utf8.DecodeRune would return (RuneError, 1): bad lead byte, overlong form,
// surrogate, code point above U+10FFFF, or a sequence cut short.
std::size_t ValidSequenceLength(std::string_view s, std::size_t i) {
  const auto b0 = static_cast<unsigned char>(s[i]);
  std::size_t length = 0;
  unsigned char lo = 0x80;
  unsigned char hi = 0xBF;
  if (b0 >= 0xC2 && b0 <= 0xDF) {
    length = 2;
  } else if (b0 >= 0xE0 && b0 <= 0xEF) {
    length = 3;
    if (b0 == 0xE0) lo = 0xA0;  // overlong
    if (b0 == 0xED) hi = 0x9F;  // surrogates
  } else if (b0 >= 0xF0 && b0 <= 0xF4) {
    length = 4;
    if (b0 == 0xF0) lo = 0x90;  // overlong
    if (b0 == 0xF4) hi = 0x8F;  // above U+10FFFF
  } else {
    return 0;
  }
  if (i + length > s.size()) return 0;
  const auto b1 = static_cast<unsigned char>(s[i + 1]);
  if (b1 < lo || b1 > hi) return 0;
  for (std::size_t k = 2; k < length; ++k) {
    if (!IsContinuation(static_cast<unsigned char>(s[i + k]))) return 0;
  }
  return length;
}

void AppendEscapedAscii(unsigned char b, std::string* out) {
  out->push_back('\\');
  switch (b) {
    case '"':
      out->push_back('"');
      return;
    case '\\':
      out->push_back('\\');
      return;
    case '\n':
      out->push_back('n');
      return;
    case '\r':
      out->push_back('r');
      return;
    case '\t':
      out->push_back('t');
      return;
    case '\b':
      out->push_back('b');
      return;
    case '\f':
      out->push_back('f');
      return;
    default:
      out->append("u00");
      out->push_back(kHex[b >> 4]);
      out->push_back(kHex[b & 0xF]);
  }
}

// The shortest decimal digits of a finite, non-zero |f| and the exponent of the first digit:
// |f| = d.ddd x 10^exponent.
struct ShortestDecimal {
  std::string digits;
  int exponent = 0;
};

ShortestDecimal Shortest(double f) {
  // std::to_chars without a precision yields the shortest digits that round-trip, as
  // strconv.FormatFloat(f, 'e', -1, 64) does; only the layout is re-done below.
  char buf[64];
  auto result = std::to_chars(buf, buf + sizeof(buf), std::fabs(f), std::chars_format::scientific);
  std::string_view text(buf, static_cast<std::size_t>(result.ptr - buf));
  ShortestDecimal out;
  std::size_t e = text.find('e');
  for (char c : text.substr(0, e)) {
    if (c != '.') out.digits.push_back(c);
  }
  out.exponent = std::atoi(std::string(text.substr(e + 1)).c_str());
  return out;
}

std::string FixedLayout(const ShortestDecimal& d) {
  const int count = static_cast<int>(d.digits.size());
  if (d.exponent < 0) {
    return "0." + std::string(static_cast<std::size_t>(-d.exponent - 1), '0') + d.digits;
  }
  if (d.exponent >= count - 1) {
    return d.digits + std::string(static_cast<std::size_t>(d.exponent - (count - 1)), '0');
  }
  const auto point = static_cast<std::size_t>(d.exponent + 1);
  return d.digits.substr(0, point) + "." + d.digits.substr(point);
}

std::string ExponentLayout(const ShortestDecimal& d) {
  std::string out = d.digits.substr(0, 1);
  if (d.digits.size() > 1) out += "." + d.digits.substr(1);
  out.push_back('e');
  out.push_back(d.exponent < 0 ? '-' : '+');
  const int magnitude = std::abs(d.exponent);
  // strconv pads the exponent to two digits; encoding/json strips the pad of negative ones.
  if (magnitude < 10 && d.exponent >= 0) out.push_back('0');
  out += std::to_string(magnitude);
  return out;
}

void AppendValue(const Json& value, std::string* out);

void AppendObject(const Json& value, std::string* out) {
  // nlohmann objects are std::maps keyed by std::string, whose ordering compares bytes as
  // unsigned char: the byte order Go sorts map keys by.
  out->push_back('{');
  bool first = true;
  for (auto it = value.begin(); it != value.end(); ++it) {
    if (!first) out->push_back(',');
    first = false;
    AppendGoJsonString(it.key(), out);
    out->push_back(':');
    AppendValue(*it, out);
  }
  out->push_back('}');
}

void AppendArray(const Json& value, std::string* out) {
  out->push_back('[');
  bool first = true;
  for (const auto& item : value) {
    if (!first) out->push_back(',');
    first = false;
    AppendValue(item, out);
  }
  out->push_back(']');
}

void AppendValue(const Json& value, std::string* out) {
  switch (value.type()) {
    case Json::value_t::object:
      AppendObject(value, out);
      return;
    case Json::value_t::array:
      AppendArray(value, out);
      return;
    case Json::value_t::string:
      AppendGoJsonString(value.get_ref<const std::string&>(), out);
      return;
    case Json::value_t::boolean:
      out->append(value.get<bool>() ? "true" : "false");
      return;
    case Json::value_t::number_integer:
      out->append(FormatGoFloat(static_cast<double>(value.get<std::int64_t>())));
      return;
    case Json::value_t::number_unsigned:
      out->append(FormatGoFloat(static_cast<double>(value.get<std::uint64_t>())));
      return;
    case Json::value_t::number_float:
      out->append(FormatGoFloat(value.get<double>()));
      return;
    case Json::value_t::null:
    case Json::value_t::binary:
    case Json::value_t::discarded:
      out->append("null");
      return;
  }
}

}  // namespace

std::string FormatGoFloat(double f) {
  if (!std::isfinite(f)) return "null";
  if (f == 0) return std::signbit(f) ? "-0" : "0";
  const ShortestDecimal d = Shortest(f);
  const double magnitude = std::fabs(f);
  std::string body = (magnitude < 1e-6 || magnitude >= 1e21) ? ExponentLayout(d) : FixedLayout(d);
  return f < 0 ? "-" + body : body;
}

void AppendGoJsonString(std::string_view s, std::string* out) {
  out->push_back('"');
  std::size_t start = 0;  // first byte not yet copied
  std::size_t i = 0;
  auto flush = [&] { out->append(s.substr(start, i - start)); };
  while (i < s.size()) {
    const auto b = static_cast<unsigned char>(s[i]);
    if (b < 0x80) {
      if (IsHtmlSafe(b)) {
        ++i;
        continue;
      }
      flush();
      AppendEscapedAscii(b, out);
      start = ++i;
      continue;
    }
    const std::size_t length = ValidSequenceLength(s, i);
    if (length == 0) {
      flush();
      out->append("\\ufffd");
      start = ++i;
      continue;
    }
    // U+2028 and U+2029 (E2 80 A8/A9) break JavaScript string literals; Go escapes them.
    if (length == 3 && b == 0xE2 && static_cast<unsigned char>(s[i + 1]) == 0x80 &&
        (static_cast<unsigned char>(s[i + 2]) & 0xFE) == 0xA8) {
      flush();
      out->append(static_cast<unsigned char>(s[i + 2]) == 0xA8 ? "\\u2028" : "\\u2029");
      i += length;
      start = i;
      continue;
    }
    i += length;
  }
  flush();
  out->push_back('"');
}

std::string MarshalGoJson(const Json& value) {
  std::string out;
  AppendValue(value, &out);
  return out;
}

bool IsValidUtf8(std::string_view s) {
  for (std::size_t i = 0; i < s.size();) {
    if (static_cast<unsigned char>(s[i]) < 0x80) {
      ++i;
      continue;
    }
    const std::size_t length = ValidSequenceLength(s, i);
    if (length == 0) return false;
    i += length;
  }
  return true;
}

std::string_view GoJsonKind(const Json& value) {
  if (value.is_object()) return "object";
  if (value.is_array()) return "array";
  if (value.is_string()) return "string";
  if (value.is_boolean()) return "bool";
  return "number";
}

}  // namespace lws::api
