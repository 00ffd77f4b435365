#include "hetflow/mrag/block_rhs.hpp"

#include <span>
#include <string>
#include <vector>

#include "hetflow/core/build_options.hpp"
#include "hetflow/core/error.hpp"
#include "hetflow/core/kernel_args.hpp"
#include "hetflow/core/program.hpp"

namespace hetflow::mrag {
namespace {

constexpr std::size_t work_group = 64;
constexpr std::size_t groups_per_unit = 32;

}  // namespace

BlockRhs::BlockRhs(const core::Queue& queue, const BlockTree& tree, int s, Edge x_edge, Edge y_edge, double root_size)
    : blocks_(tree.leaves().size()), cells_(static_cast<std::size_t>(s) * s) {
  const GhostTable table = ghost_table(tree, s, rhs_ghosts, false, x_edge, y_edge);
  ghost_count_ = table.ghost_cells.size();
  std::vector<cl_uint> source_block, source_cell;
  std::vector<double> weight;
  for (const GhostSource& g : table.sources) {
    source_block.push_back(g.block);
    source_cell.push_back(g.cell);
    weight.push_back(g.weight);
  }
  const int span = s + 2 * rhs_ghosts;
  std::vector<cl_int> slot(static_cast<std::size_t>(span) * span, -1);
  for (std::size_t g = 0; g < ghost_count_; ++g) {
    const auto [i, j] = table.ghost_cells[g];
    slot[static_cast<std::size_t>((j + rhs_ghosts) * span + i + rhs_ghosts)] = static_cast<cl_int>(g);
  }
  std::vector<double> inv_h;
  for (const BlockKey& leaf : tree.leaves()) inv_h.push_back(s * static_cast<double>(1 << leaf.level) / root_size);
  start_ = core::upload(queue, std::vector<cl_uint>(table.start.begin(), table.start.end()));
  source_block_ = core::upload(queue, source_block);
  source_cell_ = core::upload(queue, source_cell);
  weight_ = core::upload(queue, weight);
  ghost_slot_ = core::upload(queue, slot);
  inv_h_ = core::upload(queue, inv_h);
  ghosts_ = core::Buffer<double>(queue.context(), blocks_ * fields * ghost_count_);

  core::BuildOptions options(core::Precision::f64);
  options.define("BLOCK", s).define("GHOSTS", rhs_ghosts).define("GHOST_COUNT", static_cast<long long>(ghost_count_));
  const core::Program& program = queue.context().program("mrag/mrag_rhs.cl", options);
  fill_ = program.kernel("mrag_fill_ghosts");
  rhs_ = program.kernel("mrag_rhs");
  const auto blocks = static_cast<cl_uint>(blocks_);
  core::KernelArgs(fill_).add(blocks).add(start_).add(source_block_).add(source_cell_).add(weight_).skip().add(ghosts_);
  core::KernelArgs(rhs_).add(blocks).add(inv_h_).skip().add(ghosts_).add(ghost_slot_);
  global_ = core::strided_range(queue.context().device().info, work_group, groups_per_unit);
  local_ = core::NDRange(work_group);
}

void BlockRhs::operator()(const core::Queue& queue, const core::Buffer<double>& data, core::Buffer<double>& rhs) {
  if (data.size() < values() || rhs.size() < values())
    throw core::Error("block right-hand side: buffers of " + std::to_string(data.size()) + " and " +
                      std::to_string(rhs.size()) + " values for " + std::to_string(values()));
  fill_.set(5, data);
  fill_.enqueue(queue, global_, local_);
  rhs_.set(2, data);
  rhs_.set(5, rhs);
  rhs_.enqueue(queue, global_, local_);
}

}  // namespace hetflow::mrag
