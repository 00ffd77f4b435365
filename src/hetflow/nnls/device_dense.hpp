#pragma once
#include <cstddef>
#include <optional>
#include <vector>

#include "hetflow/core/buffer.hpp"
#include "hetflow/core/context.hpp"
#include "hetflow/core/kernel.hpp"

namespace hetflow::nnls {

// A column-major matrix inside a device buffer: entry (i, j) at buffer[offset + i + j * ld], so a
// block of a larger matrix is a view of the same buffer (no OpenCL sub-buffers, whose origins must be
// aligned to the device's base address alignment).
template <class Real>
struct DeviceMatrixView {
  core::Buffer<Real> buffer;
  std::size_t rows = 0, cols = 0, ld = 0, offset = 0;

  // The whole buffer as a rows x cols matrix with ld = rows.
  static DeviceMatrixView whole(const core::Buffer<Real>& buffer, std::size_t rows, std::size_t cols) {
    return {buffer, rows, cols, rows, 0};
  }
  // The r x c block whose (0, 0) is this view's (i, j).
  DeviceMatrixView block(std::size_t i, std::size_t j, std::size_t r, std::size_t c) const {
    return {buffer, r, c, ld, offset + i + j * ld};
  }
  // The elements the view covers, mapped on the host with its (0, 0) at data(); blocking, so the queue's
  // earlier commands are done.
  core::Mapping<Real> map(const core::Queue& q, core::MapMode mode) const {
    return buffer.map(q, mode, offset, rows == 0 || cols == 0 ? 0 : (cols - 1) * ld + rows);
  }
};

// An explicit inverse H = W_C P^T P W_C^T (GramInverse's, which DeviceDense::apply_inverse applies): W_C^T
// the k columns `columns` of Wt (c x kw), and P = I - Q Q^T with Q (c x p, orthonormal columns, p = 0 for
// none) the directions projected out of W's rows since Wt was last written. P is applied twice, not once
// as exact arithmetic allows, so that H is a Gram matrix, positive semidefinite however far rounding
// leaves Q from orthonormal, as the written-out W (P W_C^T) would be. `first` holds 0, 1, ... (at least p).
template <class Real>
struct InverseView {
  DeviceMatrixView<Real> wt;
  core::Buffer<cl_int> columns;
  std::size_t k = 0;
  DeviceMatrixView<Real> q;
  core::Buffer<cl_int> first;
};

// Sizes of the dense kernels, passed as build options (so the kernels' loops and local arrays are fixed
// at compile time) and chosen by a tuner per device; the defaults suit NVIDIA GPUs in FP64 (docs/nnls.md,
// "Benchmark") and run on PoCL. Local memory use: GEMM 8·tile_k·(tile_m + tile_n + 2) bytes, the Cholesky
// kernels 8·cholesky_block·(cholesky_block + 1 + max(trsm_columns, 2)) in FP64 (half in FP32); NVIDIA
// allows 48 KiB per work-group.
struct DenseTuning {
  int gemm_tile_m = 64, gemm_tile_n = 64;  // C tile per work-group of the GEMM
  int gemm_tile_k = 16;                    // contraction depth per local-memory pass
  int gemm_block_m = 4, gemm_block_n = 4;  // C register block per work-item
  // Products with at most this many columns (A B) or rows (A^T B) take GEMV-like kernels that stream the
  // large operand once instead of padding a tile.
  int gemm_skinny = 8;
  int cholesky_block = 64;                 // block size of the factorisation and of GramInverse's updates
  int cholesky_work_group = 256;           // work-items of the diagonal-block and block-row kernels
  int trsm_columns = 16;                   // block-row columns per work-group
  int gemv_rows = 128, gemv_slices = 1;    // A(:, F) p: rows per work-group, work-items per row
  int reduce_work_group = 256;             // dot products and A(:, F)^T r (a power of two)
  int reduce_groups = 512;                 // first-stage partial sums of a dot product
  int gather_work_group = 64;
  // On a CPU device in FP64, the Gram matrix, the GEMMs, the factorisations and the gathered GEMVs run
  // through the host's BLAS/LAPACK on the buffers mapped in place: that device is the host's own cores,
  // where an optimised BLAS does this work several times faster than the portable kernels (docs/nnls.md,
  // "TNT on CPU devices"). False keeps every operation in the kernels.
  bool cpu_blas = true;
};

// Throws core::Error (naming the field) when `tuning` cannot build or run on `device` with reals of
// `real_bytes` bytes: sizes that are not positive, tiles that are not multiples of their register
// blocks, work-groups or local memory beyond the device's.
void validate(const DenseTuning& tuning, const core::DeviceInfo& device, std::size_t real_bytes);

// The dense linear algebra that TNT runs on a device (Myre 2013, Sec. 5.4): Gram matrix and GEMMs,
// gathers by index lists, GEMVs with a column gather, blocked upper Cholesky, a block's factor with its
// inverse, the preconditioner's product and the vector steps of PCGNR. Real is float or double (the REAL build option).
// Built once per context; the operations enqueue on an in-order queue of that context without asking for events (on
// NVIDIA's OpenCL an event more than doubles the host's cost of a launch, and TNT's subproblems are chains of
// short kernels), reading nothing back except where a method says so. The kernels' arguments and the scratch buffers
// are shared state: one object serves one queue at a time.
template <class Real>
class DeviceDense {
 public:
  using Matrix = DeviceMatrixView<Real>;
  using Vector = core::Buffer<Real>;
  using Indices = core::Buffer<cl_int>;

