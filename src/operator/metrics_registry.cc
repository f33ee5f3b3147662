// The registry's families and the text exposition (metrics_registry.h).
#include "operator/metrics_registry.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <numeric>

#include "base/assert.h"

namespace lws::op {
namespace {

bool ValidName(std::string_view name, bool allow_colon) {
  if (name.empty()) return false;
  for (std::size_t i = 0; i < name.size(); ++i) {
    char c = name[i];
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
              (allow_colon && c == ':') || (i > 0 && c >= '0' && c <= '9');
    if (!ok) return false;
  }
  return true;
}

std::string_view TypeName(MetricFamily::Type type) {
  switch (type) {
    case MetricFamily::Type::kCounter:
      return "counter";
    case MetricFamily::Type::kGauge:
      return "gauge";
    case MetricFamily::Type::kHistogram:
      return "histogram";
  }
  return "untyped";
}

void WriteSample(std::string* out, std::string_view name, const std::string& labels, double value) {
  out->append(name);
  out->append(labels);
  out->push_back(' ');
  out->append(FormatMetricValue(value));
  out->push_back('\n');
}

}  // namespace

// Go's 'g' with the shortest precision: the shortest digits that read back as `value`, in
// %e form when the decimal exponent is below -4 or at least 6 (the precision Go uses for the
// decision when asked for the shortest), with an exponent of at least two digits.
std::string FormatMetricValue(double value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "+Inf" : "-Inf";
  if (value == 0) return "0";
  char buf[64];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, value, std::chars_format::scientific);
  LWS_ASSERT(ec == std::errc(), "to_chars of a finite double");
  std::string_view sci(buf, static_cast<std::size_t>(end - buf));  // "-1.25e+06"
  std::size_t e = sci.find('e');
  int exponent = 0;
  std::from_chars(sci.data() + e + (sci[e + 1] == '+' ? 2 : 1), sci.data() + sci.size(), exponent);
  if (exponent < -4 || exponent >= 6) {
    int magnitude = std::abs(exponent);
    return fmt::format("{}e{}{}{}", sci.substr(0, e), exponent < 0 ? '-' : '+',
                       magnitude < 10 ? "0" : "", magnitude);
  }
  auto [fixed_end, fixed_ec] =
      std::to_chars(buf, buf + sizeof buf, value, std::chars_format::fixed);
  LWS_ASSERT(fixed_ec == std::errc(), "to_chars of a small finite double");
  return std::string(buf, fixed_end);
}

std::string EscapeLabelValue(std::string_view value) {
  std::string out;
  out.reserve(value.size());
  for (char c : value) {
    if (c == '\\')
      out += "\\\\";
    else if (c == '"')
      out += "\\\"";
    else if (c == '\n')
      out += "\\n";
    else
      out.push_back(c);
  }
  return out;
}

std::string EscapeHelp(std::string_view help) {
  std::string out;
  out.reserve(help.size());
  for (char c : help) {
    if (c == '\\')
      out += "\\\\";
    else if (c == '\n')
      out += "\\n";
    else
      out.push_back(c);
  }
  return out;
}

// Each bound is the previous one times `factor`, as Go computes them, so the bounds print as
// client_golang's do ("9.999999999999999e-06" among them).
std::vector<double> ExponentialBuckets(double start, double factor, int count) {
  LWS_ASSERT(count > 0 && start > 0 && factor > 1, "ExponentialBuckets arguments");
  std::vector<double> bounds;
  for (int i = 0; i < count; ++i) {
    bounds.push_back(start);
    start *= factor;
  }
  return bounds;
}

MetricFamily::MetricFamily(std::string name, std::string help, Type type,
                           std::vector<std::string> label_names)
    : name_(std::move(name)),
      help_(std::move(help)),
      type_(type),
      label_names_(std::move(label_names)) {
  LWS_ASSERT(ValidName(name_, true), "invalid metric name " + name_);
  for (const std::string& label : label_names_) {
    LWS_ASSERT(ValidName(label, false) && label.rfind("__", 0) != 0, "invalid label name " + label);
  }
  sorted_.resize(label_names_.size());
  std::iota(sorted_.begin(), sorted_.end(), 0);
  std::sort(sorted_.begin(), sorted_.end(),
            [&](std::size_t a, std::size_t b) { return label_names_[a] < label_names_[b]; });
}

