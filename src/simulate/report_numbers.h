// File: simulate/report_numbers.h
//
// How the report writes numbers: seconds rounded to milliseconds and hours to 1e-6 (equal runs,
// equal bytes), and a number over runs as its p50, p95 and worst, both taken on its bad side.
#pragma once

#include <algorithm>
#include <cmath>
#include <functional>
#include <vector>

#include "api/field.h"

namespace lws::simulate {

inline double Round(double value, double unit) { return std::round(value / unit) * unit; }
inline double Ms(double seconds) { return Round(seconds, 0.001); }
inline double Micro(double hours) { return Round(hours, 1e-6); }

// p50, p95 and worst of `values`, where `worse(a, b)` says a is worse than b; null when empty.
inline api::Json Spread(std::vector<double> values,
                        const std::function<bool(double, double)>& worse) {
  if (values.empty()) return api::Json();
  std::sort(values.begin(), values.end(),
            [&](double a, double b) { return worse(b, a); });  // best first
  auto rank = [&](double q) {
    std::size_t k = static_cast<std::size_t>(std::ceil(q * static_cast<double>(values.size())));
    return values[std::min(values.size(), std::max<std::size_t>(k, 1)) - 1];
  };
  return {{"p50", rank(0.5)}, {"p95", rank(0.95)}, {"worst", values.back()}};
}

inline bool Bigger(double a, double b) { return a > b; }
inline bool Smaller(double a, double b) { return a < b; }

}  // namespace lws::simulate
