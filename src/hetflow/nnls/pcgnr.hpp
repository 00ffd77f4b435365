#pragma once
#include <cstddef>
#include <span>

#include "hetflow/core/buffer.hpp"
#include "hetflow/core/context.hpp"
#include "hetflow/nnls/device_dense.hpp"

namespace hetflow::nnls {

// CGNR left-preconditioned with the inverse that GramInverse keeps (Saad, Iterative Methods, 2nd ed., Alg. 9.7), TNT's
// inner solver: min ||B y - b||^2 + lambda ||y||^2 over y, B = A(:, F) gathered on the fly, from y = 0. With lambda > 0
// the operator is B stacked on sqrt(lambda) I (Tikhonov), carried as the k-entry tail of the residual r and of q = B p.
// The dot products stay on the device; the host reads their values once for the start and the first two iterations
// (PCGNR runs at least two), then once per iteration, to stop (on a device that is the host's cores,
// DenseTuning::cpu_blas, all of it runs on the host): ||B^T r|| <= tolerance ||B^T b|| (the thesis sets
// none), or a rise of ||B^T r|| below sqrt(eps) ||B^T b|| (past the attainable accuracy, see pcgnr.cpp), or a
// breakdown.
template <class Real>
class Pcgnr {
 public:
  // Buffers for problems of up to m rows and n columns.
  Pcgnr(DeviceDense<Real>& dense, const core::Queue& queue, std::size_t m, std::size_t n);

  // Solves with the preconditioner H ~ (B^T B + lambda I)^-1 (GramInverse's view), B = A(:, F) for the h.k
  // entries of f in H's order. Returns the iterations run; the answer is in y(). A breakdown (a search
  // direction with B p = 0, or a non-finite scalar, which a singular B can cause) or a rise past the
  // attainable accuracy keeps the previous iterate and stops.
  int solve(const DeviceMatrixView<Real>& a, const core::Buffer<cl_int>& f, const InverseView<Real>& h,
            const core::Buffer<Real>& b, double lambda, int max_iterations, double tolerance);

  const core::Buffer<Real>& y() const { return y_; }
  // The answer on the host: its k entries, read with the scalars (only a first iterate kept after a
  // breakdown needs a read of its own).
  std::span<const Real> answer() const { return answer_; }

 private:
  DeviceDense<Real>& dense_;
  core::Queue queue_;
  std::size_t m_;
  // r and q hold m + n entries (the Tikhonov tail); the others n.
  core::Buffer<Real> r_, q_, y_, y_prev_, z_, w_, p_, tail_, u_, s_;  // u, s: apply_inverse's scratch
  core::Buffer<Real> scalars_;  // q.q, z.z and z.w of three consecutive iterations (see pcgnr.cpp)
  core::PinnedBuffer<Real> iterates_;  // two iterates on the host: iterate t in half t % 2
  std::span<const Real> answer_;
};

extern template class Pcgnr<float>;
extern template class Pcgnr<double>;

}  // namespace hetflow::nnls
