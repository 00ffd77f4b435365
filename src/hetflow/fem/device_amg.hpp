#pragma once
#include <cstddef>
#include <memory>
#include <vector>

#include "hetflow/core/buffer.hpp"
#include "hetflow/core/context.hpp"
#include "hetflow/core/kernel.hpp"
#include "hetflow/fem/amg_hierarchy.hpp"
#include "hetflow/fem/device_csr.hpp"
#include "hetflow/fem/node_halo.hpp"

namespace hetflow::fem {

// The V-cycle of an AmgHierarchy on one device (fem/fem_amg.cl): z = B b in four SpMV-shaped kernels
// per level and one dense product on the coarsest, enqueued on the caller's in-order queue with no host
// synchronisation. The kernels read a CG state word (fem/sparse.cl) and do nothing once it leaves
// "running" (0); a caller outside a CG passes a word that holds 0.
template <class Real>
class DeviceAmg {
 public:
  // With `halo` (FP64) the cycle is one part's of a split run (docs/fem.md, "Several devices"): its finest
  // level is `finest` (amg_part_level), the coarser ones the hierarchy's, on every part. The parts add up
  // their restrictions to the first coarse level and exchange the finest level's pre-smoothed iterate;
  // the caller exchanges the halo of b before each cycle. Collective then.
  DeviceAmg(const core::Queue& queue, const AmgHierarchy& hierarchy, const SpmvShape& shape,
            const core::Buffer<cl_int>& state, const AmgLevel* finest = nullptr, NodeHalo* halo = nullptr);

  // Enqueues z = B b; b and z hold the finest level's n entries and are distinct.
  void enqueue(const core::Queue& queue, const core::Buffer<Real>& b, core::Buffer<Real>& z);
  std::size_t size() const { return levels_.front().n; }

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
  // The range of first-coarse-level unknowns that a part's restriction reaches, [begin, begin + count),
  // its slot in the scratch and, for another part's, in the host's receive buffer.
  struct Range {
    std::size_t begin = 0, count = 0, slot = 0, received = 0;
  };
  // Collective: learns every part's range (this one's is [begin, end)) and sets up the buffers.
  void share_ranges(const core::Queue& queue, const core::Program& program, std::size_t begin, std::size_t end);
  // Every part's v, added up in part order, into v on every part.
  void add_parts(const core::Queue& queue, core::Buffer<Real>& v);

  NodeHalo* halo_;
  std::vector<Range> ranges_;
  core::Buffer<Real> scratch_;
  std::unique_ptr<core::PinnedBuffer<Real>> outgoing_, incoming_;
  core::Kernel add_;

  std::vector<Level> levels_;
  core::Buffer<Real> coarse_inverse_;
  core::Kernel coarse_solve_;
  core::NDRange spmv_global_, spmv_local_, coarse_range_;
};

}  // namespace hetflow::fem
