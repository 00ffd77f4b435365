#include "hetflow/mrag/device_ghosts.hpp"

#include <vector>

#include "hetflow/core/error.hpp"
#include "hetflow/core/kernel_args.hpp"
#include "hetflow/core/parallel.hpp"
#include "hetflow/core/program.hpp"
#include "hetflow/mrag/block_rhs.hpp"

namespace hetflow::mrag {

core::NDRange mrag_range(const core::DeviceInfo& device) { return core::strided_range(device, mrag_work_group, 32); }

namespace {

// The side (west, east, south, north) of a band cell without corners.
int side_of(int i, int j, int s) { return i < 0 ? 0 : i >= s ? 1 : j < 0 ? 2 : 3; }

// The cell a side's ghost (i, j) copies in the neighbouring block of the same level.
std::uint32_t copied_cell(int i, int j, int s) {
  const int x = i < 0 ? i + s : i >= s ? i - s : i, y = j < 0 ? j + s : j >= s ? j - s : j;
  return static_cast<std::uint32_t>(x + s * y);
}

}  // namespace

std::vector<cl_uint> direct_neighbours(const GhostTable& table, std::size_t blocks, int s) {
  const std::size_t count = table.ghost_cells.size();
  std::vector<cl_uint> out(4 * blocks, no_neighbour);
  core::parallel_ranges(blocks, 256, [&](std::size_t first_block, std::size_t last_block) {
    for (std::size_t b = first_block; b < last_block; ++b) {
      bool broken[4] = {false, false, false, false};
      for (std::size_t g = 0; g < count; ++g) {
        const auto [i, j] = table.ghost_cells[g];
        const int side = side_of(i, j, s);
        cl_uint& named = out[4 * b + static_cast<std::size_t>(side)];
        const std::uint32_t first = table.start[b * count + g], last = table.start[b * count + g + 1];
        if (last != first + 1) {
          broken[side] = true;
          continue;
        }
        const GhostSource& source = table.sources[first];
        const bool copy =
            source.weight == 1 && source.flip == 0 && source.block < blocks && source.cell == copied_cell(i, j, s);
        if (!copy || (named != no_neighbour && named != source.block)) broken[side] = true;
        named = source.block;
      }
      for (int side = 0; side < 4; ++side)
        if (broken[side]) out[4 * b + static_cast<std::size_t>(side)] = no_neighbour;
    }
  });
  return out;
}

std::vector<std::uint32_t> filled_start(const GhostTable& table, const std::vector<cl_uint>& neighbours, int s) {
  const std::size_t count = table.ghost_cells.size(), blocks = neighbours.size() / 4;
  std::vector<std::uint32_t> start{0};
  start.reserve(blocks * count + 1);
  for (std::size_t b = 0; b < blocks; ++b)
    for (std::size_t g = 0; g < count; ++g) {
      const auto [i, j] = table.ghost_cells[g];
      const bool filled = neighbours[4 * b + static_cast<std::size_t>(side_of(i, j, s))] == no_neighbour;
      start.push_back(start.back() + (filled ? table.start[b * count + g + 1] - table.start[b * count + g] : 0));
    }
  return start;
}

template <class Real>
DeviceGhosts<Real>::DeviceGhosts(const core::Queue& queue, const GhostTable& table, std::size_t blocks, int s,
                                 int width, bool corners, const Sides& sides, bool direct)
    : options_(precision_of<Real>) {
  const std::size_t count = table.ghost_cells.size(), entries = table.start.size() - 1;
  const std::vector<cl_uint> neighbours =
      direct && !corners ? direct_neighbours(table, blocks, s) : std::vector<cl_uint>{};
  // One table: the ghosts' entries (without the direct sides'), then the nodes'; its columns are copied on
  // every core.
  std::vector<cl_uint> start = neighbours.empty() ? table.start : filled_start(table, neighbours, s);
  const std::size_t ghost_sources = start.back();
  for (std::size_t n = 1; n < table.node_start.size(); ++n)
    start.push_back(static_cast<cl_uint>(ghost_sources + table.node_start[n]));
  const std::size_t sources = start.back();
  std::vector<cl_uint> source_block(sources), source_cell(sources);
  std::vector<Real> weight(sources);
  std::vector<cl_uchar> flip(sources);
  const auto copy = [&](const GhostSource* from, std::size_t to, std::size_t n) {
    for (std::size_t k = 0; k < n; ++k) {
      source_block[to + k] = from[k].block;
      source_cell[to + k] = from[k].cell;
      weight[to + k] = static_cast<Real>(from[k].weight);
      flip[to + k] = from[k].flip;
    }
  };
  core::parallel_ranges(entries, 4096, [&](std::size_t first, std::size_t last) {
    for (std::size_t e = first; e < last; ++e)
      copy(table.sources.data() + table.start[e], start[e], start[e + 1] - start[e]);
  });
  core::parallel_ranges(table.node_sources.size(), 65536, [&](std::size_t first, std::size_t last) {
    copy(table.node_sources.data() + first, ghost_sources + first, last - first);
  });
  const int span = s + 2 * width;
  std::vector<cl_int> slots(static_cast<std::size_t>(span) * span, -1);
  for (std::size_t g = 0; g < count; ++g) {
    const auto [i, j] = table.ghost_cells[g];
    slots[static_cast<std::size_t>((j + width) * span + i + width)] = static_cast<cl_int>(g);
  }
  start_ = core::upload(queue, start, CL_MEM_READ_ONLY);
  source_block_ = core::upload(queue, source_block, CL_MEM_READ_ONLY);
  source_cell_ = core::upload(queue, source_cell, CL_MEM_READ_ONLY);
  weight_ = core::upload(queue, weight, CL_MEM_READ_ONLY);
  flip_ = core::upload(queue, flip, CL_MEM_READ_ONLY);
  std::vector<Real> inflow;
  for (const FaceState& w : sides.inflow)
    for (const double q : conserved(w)) inflow.push_back(static_cast<Real>(q));
  inflow_ = core::upload(queue, inflow, CL_MEM_READ_ONLY);
  slots_ = core::upload(queue, slots, CL_MEM_READ_ONLY);
  neighbours_ = core::upload(queue, neighbours.empty() ? std::vector<cl_uint>(4 * blocks, no_neighbour) : neighbours,
                             CL_MEM_READ_ONLY);
  ghosts_ = core::Buffer<Real>(queue.context(), std::max<std::size_t>(blocks * fields * count, 1));
  nodes_ = core::Buffer<Real>(queue.context(), std::max<std::size_t>(table.nodes() * fields, 1));
  node_pass_ = table.node_pass;
  options_.define("BLOCK", s).define("GHOSTS", width).define("GHOST_COUNT", static_cast<long long>(count));
  options_.define("NO_NEIGHBOUR", static_cast<long long>(no_neighbour));
  const core::Program& program = queue.context().program("mrag/mrag_ghosts.cl", options_);
  // Both kernels take the table, the data and the nodes first.
  const auto table_args = [&](core::Kernel& kernel) {
    core::KernelArgs(kernel).add(start_).add(source_block_).add(source_cell_).add(weight_).add(flip_).add(inflow_);
    kernel.set(7, nodes_);
  };
  fill_nodes_ = program.kernel("mrag_fill_nodes");
  table_args(fill_nodes_);
  fill_nodes_.set(8, static_cast<cl_uint>(entries));
  fill_ = program.kernel("mrag_fill_ghosts");
  table_args(fill_);
  std::vector<cl_uint> filled;
  for (std::size_t e = 0; e < entries; ++e)
    if (start[e + 1] > start[e]) filled.push_back(static_cast<cl_uint>(e));
  filled_count_ = filled.size();
  filled_ = core::upload(queue, filled, CL_MEM_READ_ONLY);
  core::KernelArgs(fill_, 8).add(static_cast<cl_uint>(filled_count_)).add(filled_).add(ghosts_);
  global_ = mrag_range(queue.context().device().info);
  local_ = core::NDRange(mrag_work_group);
}

template <class Real>
void DeviceGhosts<Real>::fill(const core::Queue& queue, const core::Buffer<Real>& data) {
  fill_nodes_.set(6, data);
  for (std::size_t pass = 0; pass + 1 < node_pass_.size(); ++pass) {
    fill_nodes_.set(9, static_cast<cl_uint>(node_pass_[pass]));
    fill_nodes_.set(10, static_cast<cl_uint>(node_pass_[pass + 1] - node_pass_[pass]));
    fill_nodes_.enqueue(queue, global_, local_);
  }
  fill_.set(6, data);
  if (filled_count_ > 0) fill_.enqueue(queue, global_, local_);
}

template class DeviceGhosts<float>;
template class DeviceGhosts<double>;

}  // namespace hetflow::mrag
