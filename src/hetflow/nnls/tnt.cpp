#include "hetflow/nnls/tnt.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <type_traits>

#include "hetflow/core/build_options.hpp"
#include "hetflow/core/error.hpp"
#include "hetflow/core/event.hpp"
#include "hetflow/core/program.hpp"
#include "hetflow/nnls/input_check.hpp"
#include "hetflow/nnls/kkt.hpp"
#include "hetflow/nnls/tnt_active_set.hpp"

namespace hetflow::nnls {
namespace {

void require(bool ok, const std::string& field, double value, const char* rule) {
  if (!ok) throw core::Error("TntOptions." + field + " = " + std::to_string(value) + ": " + rule);
}

void check_options(const TntOptions& o, std::size_t n) {
  require(o.reduction > 0.0 && o.reduction < 1.0, "reduction", o.reduction, "must lie in (0, 1)");
  require(o.expansion >= 1.0 && std::isfinite(o.expansion), "expansion", o.expansion, "must be finite and >= 1");
  require(o.early_reach >= 1.0 && std::isfinite(o.early_reach), "early_reach", o.early_reach,
          "must be finite and >= 1");
  require(o.rel_tol >= 0.0 && o.rel_tol < 1.0, "rel_tol", o.rel_tol, "must lie in [0, 1)");
  require(o.lambda >= 0.0 && std::isfinite(o.lambda), "lambda", o.lambda, "must be finite and >= 0");
  require(o.max_cg_iterations >= 1, "max_cg_iterations", o.max_cg_iterations, "must be >= 1");
  require(o.cg_tolerance >= 0.0, "cg_tolerance", o.cg_tolerance, "must be >= 0");
  require(o.max_outer_iterations >= 0, "max_outer_iterations", o.max_outer_iterations, "must be >= 0");
  require(o.tolerance >= 0.0 && std::isfinite(o.tolerance), "tolerance", o.tolerance, "must be finite and >= 0");
  for (std::size_t i = 0; i < o.initial_free.size(); ++i)
    if (o.initial_free[i] >= n)
      throw core::Error("TntOptions.initial_free[" + std::to_string(i) + "] = " + std::to_string(o.initial_free[i]) +
                        ": every index must be below A.cols = " + std::to_string(n));
}

// B's shape and entries with input_check's messages ("B(4, 1) = nan: B must be finite").
void check_rhs(std::size_t m, MatrixView B) {
  check_problem(B, Vector(B.rows, 0.0), "B", "b");
  if (B.rows != m)
    throw core::Error("B has " + std::to_string(B.rows) + " rows but A has " + std::to_string(m) +
                      " rows: B.rows must equal A.rows");
}

// b as a one-column matrix, read where it lies.
MatrixView as_matrix(const Vector& b) { return {b.size(), 1, b.data()}; }

}  // namespace

// The matrix to solve with, on the host or already on the device.
struct Tnt::Setup {
  std::size_t m = 0, n = 0;
  std::optional<MatrixView> host;
  DeviceMatrixView<double> device;  // when host is empty
};

Tnt::Tnt(const core::DeviceSet& devices, std::size_t device, const DenseTuning& tuning)
    : context_(devices.context(device)), queue_(devices.compute(device)), tuning_(tuning) {}

Tnt::~Tnt() = default;

template <>
DeviceDense<double>& Tnt::dense<double>() {
  if (!f64_) f64_ = std::make_unique<DeviceDense<double>>(context_, tuning_);
  return *f64_;
}
template <>
DeviceDense<float>& Tnt::dense<float>() {
  if (!f32_) f32_ = std::make_unique<DeviceDense<float>>(context_, tuning_);
  return *f32_;
}

const core::Program& Tnt::setup_program(bool fp32) {
  core::BuildOptions o(fp32 ? core::Precision::f32 : core::Precision::f64);
  o.define("TNT_WG", tuning_.reduce_work_group);
  return context_.program("nnls/tnt.cl", o);
}

template <class Real>
std::vector<TntResult> Tnt::run(const Setup& s, MatrixView B, const TntOptions& options) {
  const std::size_t m = s.m, n = s.n;
  std::vector<TntResult> results;
  if (m == 0 || n == 0) {  // nothing to solve: x = 0 (or empty), r = b
    for (std::size_t c = 0; c < B.cols; ++c) {
      TntResult r;
      r.x.assign(n, 0.0);
      double bb = 0.0;
      for (std::size_t i = 0; i < m; ++i) bb += B(i, c) * B(i, c);
      r.residual_norm = std::sqrt(bb);
      r.converged = true;
      results.push_back(std::move(r));
    }
    return results;
  }
  const core::WallTimer setup_timer;
  const core::Program& program = setup_program(std::is_same_v<Real, float>);
  const std::size_t wg = static_cast<std::size_t>(tuning_.reduce_work_group);

  // Column scaling (as the baselines): d_j = ||a_j||, 1 for a zero column.
  Vector d;
  core::Buffer<Real> a_s(context_, m * n);
  if (s.host) {
    d = column_norms(*s.host);
    std::vector<Real> scaled(m * n);
    for (std::size_t j = 0; j < n; ++j) {
      const double inv = 1.0 / d[j];
      for (std::size_t i = 0; i < m; ++i) scaled[i + j * m] = static_cast<Real>((*s.host)(i, j) * inv);
    }
    a_s.write(queue_, std::span<const Real>(scaled));
  } else {
    const DeviceMatrixView<double>& a = s.device;
    core::Buffer<double> sums(context_, n);
    core::Kernel squares = program.kernel("tnt_column_squares");
    squares.args(static_cast<int>(m), a.buffer, cl_ulong{a.offset}, static_cast<int>(a.ld), sums);
    squares.launch(queue_, core::NDRange(n * wg), core::NDRange(wg));
    d = sums.to_vector(queue_);
    for (std::size_t j = 0; j < n; ++j) {
      if (!std::isfinite(d[j]))
        throw core::Error("A(:, " + std::to_string(j) +
                          ") has a NaN or infinite entry (or overflows): A must be finite");
      d[j] = d[j] > 0.0 ? std::sqrt(d[j]) : 1.0;
    }
    Vector inv(n);
    for (std::size_t j = 0; j < n; ++j) inv[j] = 1.0 / d[j];
    core::Buffer<double> inv_d(context_, n);
    inv_d.write(queue_, std::span<const double>(inv));
    core::Kernel scale = program.kernel("tnt_scale_columns");
    scale.args(static_cast<int>(m), static_cast<int>(n), a.buffer, cl_ulong{a.offset}, static_cast<int>(a.ld), inv_d,
               a_s);
    scale.launch(queue_, core::NDRange(core::round_up(m, 64), n), core::NDRange(64, 1));
  }

  DeviceDense<Real>& dd = dense<Real>();
  core::Buffer<Real> aa(context_, n * n);
  ScaledProblem<Real> problem{DeviceMatrixView<Real>::whole(a_s, m, n), DeviceMatrixView<Real>::whole(aa, n, n)};
  dd.gram(queue_, problem.a, problem.aa);
  core::Buffer<Real> column_sums(context_, n);
  core::Kernel abs_sums = program.kernel("tnt_column_abs_sums");
  abs_sums.args(static_cast<int>(n), aa, cl_ulong{0}, static_cast<int>(n), column_sums);
  abs_sums.launch(queue_, core::NDRange(n * wg), core::NDRange(wg));
  const std::vector<Real> sums = column_sums.to_vector(queue_);
  const double setup_seconds = setup_timer.seconds();
  // ||AA||_1 >= 1 once a column is non-zero (unit diagonal); 1 keeps the shift positive for A = 0.
  const double norm1 = std::max(1.0, static_cast<double>(*std::max_element(sums.begin(), sums.end())));
  const double eps = std::numeric_limits<Real>::epsilon();
  problem.epsilon = 10.0 * eps * norm1;  // Myre 2013, App. E.1 step 2.1
  const double automatic = std::is_same_v<Real, float> ? 10.0 * eps * std::sqrt(static_cast<double>(n))
                                                       : 10.0 * eps * static_cast<double>(n) * norm1;
  problem.tolerance = options.tolerance > 0.0 ? options.tolerance : automatic;
  // FNNLS's FP64 rule, which the KKT test keeps, lies far above the rounding of a computed scaled gradient
  // (about eps sqrt(m)): below it, at condition 1e6 and more, variables stay bound that the optimum frees,
  // and x moves far from the solution while the residual hardly changes. So variables are offered to the
  // free set down to the gradient's rounding; an offer no trial can use ends the solve if it passes the test.
  const bool fnnls_rule = options.tolerance == 0.0 && std::is_same_v<Real, double>;
  problem.release_tolerance =
      fnnls_rule ? std::min(problem.tolerance, 10.0 * eps * std::sqrt(static_cast<double>(m))) : problem.tolerance;
  dd.add_diagonal(queue_, problem.aa, static_cast<Real>(problem.epsilon + options.lambda));

  TntActiveSet<Real> solver(dd, queue_, problem);
  for (std::size_t c = 0; c < B.cols; ++c) {
    TntResult r = solver.solve(Vector(B.column(c), B.column(c) + m), options);
    r.setup_seconds = setup_seconds;
    for (std::size_t j = 0; j < n; ++j) r.x[j] /= d[j];
    results.push_back(std::move(r));
  }
  return results;
}

std::vector<TntResult> Tnt::solve(MatrixView A, MatrixView B, const TntOptions& options) {
  check_problem(A, Vector(A.rows, 0.0));
  check_rhs(A.rows, B);
  check_options(options, A.cols);
  const Setup s{A.rows, A.cols, A, {}};
  return options.fp32 ? run<float>(s, B, options) : run<double>(s, B, options);
}

TntResult Tnt::solve(MatrixView A, const Vector& b, const TntOptions& options) {
  check_problem(A, b);
  return solve(A, as_matrix(b), options).front();
}

std::vector<TntResult> Tnt::solve(const DeviceMatrixView<double>& A, MatrixView B, const TntOptions& options) {
  if (A.rows > 0 && A.cols > 0 && (A.ld < A.rows || A.offset + (A.cols - 1) * A.ld + A.rows > A.buffer.size()))
    throw core::Error("A (" + std::to_string(A.rows) + " x " + std::to_string(A.cols) +
                      " on the device) runs past its buffer or has ld < rows");
  check_rhs(A.rows, B);
  check_options(options, A.cols);
  const Setup s{A.rows, A.cols, std::nullopt, A};
  return options.fp32 ? run<float>(s, B, options) : run<double>(s, B, options);
}

TntResult Tnt::solve(const DeviceMatrixView<double>& A, const Vector& b, const TntOptions& options) {
  // b against A's shape with input_check's messages: a matrix of A's rows and no columns stands in for A.
  check_problem(Matrix(A.rows, 0), b);
  return solve(A, as_matrix(b), options).front();
}

}  // namespace hetflow::nnls
