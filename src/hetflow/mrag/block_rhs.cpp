#include "hetflow/mrag/block_rhs.hpp"

#include <span>
#include <string>
#include <utility>
#include <vector>

#include "hetflow/core/error.hpp"
#include "hetflow/core/kernel_args.hpp"
#include "hetflow/core/program.hpp"
#include "hetflow/mrag/reflux_table.hpp"

namespace hetflow::mrag {
BlockRhs::BlockRhs(const core::Queue& queue, const BlockTree& tree, int s, const Sides& sides, double root_size)
    : blocks_(tree.leaves().size()),
      cells_(static_cast<std::size_t>(s) * s),
      ghosts_(queue, tree, s, rhs_ghosts, false, sides) {
  std::vector<double> inv_h;
  for (const BlockKey& leaf : tree.leaves()) inv_h.push_back(s * static_cast<double>(1 << leaf.level) / root_size);
  inv_h_ = core::upload(queue, inv_h, CL_MEM_READ_ONLY);
  faces_ = core::Buffer<double>(queue.context(), blocks_ * 4 * static_cast<std::size_t>(s) * (fields + 1));
  const core::Program& program = queue.context().program("mrag/mrag_rhs.cl", ghosts_.build_options());
  rhs_ = program.kernel("mrag_rhs");
  core::KernelArgs(rhs_)
      .add(static_cast<cl_uint>(blocks_))
      .add(inv_h_)
      .skip()
      .add(ghosts_.ghosts())
      .add(ghosts_.slots())
      .skip()
      .add(faces_);
  const RefluxTable table = reflux_table(tree, s, sides);
  x_entries_ = table.x_entries;
  y_entries_ = table.entries() - table.x_entries;
  start_ = core::upload(queue, table.start, CL_MEM_READ_ONLY);
  coarse_block_ = core::upload(queue, table.coarse_block, CL_MEM_READ_ONLY);
  coarse_cell_ = core::upload(queue, table.coarse_cell, CL_MEM_READ_ONLY);
  side_ = core::upload(queue, table.side, CL_MEM_READ_ONLY);
  fine_face_ = core::upload(queue, table.fine_face, CL_MEM_READ_ONLY);
  fine_weight_ = core::upload(queue, table.fine_weight, CL_MEM_READ_ONLY);
  reflux_ = program.kernel("mrag_reflux");
  core::KernelArgs(reflux_)
      .skip(2)
      .add(start_)
      .add(coarse_block_)
      .add(coarse_cell_)
      .add(side_)
      .add(fine_face_)
      .add(fine_weight_)
      .add(inv_h_)
      .skip()
      .add(faces_);
  global_ = mrag_range(queue.context().device().info);
  local_ = core::NDRange(mrag_work_group);
}

void BlockRhs::operator()(const core::Queue& queue, const core::Buffer<double>& data, core::Buffer<double>& rhs) {
  if (data.size() < values() || rhs.size() < values())
    throw core::Error("block right-hand side: buffers of " + std::to_string(data.size()) + " and " +
                      std::to_string(rhs.size()) + " values for " + std::to_string(values()));
  ghosts_.fill(queue, data);
  rhs_.set(2, data);
  rhs_.set(5, rhs);
  rhs_.enqueue(queue, global_, local_);
  // The x sides' corrections, then the y sides': a corner cell has one of each.
  reflux_.set(9, data);
  reflux_.set(11, rhs);
  for (const auto [first, count] : {std::pair{std::size_t{0}, x_entries_}, std::pair{x_entries_, y_entries_}}) {
    if (count == 0) continue;
    reflux_.set(0, static_cast<cl_uint>(first));
    reflux_.set(1, static_cast<cl_uint>(count));
    reflux_.enqueue(queue, global_, local_);
  }
}

}  // namespace hetflow::mrag
