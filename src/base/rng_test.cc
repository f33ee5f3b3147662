#include "base/rng.h"

#include <gtest/gtest.h>

#include <map>
#include <vector>

namespace lws {
namespace {

std::vector<std::uint64_t> Draw(Rng rng, int n) {
  std::vector<std::uint64_t> out;
  for (int i = 0; i < n; ++i) out.push_back(rng.Next());
  return out;
}

TEST(RngTest, SameSeedSameStream) {
  EXPECT_EQ(Draw(Rng(42), 100), Draw(Rng(42), 100));
  EXPECT_NE(Draw(Rng(42), 100), Draw(Rng(43), 100));
}

TEST(RngTest, KnownValuesPinTheAlgorithm) {
  // Pinned so that a change of engine or seeding (which would change every simulation trace)
  // is a visible test failure, not a silent shift.
  Rng rng(0);
  const std::uint64_t first = rng.Next();
  Rng again(0);
  EXPECT_EQ(again.Next(), first);
  std::uint64_t state = 0;
  EXPECT_EQ(SplitMix64(&state), 0xe220a8397b1dcdafULL);
}

TEST(RngTest, DerivedStreamsAreIndependentOfOrder) {
  Rng root(7);
  Rng a1 = root.Derive("scheduler");
  root.Next();
  root.Next();
  // Deriving does not depend on how much the parent has been used.
  Rng a2 = Rng(7).Derive("scheduler");
  EXPECT_EQ(Draw(a1, 10), Draw(a2, 10));
  EXPECT_NE(Draw(Rng(7).Derive("kubelet"), 10), Draw(a2, 10));
}

TEST(RngTest, UniformIntStaysInRangeAndCoversIt) {
  Rng rng(1);
  std::map<std::int64_t, int> seen;
  for (int i = 0; i < 10000; ++i) {
    std::int64_t v = rng.UniformInt(-3, 3);
    ASSERT_GE(v, -3);
    ASSERT_LE(v, 3);
    ++seen[v];
  }
  EXPECT_EQ(seen.size(), 7u);
  for (auto& [v, n] : seen) EXPECT_GT(n, 1100) << v;  // Expected ~1428 each.
  EXPECT_EQ(rng.UniformInt(5, 5), 5);
}

TEST(RngTest, DistributionsHaveTheirMeans) {
  Rng rng(2);
  const int n = 20000;
  double sum_u = 0, sum_e = 0, sum_n = 0;
  int heads = 0;
  for (int i = 0; i < n; ++i) {
    double u = rng.UniformDouble();
    ASSERT_GE(u, 0.0);
    ASSERT_LT(u, 1.0);
    sum_u += u;
    sum_e += rng.Exponential(3.0);
    sum_n += rng.Normal(10.0, 2.0);
    heads += rng.Bernoulli(0.25);
  }
  EXPECT_NEAR(sum_u / n, 0.5, 0.02);
  EXPECT_NEAR(sum_e / n, 3.0, 0.15);
  EXPECT_NEAR(sum_n / n, 10.0, 0.1);
  EXPECT_NEAR(heads / double(n), 0.25, 0.02);
  EXPECT_GT(rng.LogNormal(0, 0.5), 0.0);
}

}  // namespace
}  // namespace lws
