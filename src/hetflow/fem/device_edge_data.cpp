#include "hetflow/fem/device_edge_data.hpp"

#include <vector>

#include "hetflow/fem/node_launch.hpp"

namespace hetflow::fem {

DeviceEdgeData::DeviceEdgeData(const core::DeviceSet& devices, std::size_t device, const EdgeData& data,
                               core::Precision precision)
    : nodes(data.node_count()), record_precision(precision) {
  const core::Context& context = devices.context(device);
  const core::Queue& queue = devices.compute(device);
  row_start = upload<std::uint32_t>(context, queue, data.row_start);
  col = upload<std::uint32_t>(context, queue, data.col);
  if (precision == core::Precision::f32)
    records_f32_ = upload<float>(context, queue, std::vector<float>(data.records.begin(), data.records.end()));
  else
    records_ = upload<double>(context, queue, data.records);
  mass = upload<double>(context, queue, data.lumped_mass);
  inv_mass = upload<double>(context, queue, data.inv_lumped_mass);
  h_min = upload<double>(context, queue, data.h_min);
}

void DeviceEdgeData::add_records(core::KernelArgs& args) const {
  if (record_precision == core::Precision::f32)
    args.add(records_f32_);
  else
    args.add(records_);
}

core::BuildOptions DeviceEdgeData::build_options() const {
  core::BuildOptions options(core::Precision::f64);
  if (record_precision == core::Precision::f32) options.define("EDGE_REAL", "float");
  return options;
}

}  // namespace hetflow::fem