  explicit DeviceDense(const core::Context& context, const DenseTuning& tuning = {});

  // C (n x n) = A^T A for A (m x n): the upper triangle is computed and mirrored to the lower.
  void gram(const core::Queue& q, const Matrix& a, const Matrix& c);
  // C = alpha A^T B + beta C (A: K x M, B: K x N, C: M x N); beta == 0 does not read C. For one
  // right-hand side gemv_t is the faster path (the GEMM's tiles would be one column wide).
  void gemm_tn(const core::Queue& q, Real alpha, const Matrix& a, const Matrix& b, Real beta, const Matrix& c);

  // C = alpha A B + beta C (A: M x K, B: K x N, C: M x N); beta == 0 does not read C.
  void gemm_nn(const core::Queue& q, Real alpha, const Matrix& a, const Matrix& b, Real beta, const Matrix& c);

  // BB (k x k) = C(F, F), F the first k entries of f.
  void gather(const core::Queue& q, const Matrix& c, const Indices& f, std::size_t k, const Matrix& bb) {
    gather(q, c, f, k, f, k, bb);
  }
  // BB (nr x nc) = C(R, S), R and S the first nr and nc entries of rows and cols.
  void gather(const core::Queue& q, const Matrix& c, const Indices& rows, std::size_t nr, const Indices& cols,
              std::size_t nc, const Matrix& bb);
  // C(i, i) += value for every i: TNT's shift after a failed factorisation.
  void add_diagonal(const core::Queue& q, const Matrix& c, Real value);

  // y (m) = alpha A(:, F) x + beta y, x of length k, without forming A(:, F); beta == 0 does not read y.
  void gemv_n(const core::Queue& q, Real alpha, const Matrix& a, const Indices& f, std::size_t k, const Vector& x,
              Real beta, const Vector& y);
  // y (k) = alpha A(:, F)^T x + beta y, x of length m.
  void gemv_t(const core::Queue& q, Real alpha, const Matrix& a, const Indices& f, std::size_t k, const Vector& x,
              Real beta, const Vector& y);

  // Factors the square matrix in place as R^T R (R upper, in the upper triangle, as LAPACK's dpotrf;
  // its strict lower triangle is read nowhere). In the kernels, the strict lower triangle of each
  // cholesky_block-sized diagonal block receives the strict lower part of R_jj^-T, which the block-row
  // solves multiply by (the rest of the strict lower triangle is left as it was). Returns the 0-based
  // column whose pivot was not positive or not finite (the matrix is then partly overwritten), or nothing
  // on success; waits for the factorisation, the one value it reads back.
  std::optional<std::size_t> cholesky(const core::Queue& q, const Matrix& a);

  // Factors the t x t block S (t <= cholesky_block) as R^T R in place and writes into `out` (above + t
  // rows, t columns) zeros in its first `above` rows, then R^-T (transposed) or R^-1. A pivot that is not
  // positive or not finite is recorded for failed() and makes every later factor_inverse a no-op, so a
  // chain of them is enqueued without waiting and checked once.
  void factor_inverse(const core::Queue& q, const Matrix& s, const Matrix& out, std::size_t above, bool transposed);
  // Forgets an earlier factor_inverse failure.
  void clear_failure(const core::Queue& q);
  // Reads into `into` whether a factor_inverse since clear_failure() failed (0: none did), without
  // waiting: the value is there once the queue has been waited for. `into` should be pinned memory
  // (core::PinnedBuffer), which a read fills while the device runs on.
  void read_failure(const core::Queue& q, cl_int& into);

