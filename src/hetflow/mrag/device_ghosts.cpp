#include "hetflow/mrag/device_ghosts.hpp"

#include <vector>

#include "hetflow/core/error.hpp"
#include "hetflow/core/kernel_args.hpp"
#include "hetflow/core/program.hpp"
#include "hetflow/mrag/block_rhs.hpp"

namespace hetflow::mrag {

core::NDRange mrag_range(const core::DeviceInfo& device) { return core::strided_range(device, mrag_work_group, 32); }

template <class Real>
DeviceGhosts<Real>::DeviceGhosts(const core::Queue& queue, const BlockTree& tree, int s, int width, bool corners,
                                 const Sides& sides)
    : options_(precision_of<Real>) {
  const GhostTable table = ghost_table(tree, s, width, corners, sides);
  const std::size_t count = table.ghost_cells.size();
  std::vector<cl_uint> source_block, source_cell;
  std::vector<Real> weight;
  std::vector<cl_uchar> flip;
  for (const GhostSource& g : table.sources) {
    source_block.push_back(g.block);
    source_cell.push_back(g.cell);
    weight.push_back(static_cast<Real>(g.weight));
    flip.push_back(g.flip);
  }
  const int span = s + 2 * width;
  std::vector<cl_int> slots(static_cast<std::size_t>(span) * span, -1);
  for (std::size_t g = 0; g < count; ++g) {
    const auto [i, j] = table.ghost_cells[g];
    slots[static_cast<std::size_t>((j + width) * span + i + width)] = static_cast<cl_int>(g);
  }
  start_ = core::upload(queue, std::vector<cl_uint>(table.start.begin(), table.start.end()), CL_MEM_READ_ONLY);
  source_block_ = core::upload(queue, source_block, CL_MEM_READ_ONLY);
  source_cell_ = core::upload(queue, source_cell, CL_MEM_READ_ONLY);
  weight_ = core::upload(queue, weight, CL_MEM_READ_ONLY);
  flip_ = core::upload(queue, flip, CL_MEM_READ_ONLY);
  std::vector<Real> inflow;
  for (const FaceState& w : sides.inflow)
    for (const double q : conserved(w)) inflow.push_back(static_cast<Real>(q));
  inflow_ = core::upload(queue, inflow, CL_MEM_READ_ONLY);
  slots_ = core::upload(queue, slots, CL_MEM_READ_ONLY);
  ghosts_ = core::Buffer<Real>(queue.context(), std::max<std::size_t>(tree.leaves().size() * fields * count, 1));
  options_.define("BLOCK", s).define("GHOSTS", width).define("GHOST_COUNT", static_cast<long long>(count));
  fill_ = queue.context().program("mrag/mrag_ghosts.cl", options_).kernel("mrag_fill_ghosts");
  core::KernelArgs(fill_)
      .add(static_cast<cl_uint>(tree.leaves().size()))
      .add(start_)
      .add(source_block_)
      .add(source_cell_)
      .add(weight_)
      .add(flip_)
      .add(inflow_)
      .skip()
      .add(ghosts_);
  global_ = mrag_range(queue.context().device().info);
  local_ = core::NDRange(mrag_work_group);
}

template <class Real>
void DeviceGhosts<Real>::fill(const core::Queue& queue, const core::Buffer<Real>& data) {
  fill_.set(7, data);
  fill_.enqueue(queue, global_, local_);
}

template class DeviceGhosts<float>;
template class DeviceGhosts<double>;

}  // namespace hetflow::mrag
