#include "apiserver/patch_go.h"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <utility>

namespace lws::apiserver::internal {

namespace {

bool IsGoInt(const Json& v) {
  if (v.is_number_integer() && !v.is_number_unsigned()) return true;
  return v.is_number_unsigned() &&
         v.get<std::uint64_t>() <=
             static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
}

// strconv.FormatFloat(f, 'g', -1, 64) as fmt's %v uses it: shortest digits, exponent form when
// the decimal exponent is below -4 or at least 6 ("1e+06", "1.5e-07"), else fixed ("123456").
std::string FormatFloatV(double f) {
  if (f == 0) return std::signbit(f) ? "-0" : "0";
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof(buf), f, std::chars_format::scientific);
  std::string sci(buf, res.ptr);
  std::string sign;
  if (sci[0] == '-') {
    sign = "-";
    sci.erase(0, 1);
  }
  std::size_t e = sci.find('e');
  int exp = std::atoi(sci.c_str() + e + 1);
  std::string digits = sci.substr(0, e);
  if (digits.size() > 1) digits.erase(1, 1);  // drop the '.'
  if (exp < -4 || exp >= 6) {
    std::string out = sign + digits.substr(0, 1);
    if (digits.size() > 1) out += "." + digits.substr(1);
    std::string ee = std::to_string(exp < 0 ? -exp : exp);
    if (ee.size() < 2) ee = "0" + ee;
    return out + "e" + (exp < 0 ? "-" : "+") + ee;
  }
  if (exp < 0) return sign + "0." + std::string(-exp - 1, '0') + digits;
  std::size_t int_digits = static_cast<std::size_t>(exp) + 1;
  if (digits.size() <= int_digits)
    return sign + digits + std::string(int_digits - digits.size(), '0');
  return sign + digits.substr(0, int_digits) + "." + digits.substr(int_digits);
}

std::string ScalarV(const Json& v) {
  switch (KindOf(v)) {
    case GoKind::kNil:
      return "<nil>";
    case GoKind::kString:
      return v.get<std::string>();
    case GoKind::kInt64:
      return std::to_string(v.get<std::int64_t>());
    case GoKind::kFloat64:
      return FormatFloatV(v.get<double>());
    case GoKind::kBool:
      return v.get<bool>() ? "true" : "false";
    default:
      return "";
  }
}

std::string Sprint(const Json& v, bool verb_s) {
  GoKind kind = KindOf(v);
  if (kind == GoKind::kMap) {
    std::string out = "map[";
    bool first = true;
    for (const auto& [key, value] : v.items()) {
      if (!first) out += ' ';
      first = false;
      out += key + ":" + Sprint(value, verb_s);
    }
    return out + "]";
  }
  if (kind == GoKind::kSlice) {
    std::string out = "[";
    for (std::size_t i = 0; i < v.size(); ++i) {
      if (i > 0) out += ' ';
      out += Sprint(v[i], verb_s);
    }
    return out + "]";
  }
  if (!verb_s || kind == GoKind::kString) return ScalarV(v);
  if (kind == GoKind::kNil) return "%!s(<nil>)";
  return "%!s(" + GoTypeName(v) + "=" + ScalarV(v) + ")";
}

// Go's sort package, stable variant (insertionSort, symMerge, rotate over index ranges).
class StableSorter {
 public:
  StableSorter(std::vector<Json>& items, const std::function<bool(const Json&, const Json&)>& less)
      : items_(items), less_(less) {}

  void Sort() {
    const int n = static_cast<int>(items_.size());
    int block = 20;
    int a = 0, b = block;
    while (b <= n) {
      InsertionSort(a, b);
      a = b;
      b += block;
    }
    InsertionSort(a, n);
    while (block < n) {
      a = 0;
      b = 2 * block;
      while (b <= n) {
        SymMerge(a, a + block, b);
        a = b;
        b += 2 * block;
      }
      if (int m = a + block; m < n) SymMerge(a, m, n);
      block *= 2;
    }
  }

 private:
  bool Less(int i, int j) { return less_(items_[i], items_[j]); }
  void Swap(int i, int j) { std::swap(items_[i], items_[j]); }

  void InsertionSort(int a, int b) {
    for (int i = a + 1; i < b; ++i) {
      for (int j = i; j > a && Less(j, j - 1); --j) Swap(j, j - 1);
    }
  }