  // w = H z for H = W_C P^T P W_C^T (InverseView): two gathered GEMVs over Wt and, with p > 0, four over Q;
  // scratch u holds c values, s p.
  void apply_inverse(const core::Queue& q, const InverseView<Real>& h, const Vector& z, const Vector& w,
                     const Vector& u, const Vector& s);

  // r = b - A(:, F) x (F the first k entries of f, x of length k), and returns r . r, read back.
  double residual(const core::Queue& q, const Matrix& a, const Indices& f, std::size_t k, const Vector& x,
                  const Vector& b, const Vector& r);
  // R(:, j) = b - A(:, F) X(:, j) for the p <= gemm_skinny columns of X (k x p), A read once; returns the
  // p values R(:, j) . R(:, j), read back together.
  std::vector<double> residuals(const core::Queue& q, const Matrix& a, const Indices& f, std::size_t k, const Matrix& x,
                                const Vector& b, const Matrix& r);

  // scalars[index] = x . y over n entries, left on the device (two-stage reduction).
  void dot(const core::Queue& q, std::size_t n, const Vector& x, const Vector& y, const Vector& scalars,
           std::size_t index);
  // y += alpha x.
  void axpy(const core::Queue& q, std::size_t n, Real alpha, const Vector& x, const Vector& y);
  // y += sign * (scalars[num] / scalars[den]) x, the ratio read on the device.
  void axpy_ratio(const core::Queue& q, std::size_t n, const Vector& scalars, std::size_t num, std::size_t den,
                  Real sign, const Vector& x, const Vector& y);
  // y = x + (scalars[num] / scalars[den]) y.
  void xpby_ratio(const core::Queue& q, std::size_t n, const Vector& scalars, std::size_t num, std::size_t den,
                  const Vector& x, const Vector& y);

  const DenseTuning& tuning() const { return tuning_; }
  // Whether gram, cholesky, the solves and the GEMVs take the host's BLAS/LAPACK (DenseTuning::cpu_blas).
  bool host_blas() const { return host_blas_; }

 private:
  // gemm_tn (a_transposed) or gemm_nn: checks, then the host's BLAS or launch_gemm.
  void gemm(const core::Queue& q, bool a_transposed, Real alpha, const Matrix& a, const Matrix& b, Real beta,
            const Matrix& c);
  void launch_gemm(const core::Queue& q, bool a_transposed, Real alpha, const Matrix& a, const Matrix& b, Real beta,
                   const Matrix& c, int triangle, const core::Buffer<cl_int>& stop);

  // The length of the chunks of a contraction of `depth` that a launch of `groups` work-groups per chunk
  // splits into so that about `per_unit` groups fall to each compute unit, each chunk at least `least`
  // long.
  std::size_t chunk_of(std::size_t depth, std::size_t groups, std::size_t least, std::size_t per_unit = 8) const;
  // part_, large enough for `chunks` results of `size` values when there are several.
  const core::Buffer<Real>& parts(const core::Queue& q, std::size_t chunks, std::size_t size);
  // C = alpha A(:, F) B + beta C for B of at most gemm_skinny columns (F: b.rows column indices).
  void skinny_nn(const core::Queue& q, Real alpha, const Matrix& a, const Indices& f, const Matrix& b, Real beta,
                 const Matrix& c);
  // 0, 1, ..., n - 1 (at least), on the device.
  const core::Buffer<cl_int>& identity(const core::Queue& q, std::size_t n);
  // C = alpha (the sum of part_'s chunks) + beta C.
  void sum_chunks(const core::Queue& q, std::size_t chunks, Real alpha, Real beta, const Matrix& c);

  DenseTuning tuning_;
  std::size_t compute_units_;
  bool host_blas_ = false;
  std::vector<double> host_work_, host_u_;  // the host route's scratch
  core::Kernel gemm_, gather_, inverse_factor_, add_diagonal_, sum_chunks_, column_norms_, skinny_nn_, skinny_tn_,
      gemv_t_, potrf_diag_, trsm_row_, dot_partial_, sum_partials_, axpy_, axpy_ratio_, xpby_ratio_;
  core::Buffer<cl_int> info_;     // the failed Cholesky column + 1, or 0
  core::Buffer<cl_int> no_stop_;  // a zero, the stop flag of GEMMs outside a factorisation
  core::Buffer<Real> partial_;    // first-stage sums of dot()
  core::Buffer<Real> scalar_;     // residuals()'s squared norms
  core::Buffer<Real> part_;       // partial results of the split GEMVs and GEMMs
  core::Buffer<cl_int> identity_;  // identity()
};

extern template class DeviceDense<float>;
extern template class DeviceDense<double>;

}  // namespace hetflow::nnls
