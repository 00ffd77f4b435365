#include "hetflow/fem/device_edge_data.hpp"

#include <span>
#include <vector>

#include "hetflow/fem/node_launch.hpp"

namespace hetflow::fem {

DeviceEdgeData::DeviceEdgeData(const core::DeviceSet& devices, std::size_t device, const EdgeData& data,
                               core::Precision precision)
    : nodes(data.node_count()), record_precision(precision) {
  const core::Queue& queue = devices.compute(device);
  const std::span<const std::uint32_t> rows(data.row_start);
  const RowSlices slices = row_slices(rows, edge_slice_bits);
  slice_start = core::upload(queue, slices.start, CL_MEM_READ_ONLY);
  col = core::upload(queue, sliced_columns(slices, rows, std::span<const std::uint32_t>(data.col)), CL_MEM_READ_ONLY);
  const std::vector<double> records =
      sliced(slices, rows, std::span<const double>(data.records), edge_slot::count, 0.0);
  if (precision == core::Precision::f32)
    records_f32_ = core::upload(queue, std::vector<float>(records.begin(), records.end()), CL_MEM_READ_ONLY);
  else
    records_ = core::upload(queue, records, CL_MEM_READ_ONLY);
  mass = core::upload(queue, data.lumped_mass, CL_MEM_READ_ONLY);
  inv_mass = core::upload(queue, data.inv_lumped_mass, CL_MEM_READ_ONLY);
  h_min = core::upload(queue, data.h_min, CL_MEM_READ_ONLY);
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
