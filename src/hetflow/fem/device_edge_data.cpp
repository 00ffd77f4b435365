#include "hetflow/fem/device_edge_data.hpp"

#include <span>
#include <vector>

#include "hetflow/fem/node_launch.hpp"

namespace hetflow::fem {

std::vector<double> device_records(const EdgeData& data) {
  std::vector<double> out(device_slot::count * data.edge_count());
  for (std::size_t k = 0; k < data.edge_count(); ++k) {
    const double* r = data.record(k);
    const double* lambda = r + edge_slot::laplacian;
    double* o = out.data() + device_slot::count * k;
    for (std::size_t c = 0; c < 3; ++c) {
      o[device_slot::diagonal + c] = lambda[4 * c];
      o[device_slot::d + c] = r[edge_slot::d + c];
      o[device_slot::g + c] = r[edge_slot::g + c];
    }
    o[device_slot::pairs + 0] = lambda[1] + lambda[3];
    o[device_slot::pairs + 1] = lambda[2] + lambda[6];
    o[device_slot::pairs + 2] = lambda[5] + lambda[7];
  }
  return out;
}

DeviceEdgeData::DeviceEdgeData(const core::DeviceSet& devices, std::size_t device, const EdgeData& data,
                               core::Precision precision)
    : nodes(data.node_count()), record_precision(precision) {
  const core::Queue& queue = devices.compute(device);
  const std::span<const std::uint32_t> rows(data.row_start);
  const RowSlices slices = row_slices(rows, edge_slice_bits);
  slice_start = core::upload(queue, slices.start, CL_MEM_READ_ONLY);
  col = core::upload(queue, sliced_columns(slices, rows, std::span<const std::uint32_t>(data.col)), CL_MEM_READ_ONLY);
  const std::vector<double> records =
      sliced(slices, rows, std::span<const double>(device_records(data)), device_slot::count, 0.0);
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
