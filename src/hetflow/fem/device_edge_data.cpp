#include "hetflow/fem/device_edge_data.hpp"

#include <span>
#include <vector>

#include "hetflow/fem/node_launch.hpp"

namespace hetflow::fem {

DeviceEdgeData::DeviceEdgeData(const core::DeviceSet& devices, std::size_t device, const EdgeData& data,
                               core::Precision precision)
    : nodes(data.node_count()), record_precision(precision) {
  const core::Context& context = devices.context(device);
  const core::Queue& queue = devices.compute(device);
  const std::span<const std::uint32_t> rows(data.row_start);
  const RowSlices slices = row_slices(rows, edge_slice_bits);
  slice_start = upload<std::uint32_t>(context, queue, slices.start);
  col = upload<std::uint32_t>(context, queue, sliced_columns(slices, rows, std::span<const std::uint32_t>(data.col)));
  const std::vector<double> records =
      sliced(slices, rows, std::span<const double>(data.records), edge_slot::count, 0.0);
  if (precision == core::Precision::f32)
    records_f32_ = upload<float>(context, queue, std::vector<float>(records.begin(), records.end()));
  else
    records_ = upload<double>(context, queue, records);
  mass = upload<double>(context, queue, data.lumped_mass);
  inv_mass = upload<double>(context, queue, data.inv_lumped_mass);
  h_min = upload<double>(context, queue, data.h_min);
}

void DeviceEdgeData::add_graph(core::KernelArgs& args) const {
  args.add(slice_start).add(col);
  if (record_precision == core::Precision::f32)
    args.add(records_f32_);
  else
    args.add(records_);
}

core::BuildOptions DeviceEdgeData::build_options() const {
  core::BuildOptions options(core::Precision::f64);
  options.define("EDGE_SLICE_BITS", edge_slice_bits);
  if (record_precision == core::Precision::f32) options.define("EDGE_REAL", "float");
  return options;
}

}  // namespace hetflow::fem
