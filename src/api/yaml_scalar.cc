#include "api/yaml_scalar.h"

#include <charconv>
#include <cmath>
#include <limits>

namespace lws::api::yaml_internal {
namespace {

// goyaml.v2's resolve table: the exact spellings it maps to null, booleans and special floats.
struct Special {
  std::string_view text;
  int kind;  // 0 null, 1 true, 2 false, 3 +inf, 4 -inf, 5 nan
};
constexpr Special kSpecials[] = {
    {"", 0},      {"~", 0},     {"null", 0},  {"Null", 0},  {"NULL", 0},  {"y", 1},
    {"Y", 1},     {"yes", 1},   {"Yes", 1},   {"YES", 1},   {"true", 1},  {"True", 1},
    {"TRUE", 1},  {"on", 1},    {"On", 1},    {"ON", 1},    {"n", 2},     {"N", 2},
    {"no", 2},    {"No", 2},    {"NO", 2},    {"false", 2}, {"False", 2}, {"FALSE", 2},
    {"off", 2},   {"Off", 2},   {"OFF", 2},   {".inf", 3},  {".Inf", 3},  {".INF", 3},
    {"+.inf", 3}, {"+.Inf", 3}, {"+.INF", 3}, {"-.inf", 4}, {"-.Inf", 4}, {"-.INF", 4},
    {".nan", 5},  {".NaN", 5},  {".NAN", 5},
};

int DigitValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'z') return c - 'a' + 10;
  if (c >= 'A' && c <= 'Z') return c - 'A' + 10;
  return 99;
}

// Go's base-0 prefix rules; returns the digits and their base, or base 0 when malformed.
std::string_view SplitBase(std::string_view s, int* base) {
  *base = 10;
  if (s.size() >= 2 && s[0] == '0') {
    char p = s[1];
    if (p == 'x' || p == 'X') *base = 16;
    if (p == 'o' || p == 'O') *base = 8;
    if (p == 'b' || p == 'B') *base = 2;
    if (*base != 10) return s.substr(2);
    *base = 8;
    return s.substr(1);
  }
  return s;
}

bool ParseMagnitude(std::string_view s, std::uint64_t* out) {
  int base = 10;
  std::string_view digits = SplitBase(s, &base);
  if (digits.empty()) return false;
  std::uint64_t v = 0;
  for (char c : digits) {
    int d = DigitValue(c);
    if (d >= base) return false;
    if (v > (std::numeric_limits<std::uint64_t>::max() - d) / base) return false;
    v = v * base + d;
  }
  *out = v;
  return true;
}

// goyaml.v2's yamlStyleFloat: ^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$
bool IsYamlStyleFloat(std::string_view s) {
  std::size_t i = 0;
  auto digits = [&] {
    std::size_t start = i;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
    return i > start;
  };
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
  if (i < s.size() && s[i] == '.') {
    ++i;
    if (!digits()) return false;
  } else {
    if (!digits()) return false;
    if (i < s.size() && s[i] == '.') {
      ++i;
      digits();
    }
  }
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    if (!digits()) return false;
  }
  return i == s.size();
}

// Go's strconv.ParseFloat for the decimal forms accepted by IsYamlStyleFloat.
bool ParseDecimalFloat(std::string_view s, double* out) {
  bool negative = !s.empty() && s[0] == '-';
  if (!s.empty() && (s[0] == '+' || s[0] == '-')) s.remove_prefix(1);
  double v = 0;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ptr != s.data() + s.size()) return false;
  if (ec == std::errc::result_out_of_range) {
    // Go reports overflow as an error but rounds underflow to zero silently.
    if (s.find("e-") == std::string_view::npos && s.find("E-") == std::string_view::npos)
      return false;
    v = 0;
  } else if (ec != std::errc()) {
    return false;
  }
  *out = negative ? -v : v;
  return true;
}

}  // namespace

bool ParseGoUint(std::string_view s, std::uint64_t* out) { return ParseMagnitude(s, out); }

bool ParseGoInt(std::string_view s, std::int64_t* out) {
  bool negative = false;
  if (!s.empty() && (s[0] == '+' || s[0] == '-')) {
    negative = s[0] == '-';
    s.remove_prefix(1);
  }
  std::uint64_t m = 0;
  if (!ParseMagnitude(s, &m)) return false;
  constexpr std::uint64_t kLimit = std::uint64_t{1} << 63;
  if (negative) {
    if (m > kLimit) return false;
    *out = m == kLimit ? std::numeric_limits<std::int64_t>::min() : -static_cast<std::int64_t>(m);
  } else {
    if (m >= kLimit) return false;
    *out = static_cast<std::int64_t>(m);
  }
  return true;
}

