#include "hetflow/mrag/block_rhs.hpp"

#include <span>
#include <string>
#include <vector>

#include "hetflow/core/error.hpp"
#include "hetflow/core/kernel_args.hpp"
#include "hetflow/core/program.hpp"

namespace hetflow::mrag {
BlockRhs::BlockRhs(const core::Queue& queue, const BlockTree& tree, int s, Edge x_edge, Edge y_edge, double root_size)
    : blocks_(tree.leaves().size()),
      cells_(static_cast<std::size_t>(s) * s),
      ghosts_(queue, tree, s, rhs_ghosts, false, x_edge, y_edge) {
  std::vector<double> inv_h;
  for (const BlockKey& leaf : tree.leaves()) inv_h.push_back(s * static_cast<double>(1 << leaf.level) / root_size);
  inv_h_ = core::upload(queue, inv_h, CL_MEM_READ_ONLY);
  rhs_ = queue.context().program("mrag/mrag_rhs.cl", ghosts_.build_options()).kernel("mrag_rhs");
  core::KernelArgs(rhs_)
      .add(static_cast<cl_uint>(blocks_))
      .add(inv_h_)
      .skip()
      .add(ghosts_.ghosts())
      .add(ghosts_.slots());
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
}

}  // namespace hetflow::mrag