  void SymMerge(int a, int m, int b) {
    if (m - a == 1) {
      int i = m, j = b;
      while (i < j) {
        int h = static_cast<int>(static_cast<unsigned>(i + j) >> 1);
        if (Less(h, a)) {
          i = h + 1;
        } else {
          j = h;
        }
      }
      for (int k = a; k < i - 1; ++k) Swap(k, k + 1);
      return;
    }
    if (b - m == 1) {
      int i = a, j = m;
      while (i < j) {
        int h = static_cast<int>(static_cast<unsigned>(i + j) >> 1);
        if (!Less(m, h)) {
          i = h + 1;
        } else {
          j = h;
        }
      }
      for (int k = m; k > i; --k) Swap(k, k - 1);
      return;
    }
    int mid = static_cast<int>(static_cast<unsigned>(a + b) >> 1);
    int n = mid + m;
    int start, r;
    if (m > mid) {
      start = n - b;
      r = mid;
    } else {
      start = a;
      r = m;
    }
    int p = n - 1;
    while (start < r) {
      int c = static_cast<int>(static_cast<unsigned>(start + r) >> 1);
      if (!Less(p - c, c)) {
        start = c + 1;
      } else {
        r = c;
      }
    }
    int end = n - start;
    if (start < m && m < end) Rotate(start, m, end);
    if (a < start && start < mid) SymMerge(a, start, mid);
    if (mid < end && end < b) SymMerge(mid, end, b);
  }

  void SwapRange(int a, int b, int n) {
    for (int i = 0; i < n; ++i) Swap(a + i, b + i);
  }

  void Rotate(int a, int m, int b) {
    int i = m - a, j = b - m;
    while (i != j) {
      if (i > j) {
        SwapRange(m - i, m, j);
        i -= j;
      } else {
        SwapRange(m - i, m + j - i, i);
        j -= i;
      }
    }
    SwapRange(m - i, m, i);
  }

  std::vector<Json>& items_;
  const std::function<bool(const Json&, const Json&)>& less_;
};

}  // namespace

GoKind KindOf(const Json& v) {
  if (v.is_null()) return GoKind::kNil;
  if (v.is_string()) return GoKind::kString;
  if (v.is_boolean()) return GoKind::kBool;
  if (v.is_object()) return GoKind::kMap;
  if (v.is_array()) return GoKind::kSlice;
  return IsGoInt(v) ? GoKind::kInt64 : GoKind::kFloat64;  // numbers; binary never reaches here
}

std::string GoTypeName(const Json& v) {
  switch (KindOf(v)) {
    case GoKind::kNil:
      return "%!s(<nil>)";
    case GoKind::kString:
      return "string";
    case GoKind::kInt64:
      return "int64";
    case GoKind::kFloat64:
      return "float64";
    case GoKind::kBool:
      return "bool";
    case GoKind::kMap:
      return "map[string]interface {}";
    case GoKind::kSlice:
      return "[]interface {}";
  }
  return "";
}

bool GoEqual(const Json& a, const Json& b) {
  GoKind ka = KindOf(a), kb = KindOf(b);
  if (ka != kb) return false;
  if (ka == GoKind::kMap || ka == GoKind::kSlice) {
    throw GoPanic{"runtime error: comparing uncomparable type " + GoTypeName(a)};
  }
  switch (ka) {
    case GoKind::kNil:
      return true;
    case GoKind::kInt64:
      return a.get<std::int64_t>() == b.get<std::int64_t>();
    case GoKind::kFloat64:
      return a.get<double>() == b.get<double>();
    default:
      return a == b;
  }
}

void RequireHashable(const Json& v) {
  GoKind kind = KindOf(v);
  if (kind == GoKind::kMap || kind == GoKind::kSlice) {
    throw GoPanic{"runtime error: hash of unhashable type " + GoTypeName(v)};
  }
}

std::string GoSprintV(const Json& v) { return Sprint(v, false); }
std::string GoSprintS(const Json& v) { return Sprint(v, true); }

void GoSliceStable(std::vector<Json>& items,
                   const std::function<bool(const Json&, const Json&)>& less) {
  StableSorter(items, less).Sort();
}

}  // namespace lws::apiserver::internal
