#include "hetflow/fem/node_launch.hpp"

#include <utility>

#include "hetflow/core/error.hpp"

namespace hetflow::fem {
namespace {

constexpr std::size_t groups_per_unit = 32;

}  // namespace

NodeLaunch::NodeLaunch(const core::DeviceSet& devices, std::size_t device, std::size_t nodes, std::string owner)
    : queue_(&devices.compute(device)),
      global_(core::strided_range(devices.device(device).info, work_group, groups_per_unit)),
      local_(work_group),
      nodes_(static_cast<cl_uint>(nodes)),
      owner_(std::move(owner)) {}

void NodeLaunch::check_size(const core::Buffer<double>& field, std::size_t per_node, const char* name) const {
  if (field.size() != per_node * nodes_)
    throw core::Error(std::string("the device field ") + name + " holds " + std::to_string(field.size()) + " values; " +
                      owner_ + " need " + std::to_string(per_node * nodes_));
}

void NodeLaunch::launch(const core::Kernel& kernel) const { kernel.enqueue(*queue_, global_, local_); }

}  // namespace hetflow::fem
