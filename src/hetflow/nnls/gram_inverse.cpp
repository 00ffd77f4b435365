#include "hetflow/nnls/gram_inverse.hpp"

#include <algorithm>
#include <numeric>
#include <span>

namespace hetflow::nnls {

template <class Real>
GramInverse<Real>::GramInverse(DeviceDense<Real>& dense, const core::Queue& queue, std::size_t n)
    : dense_(dense),
      queue_(queue),
      n_(std::max<std::size_t>(n, 1)),
      block_(static_cast<std::size_t>(dense.tuning().cholesky_block)) {
  rows_ = 2 * n_ + block_;
  const core::Context& c = queue.context();
  for (core::Buffer<Real>& w : w_) w = core::Buffer<Real>(c, rows_ * n_);
  x_ = core::Buffer<Real>(c, n_ * block_);
  v_ = core::Buffer<Real>(c, 2 * rows_ * block_);  // V, or the removed columns and Q
  sigma_ = core::Buffer<Real>(c, 2 * block_ * block_);
  p_ = core::Buffer<Real>(c, block_ * n_);
  order_device_ = core::Buffer<cl_int>(c, n_);
  picked_ = core::Buffer<cl_int>(c, n_);
  kept_ = core::Buffer<cl_int>(c, n_);
  all_ = core::Buffer<cl_int>(c, rows_);
  std::vector<cl_int> all(rows_);
  std::iota(all.begin(), all.end(), 0);
  all_.write(queue_, std::span<const cl_int>(all));
}

template <class Real>
std::size_t GramInverse<Real>::spare() const {
  for (std::size_t b = 0; b < w_.size(); ++b)
    if (b != current_ && !(has_saved_ && b == saved_.buffer)) return b;
  return current_;  // unreachable: three buffers, at most two in use
}

template <class Real>
void GramInverse<Real>::upload(core::Buffer<cl_int>& to, std::vector<cl_int> values, std::size_t offset) {
  staged_.push_back(std::move(values));
  to.write(queue_, std::span<const cl_int>(staged_.back()), offset, core::Blocking::no);
}

template <class Real>
bool GramInverse<Real>::assign(const Matrix& aa, const std::vector<int>& free, double shift, bool rebuild,
                               bool& rebuilt) {
  staged_.clear();  // the last assign ended by waiting for the queue
  std::vector<char> wanted(aa.cols, 0), present(aa.cols, 0);
  for (const int j : free) wanted[static_cast<std::size_t>(j)] = 1;
  for (const int j : order_) present[static_cast<std::size_t>(j)] = 1;
  std::vector<int> gone, added;
  for (const int j : order_)
    if (!wanted[static_cast<std::size_t>(j)]) gone.push_back(j);
  for (const int j : free)
    if (!present[static_cast<std::size_t>(j)]) added.push_back(j);
  const std::size_t k = order_.size(), after = free.size();
  rebuilt = rebuild || shift != shift_ || 3 * gone.size() > k || c_ + added.size() > 2 * after + block_;
  if (gone.empty() && added.empty() && !rebuilt) return true;
  dense_.clear_failure(queue_);
  if (rebuilt) {
    current_ = spare();
    c_ = 0;
    order_.clear();
    shift_ = shift;
    append(aa, free, shift);
  } else {
    remove(gone);
    append(aa, added, shift);
  }
  return !dense_.failed(queue_);
}

template <class Real>
void GramInverse<Real>::remove(const std::vector<int>& gone) {
  for (std::size_t first = 0; first < gone.size(); first += block_) {
    const std::size_t d = std::min(block_, gone.size() - first), k = order_.size();
    std::vector<char> leaving(n_, 0);
    for (std::size_t i = first; i < first + d; ++i) leaving[static_cast<std::size_t>(gone[i])] = 1;
    std::vector<cl_int> positions, kept;
    std::vector<int> order;
    for (std::size_t i = 0; i < k; ++i) {
      const bool out = leaving[static_cast<std::size_t>(order_[i])];
      (out ? positions : kept).push_back(static_cast<cl_int>(i));
      if (!out) order.push_back(order_[i]);
    }
    upload(picked_, std::move(positions));
    upload(kept_, std::move(kept));
    // Q = Wt_D R^-1 with R^T R = Wt_D^T Wt_D: an orthonormal basis of the span of W's rows D.
    const Matrix removed{v_, c_, d, rows_, 0}, q{v_, c_, d, rows_, rows_ * block_};
    const Matrix g{sigma_, d, d, block_, 0}, r_inverse{sigma_, d, d, block_, block_ * block_};
    dense_.gather(queue_, wt(), all_, c_, picked_, d, removed);
    dense_.gemm_tn(queue_, Real(1), removed, removed, Real(0), g);
    dense_.factor_inverse(queue_, g, r_inverse, 0, false);
    dense_.gemm_nn(queue_, Real(1), removed, r_inverse, Real(0), q);
    // The kept columns go to a spare buffer (the checkpointed W stays as it was), then lose their
    // component along Q.
    const std::size_t target = spare();
    const Matrix next = w(target, k - d), p{p_, d, k - d, block_, 0};
    dense_.gather(queue_, wt(), all_, c_, kept_, k - d, next);
    dense_.gemm_tn(queue_, Real(1), q, next, Real(0), p);
    dense_.gemm_nn(queue_, Real(-1), q, p, Real(1), next);
    current_ = target;
    order_ = std::move(order);
  }
  if (!gone.empty()) upload(order_device_, std::vector<cl_int>(order_.begin(), order_.end()));
}

template <class Real>
void GramInverse<Real>::append(const Matrix& aa, const std::vector<int>& added, double shift) {
  for (std::size_t first = 0; first < added.size(); first += block_) {
    const std::size_t t = std::min(block_, added.size() - first), k = order_.size();
    std::vector<cl_int> chunk(added.begin() + static_cast<std::ptrdiff_t>(first),
                              added.begin() + static_cast<std::ptrdiff_t>(first + t));
    upload(picked_, chunk);
    const Matrix sigma{sigma_, t, t, block_, 0}, v{v_, c_, t, rows_, 0};
    dense_.gather(queue_, aa, picked_, t, picked_, t, sigma);
    if (shift > 0.0) dense_.add_diagonal(queue_, sigma, static_cast<Real>(shift));
    if (k > 0) {  // then c >= k > 0
      // V = Wt X with X = AA(F, S), and the Schur complement Sigma = AA(S, S) + shift I - V^T V.
      const Matrix x{x_, k, t, n_, 0};
      dense_.gather(queue_, aa, order_device_, k, picked_, t, x);
      dense_.gemm_nn(queue_, Real(1), wt(), x, Real(0), v);
      dense_.gemm_tn(queue_, Real(-1), v, v, Real(1), sigma);
    }
    // The new columns: zeros in the old rows, R^-T (R^T R = Sigma) in the new ones; then the new rows of
    // the old columns, -R^-T V^T Wt. Both lie outside the c x k block that a checkpoint may hold.
    const core::Buffer<Real>& buffer_w = w_[current_];
    dense_.factor_inverse(queue_, sigma, Matrix{buffer_w, c_ + t, t, rows_, k * rows_}, c_, true);
    if (k > 0) {
      const Matrix p{p_, t, k, block_, 0};
      dense_.gemm_tn(queue_, Real(1), v, wt(), Real(0), p);
      dense_.gemm_nn(queue_, Real(-1), Matrix{buffer_w, t, t, rows_, c_ + k * rows_}, p, Real(0),
                     Matrix{buffer_w, t, k, rows_, c_});
    }
    upload(order_device_, std::move(chunk), k);
    order_.insert(order_.end(), added.begin() + static_cast<std::ptrdiff_t>(first),
                  added.begin() + static_cast<std::ptrdiff_t>(first + t));
    c_ += t;
  }
}

template <class Real>
void GramInverse<Real>::checkpoint() {
  saved_ = {current_, c_, order_, shift_};
  has_saved_ = true;
}

template <class Real>
void GramInverse<Real>::rollback() {
  if (!has_saved_ || (current_ == saved_.buffer && order_ == saved_.order && c_ == saved_.c)) return;
  current_ = saved_.buffer;
  c_ = saved_.c;
  order_ = saved_.order;
  shift_ = saved_.shift;
  const std::vector<cl_int> order(order_.begin(), order_.end());
  order_device_.write(queue_, std::span<const cl_int>(order));
}

template class GramInverse<float>;
template class GramInverse<double>;

}  // namespace hetflow::nnls
