#include "hetflow/app/nnls/nnls_bench_support.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>

#include "hetflow/io/atomic_file.hpp"
#include "hetflow/io/matrix_file.hpp"

namespace hetflow::app::nnls_bench {
namespace {

constexpr std::size_t keep_limit = 5000;  // larger problems are too big to hand to scipy usefully

}  // namespace

Caps caps_for(const core::DeviceInfo& d) {
  return d.kind == core::DeviceKind::gpu ? Caps{60, 180, 10} : Caps{20, 30, 3};
}

bool Series::admits(std::size_t n) {
  if (stopped_before_) return false;
  if (last_n_ == 0) return true;
  const double predicted = last_seconds_ * std::pow(double(n) / double(last_n_), exponent_);
  if (predicted <= cap_) return true;
  char why[160];
  std::snprintf(why, sizeof why, "one run would take about %.3g s, over the cap of %g s", predicted, cap_);
  stop(n, why);
  return false;
}

void Series::stop(std::size_t n, const std::string& why) {
  stopped_before_ = n;
  std::cerr << "  " << label_ << ": stopping before n = " << n << " (" << why << ")\n";
}

void Series::record(std::size_t n, double seconds, std::optional<std::size_t> case_index) {
  last_n_ = n;
  last_seconds_ = seconds;
  if (case_index) cases_.push_back(*case_index);
}

void Series::annotate(BenchReport& report) const {
  for (std::size_t c : cases_) report.cases[c].params["series_stopped_before_n"] = stopped_before_;
}

double relative_error(const nnls::Vector& x, const nnls::Vector& reference) {
  double d = 0, r = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    d += (x[i] - reference[i]) * (x[i] - reference[i]);
    r += reference[i] * reference[i];
  }
  return std::sqrt(d / r);
}

nlohmann::json solution_params(const nnls::Solution& solution, const nnls::Vector& known_x) {
  return {{"iterations", solution.iterations},
          {"converged", solution.converged},
          {"diagnosis", solution.diagnosis},
          {"relative_error_x", relative_error(solution.x, known_x)},
          {"residual_norm", solution.residual_norm}};
}

ProblemKeeper::ProblemKeeper() {
  if (const char* d = std::getenv("HETFLOW_BENCH_KEEP_PROBLEMS"); d && *d) dir_ = d;
  if (!dir_.empty()) std::filesystem::create_directories(dir_);
}

bool ProblemKeeper::keeps(std::size_t n) const { return !dir_.empty() && n <= keep_limit; }

void ProblemKeeper::matrix(const std::string& stem, const nnls::Matrix& A) const {
  io::write_dense(dir_ / (stem + "_A.npy"), {{A.rows, A.cols}, A.data});
}

nlohmann::json& ProblemKeeper::problem(const std::string& stem, const nnls::Matrix& A, double fraction,
                                       const nnls::Problem& p, const nlohmann::json& about) {
  const std::string active = stem + "_active" + std::to_string(int(std::lround(100 * fraction)));
  io::write_dense(dir_ / (active + "_b.npy"), {{A.rows}, p.b});
  io::write_dense(dir_ / (active + "_x.npy"), {{A.cols}, p.x});
  nlohmann::json entry = about;
  entry.update({{"n", A.cols},
                {"m", A.rows},
                {"active_fraction", fraction},
                {"A", stem + "_A.npy"},
                {"b", active + "_b.npy"},
                {"x", active + "_x.npy"},
                {"seconds", nlohmann::json::object()}});
  list_["problems"].push_back(std::move(entry));
  return list_["problems"].back();
}

void ProblemKeeper::save(const BenchReport& report) {
  if (dir_.empty()) return;
  list_["device"] = report.device.name;
  io::write_file_atomically(dir_ / "problems.json", list_.dump(2) + "\n");
  std::cerr << "  problems kept in " << dir_.string() << "\n";
}

}  // namespace hetflow::app::nnls_bench
