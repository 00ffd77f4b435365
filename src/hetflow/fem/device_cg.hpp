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

// Preconditioned conjugate gradient on one device, for one matrix (docs/fem.md, "Pressure solver"), in the
// single-reduction form of Chronopoulos & Gear (1989): the two inner products of an iteration, r.u and w.u
// with u = B r and w = A u, come from the same vectors, so an iteration has one reduction. With Jacobi
// every iteration is two kernels enqueued back to back on the caller's in-order queue: the update, whose
// every work-group adds the last product's partial sums to the stopping test, beta and alpha and updates
// p, s, x, r and u = r / diag; and the SpMV w = A u with each work-group's partial sums of r.u, w.u and
// r.r. With AMG the update leaves u to the V-cycle (DeviceAmg), which runs between the two.
// The stopping test runs on the device, which sets a state word and freezes x at the iterate that met
// it; the host reads that word and the residual every check_interval iterations without blocking and
// waits for the read one check later, so the device never waits for the host inside the loop.
// Split over parts (docs/fem.md, "Several devices"), each part's CG runs on its own rows, the matrix's
// first NodeHalo::owned(), with the vectors' halo entries after them: each part adds its product's partial
// sums into one triple, which travels to every part, where the update adds them in part order (so all
// parts take the same steps); u's halo travels while the product works on the rows that read none, and
// the host takes part in every iteration.
template <class Real>
class DeviceCg {
 public:
  // Throws core::Error for an inconsistent matrix or a diagonal entry that is missing or not positive.
  // With options.preconditioner = amg the V-cycle is `amg`'s, a hierarchy of n unknowns (one of A
  // itself when none is given): a caller that reassembles A on the device passes a hierarchy of a
  // matrix spectrally equivalent to every A it assembles. With `halo` (FP64 only; collective) A holds
  // the part's local rows and an AMG hierarchy, then required, is the whole mesh's (DeviceAmg). A and the
  // finest level of the V-cycle are sliced in slices of 2^slice_bits rows (DeviceCsr).
  DeviceCg(const core::Queue& queue, const CsrMatrix& a, const SpmvShape& shape, const CgOptions& options,
           const AmgHierarchy* amg = nullptr, NodeHalo* halo = nullptr, int slice_bits = 0);

  // Solves A x = b from x = 0; x and b hold n entries (collective with a halo, which leaves x's halo
  // entries as they were). Returns how the solve stopped (require_converged
  // turns a failure into CgError).
  CgResult solve(const core::Queue& queue, const core::Buffer<Real>& b, core::Buffer<Real>& x);

  const DeviceCsr<Real>& matrix() const { return a_; }
  // The matrix values and the Jacobi preconditioner 1/A(i, i), for a caller that reassembles the matrix
  // on the device on its fixed pattern: it writes both before the next solve, with no host round trip
  // (an AMG solve reads no 1/A(i, i)).
  core::Buffer<Real>& values() { return a_.values; }
  core::Buffer<Real>& preconditioner() { return inv_diag_; }

 private:
  // Enqueues one iteration: the update, then the product. Returns false once a part's solve has stopped
  // (which a part learns with the product's sums; one device: true).
  bool enqueue_iteration(const core::Queue& queue);
  // u = B r with AMG (nothing with Jacobi), then w = A u with the partial sums of r.u, w.u and r.r; a part
  // exchanges the halo the product reads meanwhile and relays the sums, and returns false once any part's
  // solve had stopped before.
  bool enqueue_product(const core::Queue& queue);
  // The product over `count` rows from `first`, its partial sums in slot `slot`, after `wait` if set.
  void launch_rows(const core::Queue& queue, std::size_t first, std::size_t count, int slot, const core::Event& wait);
  // The product's launches per iteration, each with its own partial sums: three for a part.
  int product_slots() const { return halo_ ? 3 : 1; }
  // The partial sums of one product: a triple per work-group of each launch.
  std::size_t partial_count() const { return 3 * static_cast<std::size_t>(product_slots() * product_groups_); }
  // Waits for the solve's end and reads how it went.
  CgResult finished(const core::Queue& queue);
  // With a halo: every part's sums, in part order, into partial_all_; returns whether any part's solve had
  // stopped before its product.
  bool relay(const core::Queue& queue);

  CgOptions options_;
  DeviceCsr<Real> a_;
  std::size_t reduce_wg_;
  core::NDRange reduce_global_, spmv_global_, spmv_local_;
  int product_groups_;
  int rows_;  // the rows the solve updates: all of A's, or a part's own
  NodeHalo* halo_;
  // The solve's sums and scalars are FP64 for FP32 vectors too (fem/sparse.cl says why).
  core::Buffer<double> part_sum_, partial_all_;  // with a halo: this part's sums, and every part's
  std::unique_ptr<core::PinnedBuffer<double>> relay_out_, relay_in_;  // a relay's host staging
  // u_: the preconditioned residual B r; s_: the search direction's product A p, kept by recurrence.
  core::Buffer<Real> inv_diag_, r_, u_, w_, p_, s_;
  core::Buffer<double> partial_, scalars_;
  core::Buffer<cl_int> state_;  // the state word, the iteration count, and the count the update reads
  core::Kernel start_, product_, update_, part_sums_;
  std::unique_ptr<DeviceAmg<Real>> amg_;
  // Where the convergence checks land: two slots of the state word, so the read of one check arrives
  // while the previous one is inspected.
  core::PinnedBuffer<cl_int> check_;
};

}  // namespace hetflow::fem
