#pragma once
#include <cstddef>
#include <memory>

#include "hetflow/core/buffer.hpp"
#include "hetflow/core/context.hpp"
#include "hetflow/core/kernel.hpp"
#include "hetflow/fem/amg_hierarchy.hpp"
#include "hetflow/fem/cg.hpp"
#include "hetflow/fem/device_amg.hpp"
#include "hetflow/fem/device_csr.hpp"
#include "hetflow/fem/node_halo.hpp"

namespace hetflow::fem {

// Preconditioned conjugate gradient on one device, for one matrix (docs/fem.md, "Pressure solver").
// With Jacobi every iteration is three kernels enqueued back to back on the caller's in-order queue: the
// SpMV q = A p with each work-group's partial sum of p.q; the step, whose every work-group adds those
// partials to alpha and updates x, r and z = r / diag with the partial sums of r.z and r.r; and the
// direction, whose every work-group adds those to the stopping test and beta, and sets p = z + beta p.
// With AMG the step leaves z alone and the V-cycle (DeviceAmg) writes z = B r and the partial sums of r.z
// and r.r between the step and the direction: three kernels plus the cycle's.
// The stopping test runs on the device, which sets a state word and freezes x at the iterate that met
// it; the host reads that word and the residual every check_interval iterations without blocking and
// waits for the read one check later, so the device never waits for the host inside the loop.
// Split over parts (docs/fem.md, "Several devices"), each part's CG runs on its own rows, the matrix's
// first NodeHalo::owned(), with the vectors' halo entries after them: the partial sums of every
// reduction travel to every part, where the kernels add all of them in part order (so all parts take the
// same steps), p's halo travels while the product works on the rows that read none, and the host takes
// part in every iteration.
template <class Real>
class DeviceCg {
 public:
  // Throws core::Error for an inconsistent matrix or a diagonal entry that is missing or not positive.
  // With options.preconditioner = amg the V-cycle is `amg`'s, a hierarchy of n unknowns (one of A
  // itself when none is given): a caller that reassembles A on the device passes a hierarchy of a
  // matrix spectrally equivalent to every A it assembles. With `halo` (FP64 only; collective) A holds
  // the part's local rows and an AMG hierarchy, then required, is the whole mesh's (amg_part_level).
  DeviceCg(const core::Queue& queue, const CsrMatrix& a, const SpmvShape& shape, const CgOptions& options,
           const AmgHierarchy* amg = nullptr, NodeHalo* halo = nullptr);

  // Solves A x = b from x = 0; x and b hold n entries (collective with a halo, which leaves x's halo
  // entries as they were). Returns how the solve stopped (require_converged
  // turns a failure into CgError).
  CgResult solve(const core::Queue& queue, const core::Buffer<Real>& b, core::Buffer<Real>& x);

  const DeviceCsr<Real>& matrix() const { return a_; }
  // The matrix values and the Jacobi preconditioner 1/A(i, i), for a caller that reassembles the matrix
  // on the device on its fixed pattern: it writes both before the next solve, with no host round trip
  // (the AMG solve's start reads 1/A(i, i) too, and then replaces what it gave).
  core::Buffer<Real>& values() { return a_.values; }
  core::Buffer<Real>& preconditioner() { return inv_diag_; }

 private:
  // Enqueues one iteration. A part first learns whether any part's solve has stopped: it then enqueues
  // nothing more and returns false.
  bool enqueue_iteration(const core::Queue& queue);
  // q = A p with the partial sums of p.q; a part exchanges p's halo meanwhile.
  void enqueue_product(const core::Queue& queue);
  // The product over `count` rows from `first`, its partial sums in slot `slot`, after `wait` if set.
  void launch_rows(const core::Queue& queue, std::size_t first, std::size_t count, int slot, const core::Event& wait);
  // The product's launches per iteration, each with its own partial sums: three for a part.
  int product_slots() const { return halo_ ? 3 : 1; }
  // z = B r by the V-cycle, with the partial sums of r.z and r.r.
  void enqueue_amg(const core::Queue& queue);
  // Waits for the solve's end and reads how it went.
  CgResult finished(const core::Queue& queue);
  // With a halo: every part's first `values` entries of `local`, in part order, into `all`; returns
  // whether any part's `state` word (read before `local` on the queue; none: running) had stopped.
  bool relay(const core::Queue& queue, const core::Buffer<Real>& local, std::size_t values, core::Buffer<Real>& all,
             const cl_int* state = nullptr);

  CgOptions options_;
  DeviceCsr<Real> a_;
  std::size_t reduce_wg_;
  core::NDRange reduce_global_, spmv_global_, spmv_local_;
  int groups_;
  int product_groups_;
  int rows_;  // the rows the solve updates: all of A's, or a part's own
  int start_pairs_ = 0, pairs_ = 0;  // the partial pairs that end the start's and the iteration's r.z, r.r
  NodeHalo* halo_;
  // With a halo: every part's partial sums of p.q, and of the pairs of r.z and r.r.
  core::Buffer<Real> pq_all_, pairs_all_;
  std::unique_ptr<core::PinnedBuffer<Real>> relay_out_, relay_in_;  // a relay's host staging
  // pq_partial_: the product's partial sums of p.q; partial_: pairs of partial sums of r.z and r.r.
  core::Buffer<Real> inv_diag_, r_, z_, p_, q_, pq_partial_, partial_, scalars_;
  core::Buffer<cl_int> state_;
  core::Kernel start_, start_sums_, product_, step_, direction_, first_direction_;
  std::unique_ptr<DeviceAmg<Real>> amg_;
  // Where the convergence checks land: two slots of the state word, so the read of one check arrives
  // while the previous one is inspected.
  core::PinnedBuffer<cl_int> check_;
};

}  // namespace hetflow::fem
