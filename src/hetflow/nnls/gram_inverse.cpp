#include "hetflow/nnls/gram_inverse.hpp"

#include <algorithm>
#include <numeric>
#include <span>

namespace hetflow::nnls {

template <class Real>
GramInverse<Real>::GramInverse(DeviceDense<Real>& dense, const core::Queue& queue, std::size_t n)
    : dense_(dense),
      queue_(queue),
      failure_(queue, 1),
      n_(std::max<std::size_t>(n, 1)),
      block_(static_cast<std::size_t>(dense.tuning().cholesky_block)) {
  rows_ = 2 * n_ + block_;
  const core::Context& c = queue.context();
  for (core::Buffer<Real>& w : w_) w = core::Buffer<Real>(c, rows_ * n_);
  x_ = core::Buffer<Real>(c, n_ * block_);
  v_ = core::Buffer<Real>(c, rows_ * block_);  // V, or the removed columns
  q_ = core::Buffer<Real>(c, rows_ * block_);
  sigma_ = core::Buffer<Real>(c, 2 * block_ * block_);
  p_ = core::Buffer<Real>(c, block_ * n_);
  order_device_ = core::Buffer<cl_int>(c, n_);
  columns_ = core::Buffer<cl_int>(c, n_);
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
  to.enqueue_write(queue_, std::span<const cl_int>(staged_.back()), offset);
}

template <class Real>
void GramInverse<Real>::positions(const std::vector<int>& variables, std::vector<cl_int>& in,
                                  std::vector<cl_int>& out) const {
  std::vector<char> marked(n_, 0);
  for (const int j : variables) marked[static_cast<std::size_t>(j)] = 1;
  for (std::size_t i = 0; i < held_.size(); ++i)
    (marked[static_cast<std::size_t>(held_[i])] ? in : out).push_back(static_cast<cl_int>(i));
}

template <class Real>
void GramInverse<Real>::assign(const Matrix& aa, const std::vector<int>& free, double shift, bool rebuild,
                               bool& rebuilt) {
  checked_ = false;
  std::vector<char> wanted(aa.cols, 0), present(aa.cols, 0);
  for (const int j : free) wanted[static_cast<std::size_t>(j)] = 1;
  for (const int j : order_) present[static_cast<std::size_t>(j)] = 1;
  std::vector<int> leaving = pending_, added;
  for (const int j : order_)
    if (!wanted[static_cast<std::size_t>(j)]) leaving.push_back(j);
  for (const int j : free)
    if (!present[static_cast<std::size_t>(j)]) added.push_back(j);
  const std::size_t held = held_.size(), after = free.size();
  // Every application of H reads Wt twice: letting c pass 5k/4 costs PCGNR more than the rebuild it avoids.
  rebuilt = rebuild || shift != shift_ || 3 * leaving.size() > held || 4 * (c_ + added.size()) > 5 * after + 4 * block_;
  if (leaving.size() == pending_.size() && added.empty() && !rebuilt) return;
  dense_.clear_failure(queue_);
  if (rebuilt) {
    current_ = spare();
    c_ = 0;
    held_.clear();
    pending_.clear();
    shift_ = shift;
    append(aa, free, shift);
  } else if (added.empty() && leaving.size() <= block_) {
    project(leaving);
  } else {
    remove(leaving);
    append(aa, added, shift);
  }
  publish();
  dense_.read_failure(queue_, failure_[0]);
  checked_ = true;
}

template <class Real>
bool GramInverse<Real>::factored() {
  queue_.finish();
  staged_.clear();
  return !checked_ || failure_[0] == 0;
}

template <class Real>
void GramInverse<Real>::remove(const std::vector<int>& gone) {
  for (std::size_t first = 0; first < gone.size(); first += block_) {
    const std::size_t d = std::min(block_, gone.size() - first);
    project(std::vector<int>(gone.begin() + static_cast<std::ptrdiff_t>(first),
                             gone.begin() + static_cast<std::ptrdiff_t>(first + d)));
    write_out();
  }
  publish();
}

template <class Real>
void GramInverse<Real>::project(const std::vector<int>& pending) {
  pending_ = pending;
  const std::size_t d = pending.size();
  if (d == 0) return;
  std::vector<cl_int> in, out;
  positions(pending, in, out);
  upload(picked_, std::move(in));
  // Q = Wt_D R^-1 with R^T R = Wt_D^T Wt_D: an orthonormal basis of the span of W's rows D.
  const Matrix removed{v_, c_, d, rows_, 0}, q{q_, c_, d, rows_, 0};
  const Matrix g{sigma_, d, d, block_, 0}, r_inverse{sigma_, d, d, block_, block_ * block_};
  dense_.gather(queue_, wt(), all_, c_, picked_, d, removed);
  dense_.gemm_tn(queue_, Real(1), removed, removed, Real(0), g);
  dense_.factor_inverse(queue_, g, r_inverse, 0, false);
  dense_.gemm_nn(queue_, Real(1), removed, r_inverse, Real(0), q);
}

template <class Real>
void GramInverse<Real>::write_out() {
  const std::size_t d = pending_.size(), k = held_.size();
  if (d == 0) return;
  std::vector<cl_int> in, out;
  positions(pending_, in, out);
  upload(kept_, std::move(out));
  // The kept columns go to a spare buffer (the checkpointed W stays as it was), then lose their
  // component along Q.
  const std::size_t target = spare();
  const Matrix next = w(target, k - d), p{p_, d, k - d, block_, 0}, q{q_, c_, d, rows_, 0};
  dense_.gather(queue_, wt(), all_, c_, kept_, k - d, next);
  dense_.gemm_tn(queue_, Real(1), q, next, Real(0), p);
  dense_.gemm_nn(queue_, Real(-1), q, p, Real(1), next);
  current_ = target;
  std::vector<char> leaving(n_, 0);
  for (const int j : pending_) leaving[static_cast<std::size_t>(j)] = 1;
  std::erase_if(held_, [&](int j) { return leaving[static_cast<std::size_t>(j)] != 0; });
  pending_.clear();
}

template <class Real>
void GramInverse<Real>::publish() {
  order_ = held_;
  if (pending_.empty()) {
    upload(order_device_, std::vector<cl_int>(order_.begin(), order_.end()));
    return;
  }
  std::vector<cl_int> in, out;
  positions(pending_, in, out);
  std::vector<char> leaving(n_, 0);
  for (const int j : pending_) leaving[static_cast<std::size_t>(j)] = 1;
  std::erase_if(order_, [&](int j) { return leaving[static_cast<std::size_t>(j)] != 0; });
  upload(order_device_, std::vector<cl_int>(order_.begin(), order_.end()));
  upload(columns_, std::move(out));
}

template <class Real>
InverseView<Real> GramInverse<Real>::view() const {
  return {wt(), pending_.empty() ? all_ : columns_, order_.size(), Matrix{q_, c_, pending_.size(), rows_, 0}, all_};
}

template <class Real>
void GramInverse<Real>::append(const Matrix& aa, const std::vector<int>& added, double shift) {
  for (std::size_t first = 0; first < added.size(); first += block_) {
    const std::size_t t = std::min(block_, added.size() - first), k = held_.size();
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
    held_.insert(held_.end(), added.begin() + static_cast<std::ptrdiff_t>(first),
                 added.begin() + static_cast<std::ptrdiff_t>(first + t));
    c_ += t;
  }
}

template <class Real>
void GramInverse<Real>::checkpoint() {
  write_out();  // order() stays as it is
  saved_ = {current_, c_, held_, shift_};
  has_saved_ = true;
}

template <class Real>
void GramInverse<Real>::rollback() {
  if (!has_saved_ || (current_ == saved_.buffer && held_ == saved_.held && c_ == saved_.c && pending_.empty())) return;
  current_ = saved_.buffer;
  c_ = saved_.c;
  held_ = saved_.held;
  pending_.clear();
  order_ = held_;
  shift_ = saved_.shift;
  const std::vector<cl_int> order(order_.begin(), order_.end());
  order_device_.write(queue_, std::span<const cl_int>(order));
}

template class GramInverse<float>;
template class GramInverse<double>;

}  // namespace hetflow::nnls
