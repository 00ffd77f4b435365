#pragma once
#include <cmath>
#include <cstdint>
#include <numbers>
#include <random>

namespace hetflow::optim {

// Seeded random numbers that are the same on every platform: std::mt19937_64's sequence is fixed by
// the standard, but the std:: distributions are not, so the few needed are written out here.
class Random {
 public:
  explicit Random(std::uint64_t seed) : engine_(seed) {}

  // Uniform in [0, 1).
  double uniform() { return static_cast<double>(engine_() >> 11) * 0x1.0p-53; }
  // Uniform in {0, …, n − 1}.
  std::size_t index(std::size_t n) { return static_cast<std::size_t>(uniform() * static_cast<double>(n)); }
  // Standard normal (Box–Muller; one of the pair is dropped to keep the stream simple).
  double normal() {
    const double u = 1 - uniform();  // (0, 1]: the logarithm stays finite
    return std::sqrt(-2 * std::log(u)) * std::cos(2 * std::numbers::pi * uniform());
  }

 private:
  std::mt19937_64 engine_;
};

}  // namespace hetflow::optim
