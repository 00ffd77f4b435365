#include "hetflow/nnls/device_dense.hpp"

#include <algorithm>
#include <climits>
#include <iterator>
#include <numeric>
#include <span>
#include <string>
#include <type_traits>

#include "hetflow/core/build_options.hpp"
#include "hetflow/core/error.hpp"
#include "hetflow/core/program.hpp"
#include "hetflow/nnls/host_dense.hpp"

namespace hetflow::nnls {
namespace {

using core::NDRange;
using core::round_up;

// Kernel arguments are 32-bit: every size and leading dimension must fit in an int (offsets are ulong).
int to_int(std::size_t n, const char* what) {
  if (n > static_cast<std::size_t>(INT_MAX)) throw core::Error(std::string(what) + " exceeds the kernels' int range");
  return static_cast<int>(n);
}

template <class Real>
void check_fits(const DeviceMatrixView<Real>& m, const char* what) {
  if (m.rows > m.ld && m.cols > 1) throw core::Error(std::string(what) + ": leading dimension below the row count");
  if (m.rows == 0 || m.cols == 0) return;
  const std::size_t last = m.offset + (m.cols - 1) * m.ld + m.rows;
  if (last > m.buffer.size()) throw core::Error(std::string(what) + ": matrix view runs past its buffer");
  to_int(m.ld, what);
}

template <class T>
void check_length(const core::Buffer<T>& v, std::size_t n, const char* what) {
  if (v.size() < n) throw core::Error(std::string(what) + ": buffer shorter than " + std::to_string(n));
}

core::BuildOptions build_options(const DenseTuning& t, core::Precision precision) {
  core::BuildOptions o(precision);
  o.define("GEMM_TM", t.gemm_tile_m).define("GEMM_TN", t.gemm_tile_n).define("GEMM_TK", t.gemm_tile_k);
  o.define("GEMM_RM", t.gemm_block_m).define("GEMM_RN", t.gemm_block_n).define("GEMM_SKINNY", t.gemm_skinny);
  o.define("CHOL_NB", t.cholesky_block).define("CHOL_WG", t.cholesky_work_group);
  o.define("TRSM_COLS", t.trsm_columns);
  o.define("GEMV_ROWS", t.gemv_rows).define("GEMV_SLICES", t.gemv_slices);
  o.define("REDUCE_WG", t.reduce_work_group).define("GATHER_WG", t.gather_work_group);
  return o;
}

std::size_t blocks(std::size_t n, std::size_t size) { return (n + size - 1) / size; }

void require(bool ok, const std::string& message) {
  if (!ok) throw core::Error("DenseTuning: " + message);
}

bool power_of_two(int n) { return n > 0 && (n & (n - 1)) == 0; }

}  // namespace

void validate(const DenseTuning& t, const core::DeviceInfo& device, std::size_t real_bytes) {
  const int sizes[] = {t.gemm_skinny,  t.gemm_tile_m,       t.gemm_tile_n,         t.gemm_tile_k,      t.gemm_block_m,
                       t.gemm_block_n, t.cholesky_block,    t.cholesky_work_group, t.trsm_columns,     t.gemv_rows,
                       t.gemv_slices,  t.reduce_work_group, t.reduce_groups,       t.gather_work_group};
  require(std::all_of(std::begin(sizes), std::end(sizes), [](int v) { return v > 0; }), "every size must be positive");
  require(t.gemm_tile_m % t.gemm_block_m == 0 && t.gemm_tile_n % t.gemm_block_n == 0,
          "GEMM tiles must be multiples of the register blocks");
  require(power_of_two(t.reduce_work_group), "reduce_work_group must be a power of two");
  require(t.cholesky_work_group >= t.cholesky_block &&
              t.cholesky_work_group <= t.cholesky_block * (t.cholesky_block + 1),
          "cholesky_work_group must lie between cholesky_block and cholesky_block (cholesky_block + 1)");
  const std::size_t u = real_bytes;
  const std::size_t groups[] = {
      std::size_t(t.gemm_tile_m / t.gemm_block_m) * std::size_t(t.gemm_tile_n / t.gemm_block_n),
      std::size_t(t.cholesky_work_group),
      std::size_t(t.gemv_rows) * std::size_t(t.gemv_slices),
      std::size_t(t.reduce_work_group),
      std::size_t(t.gather_work_group)};
  for (const std::size_t g : groups)
    require(g <= device.max_work_group,
            "a work-group of " + std::to_string(g) + " exceeds the device's " + std::to_string(device.max_work_group));
  const std::size_t locals[] = {
      u * std::size_t(t.gemm_tile_k) * std::size_t(t.gemm_tile_m + t.gemm_tile_n + 2),
      u * std::size_t(t.cholesky_block) * std::size_t(t.cholesky_block + 1 + std::max(t.trsm_columns, 2))};
  for (const std::size_t bytes : locals)
    require(bytes <= device.local_mem,
            std::to_string(bytes) + " bytes of local memory exceed the device's " + std::to_string(device.local_mem));
}

template <class Real>
DeviceDense<Real>::DeviceDense(const core::Context& context, const DenseTuning& tuning)
    : tuning_(tuning),
      compute_units_(std::max(context.device().info.compute_units, 1u)),
      host_blas_(std::is_same_v<Real, double> && tuning.cpu_blas &&
                 context.device().info.kind == core::DeviceKind::cpu) {
  constexpr auto precision = sizeof(Real) == 8 ? core::Precision::f64 : core::Precision::f32;
  validate(tuning_, context.device().info, sizeof(Real));
  const core::Program& p = context.program("nnls/dense.cl", build_options(tuning_, precision));
  gemm_ = p.kernel("dense_gemm");
  inverse_factor_ = p.kernel("dense_inverse_factor");
  gather_ = p.kernel("dense_gather");
  add_diagonal_ = p.kernel("dense_add_diagonal");
  sum_chunks_ = p.kernel("dense_sum_chunks");
  column_norms_ = p.kernel("dense_column_norms2");
  skinny_nn_ = p.kernel("dense_gemm_skinny_nn");
  skinny_tn_ = p.kernel("dense_gemm_skinny_tn");
  gemv_t_ = p.kernel("dense_gemv_t_gather");
  potrf_diag_ = p.kernel("dense_potrf_diag");
  trsm_row_ = p.kernel("dense_trsm_row");
  dot_partial_ = p.kernel("dense_dot_partial");
  sum_partials_ = p.kernel("dense_sum_partials");
  axpy_ = p.kernel("dense_axpy");
  axpy_ratio_ = p.kernel("dense_axpy_ratio");
  xpby_ratio_ = p.kernel("dense_xpby_ratio");
  info_ = core::Buffer<cl_int>(context, 1);
  no_stop_ = core::Buffer<cl_int>(context, 1);
  no_stop_.fill(core::Queue(context), 0).wait();
  partial_ = core::Buffer<Real>(context, static_cast<std::size_t>(tuning_.reduce_groups));
  scalar_ = core::Buffer<Real>(context, static_cast<std::size_t>(tuning_.gemm_skinny));
  part_ = core::Buffer<Real>(context, 1);
  identity_ = core::Buffer<cl_int>(context, 1);
}

template <class Real>
void DeviceDense<Real>::launch_gemm(const core::Queue& q, bool a_transposed, Real alpha, const Matrix& a,
                                    const Matrix& b, Real beta, const Matrix& c, int triangle,
                                    const core::Buffer<cl_int>& stop) {
  if (c.rows == 0 || c.cols == 0) return;
  const DenseTuning& t = tuning_;
  const std::size_t wx = static_cast<std::size_t>(t.gemm_tile_m / t.gemm_block_m);
  const std::size_t wy = static_cast<std::size_t>(t.gemm_tile_n / t.gemm_block_n);
  const std::size_t tiles_m = blocks(c.rows, t.gemm_tile_m), tiles_n = blocks(c.cols, t.gemm_tile_n);
  const std::size_t depth = b.rows;
  // The contraction in chunks of at least four passes only for a whole C (the Cholesky's triangular
  // updates are wide enough).
  const std::size_t chunk = triangle == 0 ? chunk_of(depth, tiles_m * tiles_n, 4 * t.gemm_tile_k, 4) : depth;
  const std::size_t chunks = std::max<std::size_t>(1, blocks(depth, std::max<std::size_t>(chunk, 1)));
  gemm_.args(to_int(c.rows, "GEMM rows"), to_int(c.cols, "GEMM columns"), to_int(depth, "GEMM depth"), alpha, a.buffer,
             cl_ulong{a.offset}, static_cast<int>(a.ld), a_transposed ? 1 : 0, b.buffer, cl_ulong{b.offset},
             static_cast<int>(b.ld), beta, c.buffer, cl_ulong{c.offset}, static_cast<int>(c.ld), triangle, stop,
             to_int(std::max<std::size_t>(chunk, 1), "GEMM chunk"), parts(q, chunks, c.rows * c.cols));
  gemm_.enqueue(q, NDRange(tiles_m * wx, tiles_n * wy, chunks), NDRange(wx, wy, 1));
  if (chunks > 1) sum_chunks(q, chunks, alpha, beta, c);
}

template <class Real>
void DeviceDense<Real>::gram(const core::Queue& q, const Matrix& a, const Matrix& c) {
  check_fits(a, "gram A");
  check_fits(c, "gram C");
  if (c.rows != a.cols || c.cols != a.cols) throw core::Error("gram: C must be n x n for an m x n A");
  if constexpr (std::is_same_v<Real, double>) {
    if (host_blas_) {
      const auto in = a.map(q, core::MapMode::read);
      const auto out = c.map(q, core::MapMode::write);
      host_gram(a.rows, a.cols, in.data(), a.ld, out.data(), c.ld);
      return;
    }
  }
  launch_gemm(q, true, Real(1), a, a, Real(0), c, 2, no_stop_);
}

template <class Real>
void DeviceDense<Real>::gemm_tn(const core::Queue& q, Real alpha, const Matrix& a, const Matrix& b, Real beta,
                                const Matrix& c) {
  gemm(q, true, alpha, a, b, beta, c);
}

template <class Real>
void DeviceDense<Real>::gemm_nn(const core::Queue& q, Real alpha, const Matrix& a, const Matrix& b, Real beta,
                                const Matrix& c) {
  gemm(q, false, alpha, a, b, beta, c);
}

template <class Real>
void DeviceDense<Real>::gemm(const core::Queue& q, bool a_transposed, Real alpha, const Matrix& a, const Matrix& b,
                             Real beta, const Matrix& c) {
  check_fits(a, "GEMM A");
  check_fits(b, "GEMM B");
  check_fits(c, "GEMM C");
  const std::size_t rows = a_transposed ? a.cols : a.rows, depth = a_transposed ? a.rows : a.cols;
  if (b.rows != depth || c.rows != rows || c.cols != b.cols)
    throw core::Error(a_transposed ? "gemm_tn: C (M x N) = A^T B needs A of K x M and B of K x N"
                                   : "gemm_nn: C (M x N) = A B needs A of M x K and B of K x N");
  if (c.rows == 0 || c.cols == 0) return;
  if constexpr (std::is_same_v<Real, double>) {
    if (host_blas_) {
      const auto am = a.map(q, core::MapMode::read);
      const auto bm = b.map(q, core::MapMode::read);
      const auto cm = c.map(q, beta == 0 ? core::MapMode::write : core::MapMode::read_write);
      host_gemm(a_transposed, c.rows, c.cols, depth, alpha, am.data(), a.ld, bm.data(), b.ld, beta, cm.data(), c.ld);
      return;
    }
  }
  const std::size_t skinny = static_cast<std::size_t>(tuning_.gemm_skinny);
  if (a_transposed && c.rows <= skinny) {
    skinny_tn_.args(to_int(c.rows, "GEMM rows"), to_int(depth, "GEMM depth"), alpha, a.buffer, cl_ulong{a.offset},
                    static_cast<int>(a.ld), b.buffer, cl_ulong{b.offset}, static_cast<int>(b.ld), beta, c.buffer,
                    cl_ulong{c.offset}, static_cast<int>(c.ld));
    const std::size_t wg = static_cast<std::size_t>(tuning_.reduce_work_group);
    return skinny_tn_.enqueue(q, NDRange(c.cols * wg), NDRange(wg));
  }
  if (!a_transposed && c.cols <= skinny) return skinny_nn(q, alpha, a, identity(q, depth), b, beta, c);
  launch_gemm(q, a_transposed, alpha, a, b, beta, c, 0, no_stop_);
}

template <class Real>
std::size_t DeviceDense<Real>::chunk_of(std::size_t depth, std::size_t groups, std::size_t least,
                                        std::size_t per_unit) const {
  const std::size_t most = std::max<std::size_t>(1, depth / least);
  const std::size_t wanted = std::clamp<std::size_t>(blocks(per_unit * compute_units_, groups), 1, most);
  return std::max<std::size_t>(1, blocks(depth, wanted));
}

template <class Real>
const core::Buffer<Real>& DeviceDense<Real>::parts(const core::Queue& q, std::size_t chunks, std::size_t size) {
  if (chunks > 1 && part_.size() < chunks * size) part_ = Vector(q.context(), chunks * size);
  return part_;
}

template <class Real>
void DeviceDense<Real>::sum_chunks(const core::Queue& q, std::size_t chunks, Real alpha, Real beta, const Matrix& c) {
  sum_chunks_.args(to_int(c.rows, "sum rows"), to_int(c.cols, "sum columns"), static_cast<int>(chunks), alpha, part_,
                   beta, c.buffer, cl_ulong{c.offset}, static_cast<int>(c.ld));
  sum_chunks_.enqueue(q, NDRange(round_up(c.rows, 64), c.cols), NDRange(64, 1));
}

template <class Real>
void DeviceDense<Real>::gather(const core::Queue& q, const Matrix& c, const Indices& rows, std::size_t nr,
                               const Indices& cols, std::size_t nc, const Matrix& bb) {
  check_fits(c, "gather C");
  check_fits(bb, "gather BB");
  check_length(rows, nr, "gather rows");
  check_length(cols, nc, "gather columns");
  if (bb.rows < nr || bb.cols < nc) throw core::Error("gather: BB is smaller than the gathered block");
  if (nr == 0 || nc == 0) return;
  const std::size_t wg = static_cast<std::size_t>(tuning_.gather_work_group);
  gather_.args(to_int(nr, "gather rows"), c.buffer, cl_ulong{c.offset}, static_cast<int>(c.ld), rows, cols, bb.buffer,
               cl_ulong{bb.offset}, static_cast<int>(bb.ld));
  gather_.enqueue(q, NDRange(round_up(nr, wg), nc), NDRange(wg, 1));
}

template <class Real>
void DeviceDense<Real>::factor_inverse(const core::Queue& q, const Matrix& s, const Matrix& out, std::size_t above,
                                       bool transposed) {
  check_fits(s, "factor_inverse S");
  check_fits(out, "factor_inverse out");
  const std::size_t t = s.rows;
  if (s.cols != t || t > static_cast<std::size_t>(tuning_.cholesky_block))
    throw core::Error("factor_inverse: S must be square and at most cholesky_block in order");
  if (out.rows != above + t || out.cols != t) throw core::Error("factor_inverse: out must be (above + t) x t");
  if (t == 0) return;
  if constexpr (std::is_same_v<Real, double>) {
    if (host_blas_) {
      const auto info = info_.map(q, core::MapMode::read_write, 0, 1);
      if (info.data()[0] != 0) return;
      const auto sm = s.map(q, core::MapMode::read_write);
      const auto om = out.map(q, core::MapMode::write);
      if (!host_factor_inverse(t, sm.data(), s.ld, om.data(), out.ld, above, transposed)) info.data()[0] = 1;
      return;
    }
  }
  const std::size_t wg = static_cast<std::size_t>(tuning_.cholesky_work_group);
  potrf_diag_.args(s.buffer, cl_ulong{s.offset}, static_cast<int>(s.ld), static_cast<int>(t), 0, info_);
  potrf_diag_.enqueue(q, NDRange(wg), NDRange(wg));
  const std::size_t gw = static_cast<std::size_t>(tuning_.gather_work_group);
  inverse_factor_.args(static_cast<int>(t), to_int(above, "factor_inverse rows"), s.buffer, cl_ulong{s.offset},
                       static_cast<int>(s.ld), transposed ? 1 : 0, out.buffer, cl_ulong{out.offset},
                       static_cast<int>(out.ld), info_);
  inverse_factor_.enqueue(q, NDRange(round_up(above + t, gw), t), NDRange(gw, 1));
}

template <class Real>
void DeviceDense<Real>::clear_failure(const core::Queue& q) {
  info_.enqueue_fill(q, 0);
}

template <class Real>
void DeviceDense<Real>::read_failure(const core::Queue& q, cl_int& into) {
  info_.enqueue_read(q, std::span<cl_int>(&into, 1));
}

template <class Real>
void DeviceDense<Real>::apply_inverse(const core::Queue& q, const InverseView<Real>& h, const Vector& z,
                                      const Vector& w, const Vector& u, const Vector& s) {
  const std::size_t k = h.k, p = h.q.cols;
  check_length(u, h.wt.rows, "apply_inverse u");
  check_length(s, p, "apply_inverse s");
  if constexpr (std::is_same_v<Real, double>) {
    if (host_blas_) {
      check_fits(h.wt, "apply_inverse Wt");
      check_fits(h.q, "apply_inverse Q");
      check_length(h.columns, k, "apply_inverse columns");
      check_length(z, k, "apply_inverse z");
      check_length(w, k, "apply_inverse w");
      if (k == 0) return;
      const auto wm = h.wt.map(q, core::MapMode::read);
      const auto columns = h.columns.map(q, core::MapMode::read, 0, k);
      const auto qm = h.q.map(q, core::MapMode::read);
      const auto zm = z.map(q, core::MapMode::read, 0, k);
      const auto out = w.map(q, core::MapMode::write, 0, k);
      host_apply_inverse({h.wt.rows, h.wt.cols, wm.data(), h.wt.ld, columns.data(), k, qm.data(), h.q.ld, p}, zm.data(),
                         out.data(), host_work_, host_u_);
      return;
    }
  }
  if (k == 0) return;
  gemv_n(q, Real(1), h.wt, h.columns, k, z, Real(0), u);
  for (int pass = 0; p > 0 && pass < 2; ++pass) {  // u = P^T P u, P = I - Q Q^T (see InverseView)
    gemv_t(q, Real(1), h.q, h.first, p, u, Real(0), s);
    gemv_n(q, Real(-1), h.q, h.first, p, s, Real(1), u);
  }
  return gemv_t(q, Real(1), h.wt, h.columns, k, u, Real(0), w);
}

template <class Real>
void DeviceDense<Real>::add_diagonal(const core::Queue& q, const Matrix& c, Real value) {
  check_fits(c, "add_diagonal C");
  const std::size_t n = std::min(c.rows, c.cols);
  if (n == 0) return;
  add_diagonal_.args(to_int(n, "add_diagonal n"), c.buffer, cl_ulong{c.offset}, static_cast<int>(c.ld), value);
  add_diagonal_.enqueue(q, NDRange(round_up(n, 64)), NDRange(64));
}

template <class Real>
void DeviceDense<Real>::gemv_n(const core::Queue& q, Real alpha, const Matrix& a, const Indices& f, std::size_t k,
                               const Vector& x, Real beta, const Vector& y) {
  check_fits(a, "gemv_n A");
  check_length(f, k, "gemv_n F");
  check_length(x, k, "gemv_n x");
  check_length(y, a.rows, "gemv_n y");
  if (a.rows == 0) return;
  if constexpr (std::is_same_v<Real, double>) {
    if (host_blas_) {
      const auto in = a.map(q, core::MapMode::read);
      const auto columns = f.map(q, core::MapMode::read, 0, k);
      const auto xs = x.map(q, core::MapMode::read, 0, k);
      const auto ys = y.map(q, beta == 0 ? core::MapMode::write : core::MapMode::read_write, 0, a.rows);
      host_gemv_n(a.rows, a.cols, alpha, in.data(), a.ld, columns.data(), k, xs.data(), beta, ys.data(), host_work_);
      return;
    }
  }
  return skinny_nn(q, alpha, a, f, Matrix{x, k, 1, std::max<std::size_t>(k, 1), 0}, beta,
                   Matrix{y, a.rows, 1, a.rows, 0});
}

template <class Real>
void DeviceDense<Real>::skinny_nn(const core::Queue& q, Real alpha, const Matrix& a, const Indices& f, const Matrix& b,
                                  Real beta, const Matrix& c) {
  const std::size_t rows = static_cast<std::size_t>(tuning_.gemv_rows);
  const std::size_t slices = static_cast<std::size_t>(tuning_.gemv_slices);
  const std::size_t depth = b.rows, chunk = chunk_of(depth, blocks(c.rows, rows), 16 * slices);
  const std::size_t chunks = std::max<std::size_t>(1, blocks(depth, chunk));
  skinny_nn_.args(to_int(c.rows, "GEMM rows"), to_int(c.cols, "GEMM columns"), to_int(depth, "GEMM depth"),
                  to_int(chunk, "GEMM chunk"), alpha, a.buffer, cl_ulong{a.offset}, static_cast<int>(a.ld), f, b.buffer,
                  cl_ulong{b.offset}, static_cast<int>(b.ld), beta, c.buffer, cl_ulong{c.offset},
                  static_cast<int>(c.ld), parts(q, chunks, c.rows * c.cols));
  skinny_nn_.enqueue(q, NDRange(round_up(c.rows, rows), slices * chunks), NDRange(rows, slices));
  if (chunks > 1) sum_chunks(q, chunks, alpha, beta, c);
}

template <class Real>
const core::Buffer<cl_int>& DeviceDense<Real>::identity(const core::Queue& q, std::size_t n) {
  if (identity_.size() < n) {
    std::vector<cl_int> first(std::max(n, 2 * identity_.size()));
    std::iota(first.begin(), first.end(), 0);
    identity_ = Indices(q.context(), first.size());
    identity_.write(q, std::span<const cl_int>(first));
  }
  return identity_;
}

template <class Real>
void DeviceDense<Real>::gemv_t(const core::Queue& q, Real alpha, const Matrix& a, const Indices& f, std::size_t k,
                               const Vector& x, Real beta, const Vector& y) {
  check_fits(a, "gemv_t A");
  check_length(f, k, "gemv_t F");
  check_length(x, a.rows, "gemv_t x");
  check_length(y, k, "gemv_t y");
  if (k == 0) return;
  if constexpr (std::is_same_v<Real, double>) {
    if (host_blas_) {
      const auto in = a.map(q, core::MapMode::read);
      const auto columns = f.map(q, core::MapMode::read, 0, k);
      const auto xs = x.map(q, core::MapMode::read, 0, a.rows);
      const auto ys = y.map(q, beta == 0 ? core::MapMode::write : core::MapMode::read_write, 0, k);
      host_gemv_t(a.rows, a.cols, alpha, in.data(), a.ld, columns.data(), k, xs.data(), beta, ys.data(), host_work_);
      return;
    }
  }
  const std::size_t wg = static_cast<std::size_t>(tuning_.reduce_work_group);
  gemv_t_.args(to_int(a.rows, "gemv_t m"), alpha, a.buffer, cl_ulong{a.offset}, static_cast<int>(a.ld), f, x, beta, y);
  gemv_t_.enqueue(q, NDRange(k * wg), NDRange(wg));
}

// Right-looking blocked factorisation, every block enqueued without waiting: a failed pivot stops the
// later kernels on the device (they read info first), so the host reads back once, at the end.
template <class Real>
std::optional<std::size_t> DeviceDense<Real>::cholesky(const core::Queue& q, const Matrix& a) {
  check_fits(a, "cholesky A");
  if (a.rows != a.cols) throw core::Error("cholesky: the matrix must be square");
  const std::size_t k = a.rows;
  to_int(k, "cholesky k");
  if (k == 0) return std::nullopt;
  if constexpr (std::is_same_v<Real, double>) {
    if (host_blas_) return host_cholesky(k, a.map(q, core::MapMode::read_write).data(), a.ld);
  }
  const std::size_t nb = static_cast<std::size_t>(tuning_.cholesky_block);
  const std::size_t wg = static_cast<std::size_t>(tuning_.cholesky_work_group);
  const std::size_t cols = static_cast<std::size_t>(tuning_.trsm_columns);
  info_.enqueue_fill(q, 0);
  for (std::size_t j = 0; j < k; j += nb) {
    const std::size_t b = std::min(nb, k - j);
    const Matrix diag = a.block(j, j, b, b);
    potrf_diag_.args(diag.buffer, cl_ulong{diag.offset}, static_cast<int>(a.ld), static_cast<int>(b),
                     static_cast<int>(j), info_);
    potrf_diag_.enqueue(q, NDRange(wg), NDRange(wg));
    const std::size_t rest = k - j - b;
    if (rest == 0) break;
    trsm_row_.args(diag.buffer, cl_ulong{diag.offset}, static_cast<int>(a.ld), static_cast<int>(b),
                   static_cast<int>(rest), info_);
    trsm_row_.enqueue(q, NDRange(blocks(rest, cols) * wg), NDRange(wg));
    // Trailing update A22 -= R12^T R12, upper triangle only: the next blocks read nothing else.
    const Matrix r12 = a.block(j, j + b, b, rest);
    launch_gemm(q, true, Real(-1), r12, r12, Real(1), a.block(j + b, j + b, rest, rest), 1, info_);
  }
  cl_int info = 0;
  info_.read(q, std::span<cl_int>(&info, 1));
  if (info == 0) return std::nullopt;
  return static_cast<std::size_t>(info - 1);
}

template <class Real>
double DeviceDense<Real>::residual(const core::Queue& q, const Matrix& a, const Indices& f, std::size_t k,
                                   const Vector& x, const Vector& b, const Vector& r) {
  return residuals(q, a, f, k, Matrix{x, k, 1, std::max<std::size_t>(k, 1), 0}, b, Matrix{r, a.rows, 1, a.rows, 0})[0];
}

template <class Real>
std::vector<double> DeviceDense<Real>::residuals(const core::Queue& q, const Matrix& a, const Indices& f, std::size_t k,
                                                 const Matrix& x, const Vector& b, const Matrix& r) {
  check_fits(a, "residuals A");
  check_fits(x, "residuals X");
  check_fits(r, "residuals R");
  const std::size_t m = a.rows, p = x.cols;
  check_length(b, m, "residuals b");
  check_length(f, k, "residuals F");
  if (x.rows != k || r.rows != m || r.cols != p || p > static_cast<std::size_t>(tuning_.gemm_skinny))
    throw core::Error("residuals: X must be k x p and R m x p, p <= gemm_skinny");
  std::vector<double> rr(p, 0.0);
  if (m == 0 || p == 0) return rr;
  if constexpr (std::is_same_v<Real, double>) {
    if (host_blas_) {
      const auto bm = b.map(q, core::MapMode::read, 0, m);
      const auto rm = r.map(q, core::MapMode::write);
      const auto am = a.map(q, core::MapMode::read);
      const auto columns = f.map(q, core::MapMode::read, 0, k);
      const auto xm = x.map(q, core::MapMode::read);
      // X scattered over all of A's columns, so that one DGEMM reads A once for the p points.
      host_work_.assign(a.cols * p, 0.0);
      for (std::size_t j = 0; j < p; ++j) {
        std::copy(bm.data(), bm.data() + m, rm.data() + j * r.ld);
        for (std::size_t i = 0; i < k; ++i)
          host_work_[j * a.cols + static_cast<std::size_t>(columns.data()[i])] = xm.data()[i + j * x.ld];
      }
      if (k > 0) host_gemm(false, m, p, a.cols, -1.0, am.data(), a.ld, host_work_.data(), a.cols, 1.0, rm.data(), r.ld);
      for (std::size_t j = 0; j < p; ++j)
        for (std::size_t i = 0; i < m; ++i) rr[j] += rm.data()[i + j * r.ld] * rm.data()[i + j * r.ld];
      return rr;
    }
  }
  Vector out = r.buffer;
  for (std::size_t j = 0; j < p; ++j) out.enqueue_copy_from(q, b, 0, r.offset + j * r.ld, m);
  if (k > 0) skinny_nn(q, Real(-1), a, f, x, Real(1), r);
  const std::size_t wg = static_cast<std::size_t>(tuning_.reduce_work_group);
  column_norms_.args(to_int(m, "residuals m"), r.buffer, cl_ulong{r.offset}, static_cast<int>(r.ld), scalar_);
  column_norms_.enqueue(q, NDRange(p * wg), NDRange(wg));
  std::vector<Real> values(p);
  scalar_.read(q, std::span<Real>(values), 0);
  std::copy(values.begin(), values.end(), rr.begin());
  return rr;
}

template <class Real>
void DeviceDense<Real>::dot(const core::Queue& q, std::size_t n, const Vector& x, const Vector& y,
                            const Vector& scalars, std::size_t index) {
  check_length(x, n, "dot x");
  check_length(y, n, "dot y");
  check_length(scalars, index + 1, "dot scalars");
  const std::size_t wg = static_cast<std::size_t>(tuning_.reduce_work_group);
  const std::size_t groups = std::clamp<std::size_t>(blocks(n, wg), 1, static_cast<std::size_t>(tuning_.reduce_groups));
  dot_partial_.args(to_int(n, "dot n"), x, y, partial_);
  dot_partial_.enqueue(q, NDRange(groups * wg), NDRange(wg));
  sum_partials_.args(static_cast<int>(groups), partial_, scalars, to_int(index, "dot index"));
  sum_partials_.enqueue(q, NDRange(wg), NDRange(wg));
}

template <class Real>
void DeviceDense<Real>::axpy(const core::Queue& q, std::size_t n, Real alpha, const Vector& x, const Vector& y) {
  check_length(x, n, "axpy x");
  check_length(y, n, "axpy y");
  if (n == 0) return;
  axpy_.args(to_int(n, "axpy n"), alpha, x, y);
  const std::size_t wg = static_cast<std::size_t>(tuning_.reduce_work_group);
  axpy_.enqueue(q, NDRange(round_up(n, wg)), NDRange(wg));
}

template <class Real>
void DeviceDense<Real>::axpy_ratio(const core::Queue& q, std::size_t n, const Vector& scalars, std::size_t num,
                                   std::size_t den, Real sign, const Vector& x, const Vector& y) {
  check_length(x, n, "axpy_ratio x");
  check_length(y, n, "axpy_ratio y");
  check_length(scalars, std::max(num, den) + 1, "axpy_ratio scalars");
  if (n == 0) return;
  axpy_ratio_.args(to_int(n, "axpy_ratio n"), scalars, static_cast<int>(num), static_cast<int>(den), sign, x, y);
  const std::size_t wg = static_cast<std::size_t>(tuning_.reduce_work_group);
  axpy_ratio_.enqueue(q, NDRange(round_up(n, wg)), NDRange(wg));
}

template <class Real>
void DeviceDense<Real>::xpby_ratio(const core::Queue& q, std::size_t n, const Vector& scalars, std::size_t num,
                                   std::size_t den, const Vector& x, const Vector& y) {
  check_length(x, n, "xpby_ratio x");
  check_length(y, n, "xpby_ratio y");
  check_length(scalars, std::max(num, den) + 1, "xpby_ratio scalars");
  if (n == 0) return;
  xpby_ratio_.args(to_int(n, "xpby_ratio n"), scalars, static_cast<int>(num), static_cast<int>(den), x, y);
  const std::size_t wg = static_cast<std::size_t>(tuning_.reduce_work_group);
  xpby_ratio_.enqueue(q, NDRange(round_up(n, wg)), NDRange(wg));
}

template class DeviceDense<float>;
template class DeviceDense<double>;

}  // namespace hetflow::nnls
