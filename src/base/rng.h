// File: base/rng.h
//
// Deterministic pseudo-random numbers for the simulator (DESIGN.md 2.3). The engine is
// xoshiro256** seeded through splitmix64, and every distribution is our own code: the standard
// library's distributions differ between implementations, which would make a seed replay
// differently on another machine. A component takes its own stream with Derive("name"), so adding
// a consumer never shifts the numbers another component sees.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

namespace lws {

class Rng {
 public:
  explicit Rng(std::uint64_t seed);

  // A new independent stream for (this stream's seed, name). Does not advance this stream.
  Rng Derive(std::string_view name) const;

  std::uint64_t Next();
  // Uniform in [lo, hi] (inclusive), unbiased. REQUIRES: lo <= hi.
  std::int64_t UniformInt(std::int64_t lo, std::int64_t hi);
  // Uniform in [0, 1) with 53 bits of precision.
  double UniformDouble();
  // True with probability p (p outside [0, 1] is clamped).
  bool Bernoulli(double p);
  // Exponential with the given mean (> 0).
  double Exponential(double mean);
  // Normal through the Box-Muller transform (one value per call, no cached pair).
  double Normal(double mean, double stddev);
  // exp(Normal(mu, sigma)): a startup time with a long right tail.
  double LogNormal(double mu, double sigma);

  std::uint64_t seed() const { return seed_; }

 private:
  std::uint64_t seed_;
  std::array<std::uint64_t, 4> s_;
};

// splitmix64 step: the seed expander, also useful as a 64-bit mixer.
std::uint64_t SplitMix64(std::uint64_t* state);

}  // namespace lws
