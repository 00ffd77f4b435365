#pragma once
#include <array>
#include <cstddef>
#include <memory>
#include <utility>

#include "hetflow/core/buffer.hpp"
#include "hetflow/core/context.hpp"
#include "hetflow/core/kernel.hpp"
#include "hetflow/mrag/block_halo.hpp"
#include "hetflow/mrag/block_tree.hpp"
#include "hetflow/mrag/device_ghosts.hpp"
#include "hetflow/mrag/reflux_table.hpp"
#include "hetflow/mrag/spatial_scheme.hpp"

namespace hetflow::mrag {

// The fields of a cell, conserved: ρ, ρu, ρv, ρE, Γ, Π.
inline constexpr int fields = 6;
// The ghost band the right-hand side needs: WENO5 reaches three cells past a face, along the axes only.
inline constexpr int rhs_ghosts = 3;

// The right-hand side L = dq/dt of the leaves of a tree on one device, with block data of Real (float or
// double: the WENO weights are FP64 either way), and the Runge–Kutta stages built on it (mrag_rhs.cl): the
// ghost table, each leaf's cell size and the flux correction's table uploaded once per tree; the ghost
// fill, the fused flux-and-update kernel over tiles of blocks and the correction of coarse faces at
// resolution jumps bound. Block data holds field f of cell x + s y of leaf b (tree order) at
// (b fields + f) s² + x + s y.
template <class Real>
class BlockRhs {
 public:
  // Cells of the level-0 blocks are root_size / s wide. Without `stiffened` every cell and inflow state
  // has Π = 0 (ideal gases), and the kernels leave Π out of the reconstruction and the fluxes, whose part
  // is then zero; the results are the same. `scheme` picks the faces' flux and the closure field. Throws
  // core::Error for a block size the ghost band does not fit, or blocks whose tile of one row does not fit
  // the device.
  BlockRhs(const core::Queue& queue, const BlockTree& tree, int s, const Sides& sides, double root_size,
           bool stiffened = true, const SpatialScheme& scheme = {});
  // What a part of the leaves (docs/mrag.md, Several devices) gives its right-hand side: the leaves it
  // updates, the recipes of the band (rhs_ghosts wide, no corners) and the tree's plan made of them, their
  // flux corrections, and the halo that brings the cells and faces of other parts these read (none for the
  // whole tree). A group of local time steps (docs/mrag.md, Time integration) gives the boundary-face
  // records that the groups of a tree share: these then sum each face's flux over the stages of a step,
  // weighted, and correct_sums() corrects the coarse faces once a step instead of every stage (no halo
  // then).
  struct Part {
    LeafList own;
    std::shared_ptr<DeviceRecipes<Real>> recipes;
    GhostPlan band;
    RefluxTable reflux;
    BlockHalo<Real>* halo = nullptr;
    core::Buffer<Real>* face_sums = nullptr;
  };
  // The right-hand side of a part; its buffers still hold block data of the whole tree. The buffers of
  // `recycled` (the same part's right-hand side of the tree before an adaptation) are taken over and written
  // over where they are large enough, as DeviceGhosts takes its predecessor's.
  BlockRhs(const core::Queue& queue, const BlockTree& tree, Part part, int s, double root_size, bool stiffened = true,
           const SpatialScheme& scheme = {}, BlockRhs* recycled = nullptr);

  // Enqueues the ghost fill and rhs = L(data) of the part's leaves, and with a halo brings the rest of
  // the halo's cells of rhs up to date (collective).
  void operator()(const core::Queue& queue, const core::Buffer<Real>& data, core::Buffer<Real>& rhs);
  // Enqueues the ghost fill and out = a q0 + c data + d L(data), a Runge–Kutta stage; out may be q0, not
  // data. A group of local time steps reads the other groups' leaves at `time` and adds face_weight times
  // each boundary face's flux to its record.
  void update(const core::Queue& queue, const core::Buffer<Real>& data, const core::Buffer<Real>& q0,
              core::Buffer<Real>& out, double a, double c, double d,
              const typename DeviceGhosts<Real>::StageTime* time = nullptr, double face_weight = 1);
  // A local time step's group: corrects the coarse faces of `state` by the sums of the step's fluxes on
  // both sides and zeroes those sums; Γ and Π of the correction's source term are `start`'s.
  void correct_sums(const core::Queue& queue, const core::Buffer<Real>& start, core::Buffer<Real>& state);
  // The ghost band the update reads (the benchmark times its fill apart).
  DeviceGhosts<Real>& ghosts() { return ghosts_; }
  // The rows of the tiles the update kernel works on: the largest of 8, 4, 2, 1 that divides s and whose
  // tile fits the device's local memory and work-group.
  int tile_rows() const { return tile_rows_; }
  // Each tile's largest signal rate (|u| + |v| + 2c)/h of the cells the last update wrote, before the flux
  // correction changed any: NaN where a cell is not finite or has ρ ≤ 0 or c² ≤ 0. The part's tiles alone:
  // rate_count() of them, none for a part without leaves (whose buffer holds one unwritten value).
  const core::Buffer<Real>& rates() const { return rates_; }
  std::size_t rate_count() const { return own_count_ * tiles_per_leaf_; }
  // Values in a block-data buffer.
  std::size_t values() const { return blocks_ * fields * cells_; }
  // The leaves the part updates, those whose cells or faces other parts read first (with the leaves whose
  // faces their flux corrections read), and how many.
  const core::Buffer<cl_uint>& own() const { return own_; }
  std::size_t own_count() const { return own_count_; }
  // 1/h of each leaf's cells.
  const core::Buffer<Real>& inv_h() const { return inv_h_; }

 private:
  // The part of every leaf, with recipes of its own.
  static Part whole_tree(const core::Queue& queue, const BlockTree& tree, int s, const Sides& sides);

  std::size_t blocks_, cells_;
  // Launches the update over own_[first .. first + count).
  void update_leaves(const core::Queue& queue, std::size_t first, std::size_t count);
  // Launches the flux corrections of groups `first` and `first` + 1.
  void correct(const core::Queue& queue, std::size_t first);

  core::Buffer<cl_uint> own_;
  std::size_t own_count_, edge_count_;
  BlockHalo<Real>* halo_;
  int tile_rows_ = 8;
  DeviceGhosts<Real> ghosts_;
  core::Buffer<Real> inv_h_, own_faces_, rates_;
  // own_faces_, or the records a local time step's groups share.
  core::Buffer<Real>* faces_;
  core::Kernel update_, reflux_;
  // The flux correction's table (reflux_table.hpp): the entries of leaves whose cells other parts read, x
  // sides then y sides, then the others'; each group's first entry and count.
  core::Buffer<cl_uint4> reflux_entries_;
  std::array<std::pair<std::size_t, std::size_t>, 4> groups_{};
  std::size_t tiles_per_leaf_ = 1;
  core::NDRange tile_group_, global_, local_;
};

}  // namespace hetflow::mrag
