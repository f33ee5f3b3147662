// File: operator/metrics_registry.h
//
// A small Prometheus registry: counters, gauges and histograms with labels, exposed in the text
// format 0.0.4 that Prometheus scrapes (what client_golang's promhttp writes for a plain
// `Accept`). The metric names controller-runtime's dashboards use are registered by
// operator/controller_metrics.h.
//
//   Registry registry;
//   CounterVec* total = registry.Counter("controller_runtime_reconcile_total",
//                                        "Total number of reconciliations per controller",
//                                        {"controller", "result"});
//   total->Inc({"leaderworkerset", "success"});
//   std::string body = registry.Exposition();
//
// Exposition, as client_golang writes it:
//   1. families sorted by name, each with "# HELP" (backslash and newline escaped) and "# TYPE";
//   2. a family's series sorted by their label values, labels written in label-name order, label
//      values escaped (backslash, double quote, newline);
//   3. histograms as cumulative _bucket{le=...} series ending with le="+Inf", then _sum, _count;
//   4. numbers as Go's strconv.FormatFloat(v, 'g', -1, 64): "1", "0.25", "1e+06", "+Inf", "NaN".
// A family with no series yet writes only its HELP and TYPE lines (client_golang writes none;
// Prometheus accepts both).
//
// Threading: everything is thread-safe. Each family has its own mutex; controllers update on
// their loops while the metrics server scrapes from its I/O threads.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "base/mutex.h"

namespace lws::op {

using LabelValues = std::vector<std::string>;

// One metric name with its label names and every series (label values) seen so far.
class MetricFamily {
 public:
  enum class Type { kCounter, kGauge, kHistogram };
  MetricFamily(std::string name, std::string help, Type type, std::vector<std::string> label_names);
  virtual ~MetricFamily() = default;
  MetricFamily(const MetricFamily&) = delete;
  MetricFamily& operator=(const MetricFamily&) = delete;

  const std::string& name() const { return name_; }
  Type type() const { return type_; }
  const std::vector<std::string>& label_names() const { return label_names_; }
  // Appends the family's HELP, TYPE and sample lines.
  void Write(std::string* out) const;

 protected:
  // The series key: label values reordered by label name, so map order is exposition order.
  // REQUIRES: values.size() == label_names().size() (asserted).
  LabelValues SeriesKey(const LabelValues& values) const;
  // "{a=\"1\",b=\"2\"}" for a key, with `extra` (e.g. le="0.5") appended; "" without labels.
  std::string LabelText(const LabelValues& key, std::string_view extra = {}) const;
  virtual void WriteSamples(std::string* out) const REQUIRES(mu_) = 0;

  mutable Mutex mu_;

 private:
  const std::string name_;
  const std::string help_;
  const Type type_;
  const std::vector<std::string> label_names_;
  std::vector<std::size_t> sorted_;  // label indices in name order
};

class CounterVec final : public MetricFamily {
 public:
  CounterVec(std::string name, std::string help, std::vector<std::string> label_names)
      : MetricFamily(std::move(name), std::move(help), Type::kCounter, std::move(label_names)) {}
  // REQUIRES: delta >= 0 (a counter only goes up; asserted).
  void Add(const LabelValues& labels, double delta);
  void Inc(const LabelValues& labels) { Add(labels, 1); }
  double Value(const LabelValues& labels) const;  // 0 for a series never touched

 private:
  void WriteSamples(std::string* out) const override REQUIRES(mu_);
  std::map<LabelValues, double> series_ GUARDED_BY(mu_);
};

class GaugeVec final : public MetricFamily {
 public:
  GaugeVec(std::string name, std::string help, std::vector<std::string> label_names)
      : MetricFamily(std::move(name), std::move(help), Type::kGauge, std::move(label_names)) {}
  void Set(const LabelValues& labels, double value);
  void Add(const LabelValues& labels, double delta);
  // Drops the series (an object that no longer exists stops being reported).
  void Remove(const LabelValues& labels);
  double Value(const LabelValues& labels) const;  // 0 for a series never touched

 private:
  void WriteSamples(std::string* out) const override REQUIRES(mu_);
  std::map<LabelValues, double> series_ GUARDED_BY(mu_);
};

class HistogramVec final : public MetricFamily {
 public:
  struct Sample {
    std::uint64_t count = 0;
    double sum = 0;
    std::vector<std::uint64_t> buckets;  // per upper bound, not cumulative
  };
  // REQUIRES: `upper_bounds` strictly increasing and finite; no label named "le".
  HistogramVec(std::string name, std::string help, std::vector<std::string> label_names,
               std::vector<double> upper_bounds);
  void Observe(const LabelValues& labels, double value);
  Sample Get(const LabelValues& labels) const;
  const std::vector<double>& upper_bounds() const { return upper_bounds_; }

 private:
  void WriteSamples(std::string* out) const override REQUIRES(mu_);
  const std::vector<double> upper_bounds_;
  std::map<LabelValues, Sample> series_ GUARDED_BY(mu_);
};

class Registry {
 public:
  Registry() = default;
  Registry(const Registry&) = delete;
  Registry& operator=(const Registry&) = delete;

  // Registers a family, or returns the one of that name when type, label names (and buckets)
  // match; a clash is a programming error (asserted), as client_golang's MustRegister panics.
  CounterVec* Counter(const std::string& name, const std::string& help,
                      std::vector<std::string> label_names);
  GaugeVec* Gauge(const std::string& name, const std::string& help,
                  std::vector<std::string> label_names);
  HistogramVec* Histogram(const std::string& name, const std::string& help,
                          std::vector<std::string> label_names, std::vector<double> upper_bounds);

  // `hook` runs before every exposition: gauges computed from state at scrape time (client-go
  // updates its unfinished-work gauges on a timer; a scrape-time hook is exact and costs nothing
  // between scrapes). Returns an id for RemoveScrapeHook.
  int AddScrapeHook(std::function<void()> hook);
  void RemoveScrapeHook(int id);

  // Text format 0.0.4 (rules 1-4 above).
  std::string Exposition() const;

 private:
  MetricFamily* Find(const std::string& name, MetricFamily::Type type,
                     const std::vector<std::string>& label_names) const REQUIRES(mu_);

  mutable Mutex mu_;  // not the families' series: each family has its own
  std::map<std::string, std::unique_ptr<MetricFamily>> families_ GUARDED_BY(mu_);
  // Hooks run under their own mutex, so RemoveScrapeHook waits for a running hook, and a hook
  // may still register families.
  mutable Mutex hooks_mu_;
  std::map<int, std::function<void()>> hooks_ GUARDED_BY(hooks_mu_);
  int next_hook_ GUARDED_BY(hooks_mu_) = 1;
};

// The content type of Exposition().
inline constexpr std::string_view kExpositionContentType =
    "text/plain; version=0.0.4; charset=utf-8";

// Go's strconv.FormatFloat(v, 'g', -1, 64), with Prometheus' "+Inf", "-Inf" and "NaN".
std::string FormatMetricValue(double value);
// Escaping of a label value (\\, \", \n) and of HELP text (\\, \n).
std::string EscapeLabelValue(std::string_view value);
std::string EscapeHelp(std::string_view help);

// prometheus.ExponentialBuckets(start, factor, count).
std::vector<double> ExponentialBuckets(double start, double factor, int count);

}  // namespace lws::op
