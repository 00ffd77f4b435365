#pragma once
#include <cstddef>
#include <vector>

#include "hetflow/core/buffer.hpp"
#include "hetflow/core/context.hpp"
#include "hetflow/core/kernel.hpp"
#include "hetflow/fem/amg_hierarchy.hpp"
#include "hetflow/fem/device_csr.hpp"

namespace hetflow::fem {

// The V-cycle of an AmgHierarchy on one device (fem/fem_amg.cl): z = B b in four SpMV-shaped kernels
// per level and one dense product on the coarsest, enqueued on the caller's in-order queue with no host
// synchronisation. The cycle's last kernel also writes the work-group partial sums of b.z and b.b, so
// that a CG needs no kernel of its own for them. The kernels read a CG state word (fem/sparse.cl) and do nothing once it leaves
// "running" (0); a caller outside a CG passes a word that holds 0.
template <class Real>
class DeviceAmg {
 public:
  DeviceAmg(const core::Queue& queue, const AmgHierarchy& hierarchy, const SpmvShape& shape,
            const core::Buffer<cl_int>& state);

  // Enqueues z = B b and the partial sums: partial[2g] and partial[2g + 1] for g < partial_pairs()
  // add up to b.z and b.b. b and z hold the finest level's n entries and are distinct.
  void enqueue(const core::Queue& queue, const core::Buffer<Real>& b, core::Buffer<Real>& z,
               core::Buffer<Real>& partial);
  std::size_t size() const { return levels_.front().n; }
  int partial_pairs() const { return partial_pairs_; }

 private:
  // A level's sparse operator on the device: rows, offsets, columns, values.
  struct Rows {
    cl_int n = 0;
    core::Buffer<cl_int> row_start, col;
    core::Buffer<Real> values;
  };
  struct Level {
    cl_int n = 0;
    Rows a, p, r;
    core::Buffer<Real> smoother, b, x, t;
    core::Kernel residual_first, restrict_, correct_first, jacobi;
  };
  static Rows upload(const core::Queue& queue, const SparseRows& m);

  std::vector<Level> levels_;
  core::Buffer<Real> coarse_inverse_;
  core::Kernel coarse_solve_;
  core::NDRange spmv_global_, spmv_local_, coarse_range_;
  int partial_pairs_ = 1;
};

}  // namespace hetflow::fem
