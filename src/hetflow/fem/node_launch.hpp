#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "hetflow/core/buffer.hpp"
#include "hetflow/core/context.hpp"
#include "hetflow/core/device_set.hpp"
#include "hetflow/core/kernel.hpp"

namespace hetflow::fem {

// What the fem classes that launch node-loop kernels on one device share: the compute queue, one launch
// width per kernel and device whatever the node count (core/kernel.hpp, strided_range, says why PoCL
// needs it; the kernels stride over the nodes), and the size check of node fields.
class NodeLaunch {
 public:
  // `owner` names the kernels in errors, as a plural ("the edge kernels").
  NodeLaunch(const core::DeviceSet& devices, std::size_t device, std::size_t nodes, std::string owner);

  // Throws core::Error naming the field unless it holds per_node values per node.
  void check_size(const core::Buffer<double>& field, std::size_t per_node, const char* name) const;
  void launch(const core::Kernel& kernel) const;

  // The work-group size of every launch, and the number of groups of one.
  static constexpr std::size_t work_group = 64;
  std::size_t groups() const { return global_.size[0] / work_group; }

  const core::Queue& queue() const { return *queue_; }
  cl_uint nodes() const { return nodes_; }

 private:
  const core::Queue* queue_;
  core::NDRange global_, local_;
  cl_uint nodes_;
  std::string owner_;
};

}  // namespace hetflow::fem
