#include "hetflow/fem/device_edge_data.hpp"

#include <bit>
#include <string>
#include <vector>

#include "hetflow/core/error.hpp"
#include "hetflow/fem/node_launch.hpp"

namespace hetflow::fem {

std::size_t default_edge_lanes(const core::DeviceInfo& device) {
  return device.kind == core::DeviceKind::cpu ? 1 : 2;
}

void check_edge_lanes(std::size_t lanes) {
  if (lanes > NodeLaunch::work_group || (lanes != 0 && !std::has_single_bit(lanes)))
    throw core::Error("edge lanes must be a power of two from 1 to " + std::to_string(NodeLaunch::work_group) +
                      " (0 for the device's default), got " + std::to_string(lanes));
}

DeviceEdgeData::DeviceEdgeData(const core::DeviceSet& devices, std::size_t device, const EdgeData& data,
                               core::Precision precision, std::size_t row_lanes)
    : nodes(data.node_count()),
      lanes(row_lanes),
      record_precision(precision),
      default_lanes_(default_edge_lanes(devices.device(device).info)) {
  check_edge_lanes(row_lanes);
  if (lanes == 0) lanes = default_lanes_;
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

DeviceEdgeData DeviceEdgeData::with_lanes(std::size_t row_lanes) const {
  check_edge_lanes(row_lanes);
  DeviceEdgeData other = *this;
  other.lanes = row_lanes == 0 ? default_lanes_ : row_lanes;
  return other;
}

core::BuildOptions DeviceEdgeData::build_options() const {
  core::BuildOptions options(core::Precision::f64);
  if (record_precision == core::Precision::f32) options.define("EDGE_REAL", "float");
  if (lanes > 1) {
    options.define("EDGE_LANE_BITS", std::countr_zero(lanes));
    options.define("EDGE_WG", static_cast<long long>(NodeLaunch::work_group));
  }
  return options;
}

}  // namespace hetflow::fem
