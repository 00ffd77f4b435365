#pragma once
#include <cstddef>
#include <memory>
#include <vector>

#include "hetflow/core/buffer.hpp"
#include "hetflow/core/context.hpp"
#include "hetflow/core/kernel.hpp"
#include "hetflow/fem/amg_hierarchy.hpp"
#include "hetflow/fem/amg_part.hpp"
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
  // With `halo` (FP64) the cycle is one part's of a split run of the whole mesh's `hierarchy` (docs/fem.md,
  // "Several devices"): it runs its split levels (amg_part) on their own rows and the coarser ones whole,
  // on every part. Below a split level the parts add their restrictions' halo entries into the owners and
  // exchange the next right-hand side's halo, below the last one they add up their restrictions to the
  // whole level; on the way up they exchange each split level's output and pre-smoothed iterate. The
  // caller exchanges the halo of b before each cycle. Collective then.
  // The finest level's A and P, whose rows are the mesh's nodes, are sliced in slices of 2^slice_bits rows
  // (DeviceCsr), the coarser levels' operators kept in compressed sparse rows.
  DeviceAmg(const core::Queue& queue, const AmgHierarchy& hierarchy, const SpmvShape& shape,
            const core::Buffer<cl_int>& state, NodeHalo* halo = nullptr, int slice_bits = 0);

  // Enqueues z = B b; b and z hold the finest level's n entries and are distinct.
  void enqueue(const core::Queue& queue, const core::Buffer<Real>& b, core::Buffer<Real>& z);
  std::size_t size() const { return levels_.front().n; }

 private:
  struct Level {
    cl_int n = 0;
    DeviceCsr<Real> a, p, r;
    core::Buffer<Real> smoother, b, x, t;
    core::Kernel residual_first, restrict_, correct_first, jacobi;
  };
  // The halo of split level l's vectors brought up to date; with `add`, their halo entries added into
  // their owners first (the restriction's).
  void exchange(std::size_t level, core::Buffer<Real>& v, bool add);
  // The range of the first whole level's unknowns that a part's restriction reaches, [begin, begin + count),
  // its slot in the scratch and, for another part's, in the host's receive buffer.
  struct Range {
    std::size_t begin = 0, count = 0, slot = 0, received = 0;
  };
  // Collective: learns every part's range (this one's is [begin, end)) and sets up the buffers.
  void share_ranges(const core::Queue& queue, const core::Program& program, std::size_t begin, std::size_t end);
  // Every part's v, added up in part order, into v on every part.
  void add_parts(const core::Queue& queue, core::Buffer<Real>& v);

  NodeHalo* halo_;
  // The split levels' local numberings below the finest and every split level's halo.
  std::vector<HaloLayout> layouts_;
  std::vector<std::unique_ptr<NodeHalo>> coarse_halos_;
  std::vector<NodeHalo*> halos_;
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
