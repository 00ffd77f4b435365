#pragma once
#include <cmath>
#include <span>
#include <vector>

#include "hetflow/optim/bounds.hpp"
#include "hetflow/optim/evaluation.hpp"

// Test objectives with known minima, each as a batch objective that counts its calls.
namespace hetflow::optim::test {

// Extended Rosenbrock (Moré, Garbow & Hillstrom 1981, problem 21): n/2 independent valleys
// r_{2i} = 10(x_{2i+1} − x_{2i}²), r_{2i+1} = 1 − x_{2i}; minimum 0 at (1, …, 1). For n = 2 the classic one.
inline std::vector<double> rosenbrock_residuals(std::span<const double> x) {
  std::vector<double> r;
  for (std::size_t i = 0; i + 1 < x.size(); i += 2) {
    r.push_back(10 * (x[i + 1] - x[i] * x[i]));
    r.push_back(1 - x[i]);
  }
  return r;
}

inline double rosenbrock(std::span<const double> x) {
  double f = 0;
  for (double r : rosenbrock_residuals(x)) f += r * r;
  return f;
}

// The standard start (−1.2, 1, −1.2, 1, …).
inline Point rosenbrock_start(std::size_t n) {
  Point x(n);
  for (std::size_t i = 0; i < n; ++i) x[i] = i % 2 ? 1.0 : -1.2;
  return x;
}

// Wraps a pointwise function into a batch objective; counts calls and checks every point against `box`.
template <class F>
BatchObjective batch_of(F f, std::size_t* calls = nullptr, const Bounds* box = nullptr, bool* left_box = nullptr) {
  return [f, calls, box, left_box](std::span<const Point> points) {
    if (calls) ++*calls;
    std::vector<Evaluation> out;
    for (const Point& p : points) {
      if (box && left_box) {
        for (std::size_t i = 0; i < p.size(); ++i)
          if (p[i] < box->lower(i) || p[i] > box->upper(i)) *left_box = true;
      }
      out.push_back(f(p));
    }
    return out;
  };
}

inline BatchObjective rosenbrock_objective(std::size_t* calls = nullptr, const Bounds* box = nullptr, bool* left_box = nullptr) {
  return batch_of([](const Point& p) { return Evaluation::of(rosenbrock(p)); }, calls, box, left_box);
}

inline BatchObjective rosenbrock_least_squares(std::size_t* calls = nullptr, const Bounds* box = nullptr, bool* left_box = nullptr) {
  return batch_of([](const Point& p) { return Evaluation::of_residuals(rosenbrock_residuals(p)); }, calls, box, left_box);
}

}  // namespace hetflow::optim::test
