#pragma once
// What the parts of `hetflow bench nnls` share (nnls_bench.cpp, nnls_bench_families.cpp): their caps,
// size series that stop before a size would pass a cap, timed samples, and the problems kept for
// scripts/nnls_scipy_bench.py.
#include <algorithm>
#include <cstddef>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "hetflow/app/bench/registry.hpp"
#include "hetflow/app/nnls/nnls_command.hpp"
#include "hetflow/core/device_set.hpp"
#include "hetflow/nnls/matrix.hpp"
#include "hetflow/nnls/test_problems.hpp"
#include "hetflow/nnls/tnt.hpp"

namespace hetflow::app::nnls_bench {

// Seconds a series may spend: a size runs only when its one run is predicted within `run` (and its
// with_active_set within `setup`); the timed repeats of a case fill about `case_budget`, at least one.
struct Caps {
  double run, setup, case_budget;
};
Caps caps_for(const core::DeviceInfo& d);

struct Context {
  const core::DeviceSet& devices;
  const BenchOptions& options;
  Caps caps;
  double peak64;  // GFLOP/s
  BenchReport& report;
};

// Sizes of one measured quantity, stopped before the first size predicted, by (n / last n)^exponent
// from the last run, to pass the cap. Remembers where it stopped, for the params of its cases.
class Series {
 public:
  Series(std::string label, double cap, double exponent) : label_(std::move(label)), cap_(cap), exponent_(exponent) {}

  bool admits(std::size_t n);
  void stop(std::size_t n, const std::string& why);
  void record(std::size_t n, double seconds, std::optional<std::size_t> case_index = std::nullopt);
  void annotate(BenchReport& report) const;

 private:
  std::string label_;
  double cap_, exponent_;
  std::size_t last_n_ = 0, stopped_before_ = 0;  // 0: not stopped
  double last_seconds_ = 0;
  std::vector<std::size_t> cases_;
};

// Samples of `run()` (which returns its seconds) after a warm-up run that took `warm` s: the warm-up
// is the one sample when it alone fills the budget (kernels are built by then, so it costs what the
// others would), else repeats fill about the budget.
template <class Run>
std::vector<double> samples(double warm, double budget, int max_repeats, Run&& run) {
  if (warm >= budget) return {warm};
  const int repeats = std::clamp(int(budget / std::max(warm, 1e-6)), 1, max_repeats);
  std::vector<double> s;
  for (int r = 0; r < repeats; ++r) s.push_back(run());
  return s;
}

double relative_error(const nnls::Vector& x, const nnls::Vector& reference);

// What a case's params record of a solve: its iterations, convergence, diagnosis, error against the known
// solution and residual (TNT's counters: tnt_report).
nlohmann::json solution_params(const nnls::Solution& solution, const nnls::Vector& known_x);

// HETFLOW_BENCH_KEEP_PROBLEMS=DIR: the problems with n <= 5000 as .npy files in DIR, listed with the
// measured medians in DIR/problems.json (what scripts/nnls_scipy_bench.py reads).
class ProblemKeeper {
 public:
  ProblemKeeper();
  bool keeps(std::size_t n) const;
  // STEM_A.npy.
  void matrix(const std::string& stem, const nnls::Matrix& A) const;
  // STEM_activeNN_b.npy and _x.npy, listed with `about` (the family, its parameters and seeds); returns
  // the entry, where the caller adds the medians it measures under "seconds".
  nlohmann::json& problem(const std::string& stem, const nnls::Matrix& A, double fraction, const nnls::Problem& p,
                          const nlohmann::json& about);
  // Rewrites DIR/problems.json; called after each kept size, so that a run cut short keeps its list.
  void save(const BenchReport& report);

 private:
  std::filesystem::path dir_;
  nlohmann::json list_ = {{"problems", nlohmann::json::array()}};
};

}  // namespace hetflow::app::nnls_bench