LabelValues MetricFamily::SeriesKey(const LabelValues& values) const {
  LWS_ASSERT(
      values.size() == label_names_.size(),
      fmt::format("{}: {} label values for {} labels", name_, values.size(), label_names_.size()));
  LabelValues key;
  key.reserve(values.size());
  for (std::size_t i : sorted_) key.push_back(values[i]);
  return key;
}

std::string MetricFamily::LabelText(const LabelValues& key, std::string_view extra) const {
  if (key.empty() && extra.empty()) return "";
  std::string out = "{";
  for (std::size_t i = 0; i < key.size(); ++i) {
    if (i > 0) out.push_back(',');
    out += label_names_[sorted_[i]] + "=\"" + EscapeLabelValue(key[i]) + "\"";
  }
  if (!extra.empty()) {
    if (!key.empty()) out.push_back(',');
    out.append(extra);
  }
  out.push_back('}');
  return out;
}

void MetricFamily::Write(std::string* out) const {
  *out += "# HELP " + name_ + " " + EscapeHelp(help_) + "\n";
  *out += "# TYPE " + name_ + " " + std::string(TypeName(type_)) + "\n";
  MutexLock lock(&mu_);
  WriteSamples(out);
}

void CounterVec::Add(const LabelValues& labels, double delta) {
  LWS_ASSERT(delta >= 0, name() + ": a counter cannot decrease");
  LabelValues key = SeriesKey(labels);
  MutexLock lock(&mu_);
  series_[std::move(key)] += delta;
}

double CounterVec::Value(const LabelValues& labels) const {
  LabelValues key = SeriesKey(labels);
  MutexLock lock(&mu_);
  auto it = series_.find(key);
  return it == series_.end() ? 0 : it->second;
}

void CounterVec::WriteSamples(std::string* out) const {
  for (const auto& [key, value] : series_) WriteSample(out, name(), LabelText(key), value);
}

void GaugeVec::Set(const LabelValues& labels, double value) {
  LabelValues key = SeriesKey(labels);
  MutexLock lock(&mu_);
  series_[std::move(key)] = value;
}

void GaugeVec::Add(const LabelValues& labels, double delta) {
  LabelValues key = SeriesKey(labels);
  MutexLock lock(&mu_);
  series_[std::move(key)] += delta;
}

void GaugeVec::Remove(const LabelValues& labels) {
  LabelValues key = SeriesKey(labels);
  MutexLock lock(&mu_);
  series_.erase(key);
}

double GaugeVec::Value(const LabelValues& labels) const {
  LabelValues key = SeriesKey(labels);
  MutexLock lock(&mu_);
  auto it = series_.find(key);
  return it == series_.end() ? 0 : it->second;
}

void GaugeVec::WriteSamples(std::string* out) const {
  for (const auto& [key, value] : series_) WriteSample(out, name(), LabelText(key), value);
}

HistogramVec::HistogramVec(std::string name, std::string help, std::vector<std::string> label_names,
                           std::vector<double> upper_bounds)
    : MetricFamily(std::move(name), std::move(help), Type::kHistogram, std::move(label_names)),
      upper_bounds_(std::move(upper_bounds)) {
  const std::vector<std::string>& names = this->label_names();
  LWS_ASSERT(std::find(names.begin(), names.end(), "le") == names.end(),
             this->name() + ": \"le\" is reserved for histogram buckets");
  for (std::size_t i = 0; i < upper_bounds_.size(); ++i) {
    LWS_ASSERT(
        std::isfinite(upper_bounds_[i]) && (i == 0 || upper_bounds_[i - 1] < upper_bounds_[i]),
        this->name() + ": bucket bounds must be finite and strictly increasing");
  }
}

void HistogramVec::Observe(const LabelValues& labels, double value) {
  LabelValues key = SeriesKey(labels);
  // A bucket counts the values <= its bound (Prometheus' "le").
  std::size_t bucket = static_cast<std::size_t>(
      std::lower_bound(upper_bounds_.begin(), upper_bounds_.end(), value) - upper_bounds_.begin());
  MutexLock lock(&mu_);
  Sample& sample = series_[std::move(key)];
  if (sample.buckets.empty()) sample.buckets.assign(upper_bounds_.size(), 0);
  if (bucket < upper_bounds_.size()) ++sample.buckets[bucket];
  ++sample.count;
  sample.sum += value;
}

