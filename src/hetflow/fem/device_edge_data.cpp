#include "hetflow/fem/device_edge_data.hpp"

#include "hetflow/fem/node_launch.hpp"

namespace hetflow::fem {

DeviceEdgeData::DeviceEdgeData(const core::DeviceSet& devices, std::size_t device, const EdgeData& data)
    : nodes(data.node_count()) {
  const core::Context& context = devices.context(device);
  const core::Queue& queue = devices.compute(device);
  row_start = upload<std::uint32_t>(context, queue, data.row_start);
  col = upload<std::uint32_t>(context, queue, data.col);
  records = upload<double>(context, queue, data.records);
  mass = upload<double>(context, queue, data.lumped_mass);
  inv_mass = upload<double>(context, queue, data.inv_lumped_mass);
  h_min = upload<double>(context, queue, data.h_min);
}

}  // namespace hetflow::fem
