#pragma once
#include <array>
#include <cstddef>
#include <vector>

#include "hetflow/core/buffer.hpp"
#include "hetflow/nnls/device_dense.hpp"

namespace hetflow::nnls {

// TNT's preconditioner: the inverse of the reduced normal matrix, H = (AA(F, F) + shift I)^-1, as
// W W^T, kept on the device as Wt = W^T (c x kw: a column per variable it holds, c >= kw rows) and
// carried from one free set F to the next instead of factoring AA(F, F) anew:
//
// - inserting t variables S borders H: with X = AA(F, S), V = Wt X and the Schur complement
//   Sigma = AA(S, S) + shift I - V^T V = R^T R, Wt gains t rows and t columns, [Wt 0; -R^-T V^T Wt  R^-T];
// - removing d variables D projects W's remaining rows onto the complement of the span of its rows D:
//   with Wt_D the columns D, Q = Wt_D R^-1 (Wt_D^T Wt_D = R^T R) and P = I - Q Q^T, W_K P W_K^T (K = F \ D)
//   is exactly (AA(K, K) + shift I)^-1 (the inverse of a Schur complement).
//
// A removal stays pending: Wt keeps the columns D and PCGNR applies the projection with Q (InverseView),
// so the deletion loops of TNT's LSQ, which remove a variable or a few at a time, cost O(c d^2) each.
// Wt(:, K) -= Q (Q^T Wt(:, K)) is written out (O(c k d)) only at a checkpoint, before an insertion, or
// when more than a block of variables would be pending. An insertion costs a few GEMMs of O(c k t) flops
// in blocks of at most cholesky_block variables, where a new factorisation costs O(k^3) flops in
// k / cholesky_block dependent block steps. A rebuild (appending all of F to an empty W, a block at a time)
// takes place when asked, when the shift changes, when more than a third of the held variables leave, or
// when c would exceed 5k/4 (plus a block). The set last checkpointed (TNT's best point) can be returned
// to without any work: no update writes inside the checkpointed block of Wt.
template <class Real>
class GramInverse {
 public:
  using Matrix = DeviceMatrixView<Real>;

  // For free sets drawn from the n columns of AA.
  GramInverse(DeviceDense<Real>& dense, const core::Queue& queue, std::size_t n);

  // Makes H the inverse of AA(F, F) + shift I for F = `free` (any order, no repeats): updated from
  // the current set, or rebuilt when `rebuild` is set or updating would not pay. `rebuilt` tells which
  // way it went. Enqueued without waiting, so that PCGNR's commands follow at once; factored() tells
  // whether it worked.
  void assign(const Matrix& aa, const std::vector<int>& free, double shift, bool rebuild, bool& rebuilt);
  // Whether every pivot of the last assign() was positive; waits for the queue (usually idle by then).
  // If not (rounding on nearly dependent columns), W is undefined: the caller raises the shift and
  // assigns again, rebuilding.
  bool factored();

  // Remembers the current set (and W) for rollback(); writes out a pending removal.
  void checkpoint();
  // Returns to the set of the last checkpoint().
  void rollback();

  // F in H's order, on the host and on the device (k entries).
  const std::vector<int>& order() const { return order_; }
  const core::Buffer<cl_int>& order_buffer() const { return order_device_; }
  // H for PCGNR: Wt with the columns of order() and the pending projection.
  InverseView<Real> view() const;

 private:
  struct State {
    std::size_t buffer = 0, c = 0;
    std::vector<int> held;
    double shift = 0.0;
  };
  // Removes the variables `gone` (all held), a block at a time, writing each out.
  void remove(const std::vector<int>& gone);
  // Makes the held variables `pending` (at most a block) the pending removal: Q for their columns.
  void project(const std::vector<int>& pending);
  // Writes the pending removal into a spare buffer, which becomes Wt.
  void write_out();
  // Appends the variables `added` (none held), in blocks.
  void append(const Matrix& aa, const std::vector<int>& added, double shift);
  // order() and its device copies from the held and the pending variables.
  void publish();
  // A buffer that holds neither the current nor the checkpointed W.
  std::size_t spare() const;
  // Wt: c x (held variables).
  Matrix wt() const { return {w_[current_], c_, held_.size(), rows_, 0}; }
  Matrix w(std::size_t buffer, std::size_t cols) const { return {w_[buffer], c_, cols, rows_, 0}; }
  // Positions in held_ of `variables`, and of the held variables not among them.
  void positions(const std::vector<int>& variables, std::vector<cl_int>& in, std::vector<cl_int>& out) const;
  // Writes `values` to `to` without waiting; they are kept until the queue has been waited for.
  void upload(core::Buffer<cl_int>& to, std::vector<cl_int> values, std::size_t offset = 0);

  DeviceDense<Real>& dense_;
  core::Queue queue_;
  core::PinnedBuffer<cl_int> failure_;  // the last assign's failure flag, read without waiting
  bool checked_ = false;                // the last assign factored something, so failure_ tells
  std::size_t n_, rows_, block_;  // rows_: Wt's leading dimension (2n + block), block_: cholesky_block
  std::array<core::Buffer<Real>, 3> w_;
  core::Buffer<Real> x_, v_, q_, sigma_, p_;
  // order(); positions of order() in Wt's columns; 0, 1, ...; a block's columns; the rest
  core::Buffer<cl_int> order_device_, columns_, all_, picked_, kept_;
  std::vector<std::vector<cl_int>> staged_;  // index lists in flight
  std::size_t current_ = 0, c_ = 0;
  std::vector<int> held_, pending_, order_;  // Wt's columns; those removed but not written out; held \ pending
  double shift_ = -1.0;                      // no W yet
  State saved_;
  bool has_saved_ = false;
};

extern template class GramInverse<float>;
extern template class GramInverse<double>;

}  // namespace hetflow::nnls