HistogramVec::Sample HistogramVec::Get(const LabelValues& labels) const {
  LabelValues key = SeriesKey(labels);
  MutexLock lock(&mu_);
  auto it = series_.find(key);
  if (it != series_.end()) return it->second;
  Sample empty;
  empty.buckets.assign(upper_bounds_.size(), 0);
  return empty;
}

void HistogramVec::WriteSamples(std::string* out) const {
  const std::string bucket_name = name() + "_bucket";
  for (const auto& [key, sample] : series_) {
    std::uint64_t cumulative = 0;
    for (std::size_t i = 0; i < upper_bounds_.size(); ++i) {
      cumulative += sample.buckets[i];
      std::string le = "le=\"" + FormatMetricValue(upper_bounds_[i]) + "\"";
      WriteSample(out, bucket_name, LabelText(key, le), static_cast<double>(cumulative));
    }
    WriteSample(out, bucket_name, LabelText(key, "le=\"+Inf\""), static_cast<double>(sample.count));
    WriteSample(out, name() + "_sum", LabelText(key), sample.sum);
    WriteSample(out, name() + "_count", LabelText(key), static_cast<double>(sample.count));
  }
}

MetricFamily* Registry::Find(const std::string& name, MetricFamily::Type type,
                             const std::vector<std::string>& label_names) const {
  auto it = families_.find(name);
  if (it == families_.end()) return nullptr;
  LWS_ASSERT(it->second->type() == type && it->second->label_names() == label_names,
             "metric " + name + " registered twice with different types or labels");
  return it->second.get();
}

CounterVec* Registry::Counter(const std::string& name, const std::string& help,
                              std::vector<std::string> label_names) {
  MutexLock lock(&mu_);
  if (MetricFamily* f = Find(name, MetricFamily::Type::kCounter, label_names)) {
    return static_cast<CounterVec*>(f);
  }
  auto family = std::make_unique<CounterVec>(name, help, std::move(label_names));
  CounterVec* raw = family.get();
  families_.emplace(name, std::move(family));
  return raw;
}

GaugeVec* Registry::Gauge(const std::string& name, const std::string& help,
                          std::vector<std::string> label_names) {
  MutexLock lock(&mu_);
  if (MetricFamily* f = Find(name, MetricFamily::Type::kGauge, label_names)) {
    return static_cast<GaugeVec*>(f);
  }
  auto family = std::make_unique<GaugeVec>(name, help, std::move(label_names));
  GaugeVec* raw = family.get();
  families_.emplace(name, std::move(family));
  return raw;
}

HistogramVec* Registry::Histogram(const std::string& name, const std::string& help,
                                  std::vector<std::string> label_names,
                                  std::vector<double> upper_bounds) {
  MutexLock lock(&mu_);
  if (MetricFamily* f = Find(name, MetricFamily::Type::kHistogram, label_names)) {
    auto* histogram = static_cast<HistogramVec*>(f);
    LWS_ASSERT(histogram->upper_bounds() == upper_bounds,
               "histogram " + name + " registered twice with different buckets");
    return histogram;
  }
  auto family =
      std::make_unique<HistogramVec>(name, help, std::move(label_names), std::move(upper_bounds));
  HistogramVec* raw = family.get();
  families_.emplace(name, std::move(family));
  return raw;
}

int Registry::AddScrapeHook(std::function<void()> hook) {
  MutexLock lock(&hooks_mu_);
  int id = next_hook_++;
  hooks_.emplace(id, std::move(hook));
  return id;
}

void Registry::RemoveScrapeHook(int id) {
  MutexLock lock(&hooks_mu_);
  hooks_.erase(id);
}

std::string Registry::Exposition() const {
  {
    MutexLock lock(&hooks_mu_);
    for (const auto& [id, hook] : hooks_) hook();
  }
  std::string out;
  MutexLock lock(&mu_);
  for (const auto& [name, family] : families_) family->Write(&out);
  return out;
}

}  // namespace lws::op