Json ResolvePlain(std::string_view s) {
  for (const Special& sp : kSpecials) {
    if (sp.text != s) continue;
    switch (sp.kind) {
      case 0:
        return Json();
      case 1:
        return true;
      case 2:
        return false;
      case 3:
        return std::numeric_limits<double>::infinity();
      case 4:
        return -std::numeric_limits<double>::infinity();
      default:
        return std::numeric_limits<double>::quiet_NaN();
    }
  }
  if (s.empty()) return Json();
  char hint = s[0];
  bool numeric_hint = (hint >= '0' && hint <= '9') || hint == '+' || hint == '-' || hint == '.';
  if (!numeric_hint) return std::string(s);
  if (hint == '.') {
    double v = 0;
    if (IsYamlStyleFloat(s) && ParseDecimalFloat(s, &v)) return v;
    return std::string(s);
  }
  std::string plain;
  for (char c : s) {
    if (c != '_') plain.push_back(c);
  }
  std::int64_t i = 0;
  if (ParseGoInt(plain, &i)) return i;
  std::uint64_t u = 0;
  if (ParseGoUint(plain, &u)) return u;
  double f = 0;
  if (IsYamlStyleFloat(plain) && ParseDecimalFloat(plain, &f)) return f;
  return std::string(s);
}

std::string FormatGoFloat(double v, int bits) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "+Inf" : "-Inf";
  char buf[64];
  std::to_chars_result r;
  if (bits == 32) {
    r = std::to_chars(buf, buf + sizeof buf, static_cast<float>(v), std::chars_format::scientific);
  } else {
    r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific);
  }
  std::string_view sci(buf, r.ptr - buf);  // "-d.ddde+XX"
  bool negative = !sci.empty() && sci[0] == '-';
  if (negative) sci.remove_prefix(1);
  std::size_t e = sci.find('e');
  std::string digits;
  for (char c : sci.substr(0, e)) {
    if (c != '.') digits.push_back(c);
  }
  int exp = std::stoi(std::string(sci.substr(e + 1)));
  while (digits.size() > 1 && digits.back() == '0') digits.pop_back();
  std::string out = negative ? "-" : "";
  if (digits == "0") return out + "0";
  if (exp < -4 || exp >= 6) {
    out += digits[0];
    if (digits.size() > 1) out += "." + digits.substr(1);
    out += exp < 0 ? "e-" : "e+";
    int a = exp < 0 ? -exp : exp;
    if (a < 10) out += "0";
    return out + std::to_string(a);
  }
  int point = exp + 1;  // digits before the decimal point
  if (point <= 0) return out + "0." + std::string(-point, '0') + digits;
  if (point >= static_cast<int>(digits.size())) {
    return out + digits + std::string(point - digits.size(), '0');
  }
  return out + digits.substr(0, point) + "." + digits.substr(point);
}

bool IsPlainPrintable(char32_t c) {
  if (c == 0x9 || c == 0xA || c == 0xD) return true;
  if (c >= 0x20 && c <= 0x7E) return true;
  if (c >= 0xA0 && c <= 0xD7FF) return c != 0x2028 && c != 0x2029;
  if (c >= 0xE000 && c <= 0xFFFD) return c != 0xFEFF;
  return c >= 0x10000 && c <= 0x10FFFF;
}

bool NextCodePoint(std::string_view s, std::size_t* i, char32_t* out) {
  auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  unsigned char b0 = byte(*i);
  int extra = 0;
  char32_t c = 0;
  if (b0 < 0x80) {
    c = b0;
  } else if ((b0 & 0xE0) == 0xC0) {
    extra = 1, c = b0 & 0x1F;
  } else if ((b0 & 0xF0) == 0xE0) {
    extra = 2, c = b0 & 0x0F;
  } else if ((b0 & 0xF8) == 0xF0) {
    extra = 3, c = b0 & 0x07;
  } else {
    return false;
  }
  if (*i + extra >= s.size() && extra > 0) return false;
  for (int k = 1; k <= extra; ++k) {
    unsigned char b = byte(*i + k);
    if ((b & 0xC0) != 0x80) return false;
    c = (c << 6) | (b & 0x3F);
  }
  static constexpr char32_t kMin[] = {0, 0x80, 0x800, 0x10000};
  if (c < kMin[extra] || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) return false;
  *i += extra + 1;
  *out = c;
  return true;
}

}  // namespace lws::api::yaml_internal
