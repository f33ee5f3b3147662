#include "operator/metrics_registry.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <thread>

namespace lws::op {
namespace {

TEST(FormatMetricValueTest, MatchesGoShortestG) {
  struct Case {
    double value;
    const char* want;
  };
  const double inf = std::numeric_limits<double>::infinity();
  for (const Case& c :
       {Case{0, "0"}, Case{1, "1"}, Case{-1, "-1"}, Case{0.25, "0.25"}, Case{100, "100"},
        Case{123456, "123456"}, Case{1e6, "1e+06"}, Case{1234567, "1.234567e+06"},
        Case{0.0001, "0.0001"}, Case{0.00001, "1e-05"}, Case{1e-8, "1e-08"}, Case{1e21, "1e+21"},
        Case{1e100, "1e+100"}, Case{-2.5, "-2.5"}, Case{0.1 + 0.2, "0.30000000000000004"},
        Case{inf, "+Inf"}, Case{-inf, "-Inf"}, Case{std::nan(""), "NaN"}}) {
    EXPECT_EQ(FormatMetricValue(c.value), c.want) << c.want;
  }
}

// client-go's workqueue histograms: the bounds as Prometheus shows them.
TEST(FormatMetricValueTest, WorkqueueBucketsPrintAsClientGolangDoes) {
  std::vector<std::string> printed;
  for (double bound : ExponentialBuckets(10e-9, 10, 12))
    printed.push_back(FormatMetricValue(bound));
  EXPECT_EQ(printed, (std::vector<std::string>{"1e-08", "1e-07", "1e-06", "9.999999999999999e-06",
                                               "9.999999999999999e-05", "0.001", "0.01", "0.1", "1",
                                               "10", "100", "1000"}));
}

TEST(EscapeTest, LabelValuesAndHelp) {
  EXPECT_EQ(EscapeLabelValue("a\\b\"c\nd"), "a\\\\b\\\"c\\nd");
  EXPECT_EQ(EscapeHelp("a\\b\"c\nd"), "a\\\\b\"c\\nd");
}

TEST(RegistryTest, ExpositionIsSortedEscapedAndTyped) {
  Registry registry;
  // Declared with labels out of name order: written in name order.
  CounterVec* total =
      registry.Counter("z_total", "Total \"things\"\nper thing", {"result", "controller"});
  total->Inc({"success", "b"});
  total->Add({"error", "a\"x"}, 2);
  total->Inc({"success", "a\"x"});
  GaugeVec* depth = registry.Gauge("a_depth", "Depth", {});
  depth->Set({}, 3);
  depth->Add({}, -1);
  HistogramVec* latency = registry.Histogram("m_seconds", "Latency", {"webhook"}, {0.125, 1});
  latency->Observe({"/mutate"}, 0.0625);
  latency->Observe({"/mutate"}, 0.125);  // le is inclusive
  latency->Observe({"/mutate"}, 4);
  EXPECT_EQ(registry.Exposition(),
            "# HELP a_depth Depth\n"
            "# TYPE a_depth gauge\n"
            "a_depth 2\n"
            "# HELP m_seconds Latency\n"
            "# TYPE m_seconds histogram\n"
            "m_seconds_bucket{webhook=\"/mutate\",le=\"0.125\"} 2\n"
            "m_seconds_bucket{webhook=\"/mutate\",le=\"1\"} 2\n"
            "m_seconds_bucket{webhook=\"/mutate\",le=\"+Inf\"} 3\n"
            "m_seconds_sum{webhook=\"/mutate\"} 4.1875\n"
            "m_seconds_count{webhook=\"/mutate\"} 3\n"
            "# HELP z_total Total \"things\"\\nper thing\n"
            "# TYPE z_total counter\n"
            "z_total{controller=\"a\\\"x\",result=\"error\"} 2\n"
            "z_total{controller=\"a\\\"x\",result=\"success\"} 1\n"
            "z_total{controller=\"b\",result=\"success\"} 1\n");
}

TEST(RegistryTest, RegisteringAgainReturnsTheSameFamily) {
  Registry registry;
  CounterVec* first = registry.Counter("c_total", "help", {"a"});
  EXPECT_EQ(registry.Counter("c_total", "help", {"a"}), first);
  EXPECT_EQ(registry.Histogram("h", "help", {}, {1, 2}),
            registry.Histogram("h", "help", {}, {1, 2}));
}

TEST(RegistryTest, GaugeSeriesCanBeRemovedAndHooksRunBeforeEachScrape) {
  Registry registry;
  GaugeVec* gauge = registry.Gauge("g", "help", {"name"});
  int scrapes = 0;
  int hook = registry.AddScrapeHook([&] { gauge->Set({"computed"}, ++scrapes); });
  gauge->Set({"gone"}, 1);
  gauge->Remove({"gone"});
  EXPECT_EQ(registry.Exposition(), "# HELP g help\n# TYPE g gauge\ng{name=\"computed\"} 1\n");
  EXPECT_EQ(gauge->Value({"computed"}), 1);
  registry.RemoveScrapeHook(hook);
  registry.Exposition();
  EXPECT_EQ(scrapes, 1);
}

TEST(RegistryTest, HistogramSampleKeepsPerBucketCounts) {
  Registry registry;
  HistogramVec* h = registry.Histogram("h_seconds", "help", {}, {1, 2, 4});
  for (double v : {0.5, 1.5, 1.9, 3.0, 9.0}) h->Observe({}, v);
  HistogramVec::Sample s = h->Get({});
  EXPECT_EQ(s.count, 5u);
  EXPECT_DOUBLE_EQ(s.sum, 15.9);
  EXPECT_EQ(s.buckets, (std::vector<std::uint64_t>{1, 2, 1}));
}

TEST(RegistryTest, ConcurrentUpdatesAreAllCounted) {
  Registry registry;
  CounterVec* total = registry.Counter("c_total", "help", {"worker"});
  HistogramVec* h = registry.Histogram("h", "help", {}, {1});
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 10'000; ++i) {
        total->Inc({"shared"});
        total->Inc({std::to_string(t)});
        h->Observe({}, 0.5);
        if (i % 1000 == 0) registry.Exposition();
      }
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(total->Value({"shared"}), 40'000);
  EXPECT_EQ(total->Value({"3"}), 10'000);
  EXPECT_EQ(h->Get({}).count, 40'000u);
}

}  // namespace
}  // namespace lws::op
