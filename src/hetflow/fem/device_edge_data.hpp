#pragma once
#include <cstddef>
#include <cstdint>

#include "hetflow/core/buffer.hpp"
#include "hetflow/core/build_options.hpp"
#include "hetflow/core/device_set.hpp"
#include "hetflow/core/kernel_args.hpp"
#include "hetflow/fem/edge_data.hpp"

namespace hetflow::fem {

// The edge data on one device, uploaded once and read by every step's kernels: the edge graph and
// records (128 bytes per directed edge in FP64, the largest arrays of a run) are held once per device,
// whatever number of classes launch edge loops over them. With FP32 records (64 bytes per edge) the
// kernels still compute in FP64: the records are rounded once, at upload (docs/fem.md, Precision).
// `row_lanes` is the number of work-items that share one node's row in the momentum residual and the
// pressure assembly (fem_nodes.cl, FOR_EACH_ROW): a power of two up to NodeLaunch::work_group, or 0 for
// the device's default_edge_lanes; it is compiled into the programs that read the records.
struct DeviceEdgeData {
  // Throws core::Error for lanes that check_edge_lanes rejects.
  DeviceEdgeData(const core::DeviceSet& devices, std::size_t device, const EdgeData& data,
                 core::Precision record_precision = core::Precision::f64, std::size_t row_lanes = 0);

  // The same device data, shared, with programs of another number of lanes (0: the device's default).
  DeviceEdgeData with_lanes(std::size_t row_lanes) const;

  // Binds the records, in their precision, as the next argument.
  void add_records(core::KernelArgs& args) const;
  // The options of programs that read the records: FP64 arithmetic, EDGE_REAL=float for FP32 records,
  // and with several lanes EDGE_LANE_BITS and the work-group EDGE_WG.
  core::BuildOptions build_options() const;

  std::size_t nodes;
  std::size_t lanes;  // per row, the device's default resolved
  core::Precision record_precision;
  core::Buffer<std::uint32_t> row_start, col;
  core::Buffer<double> mass, inv_mass, h_min;

 private:
  core::Buffer<double> records_;
  core::Buffer<float> records_f32_;
  std::size_t default_lanes_;
};

// The lanes per row where a run leaves them open: 1 on a CPU, where the lanes' local-memory tree costs
// more than the scattered reads it saves, and 2 on other devices, whose loads coalesce over the lanes.
// Two weigh the step's four residuals, which lose registers to more lanes, against its one assembly,
// which gains from them (docs/fem.md, Performance).
std::size_t default_edge_lanes(const core::DeviceInfo& device);

// Throws core::Error naming the value unless `lanes` is 0 or a power of two up to NodeLaunch::work_group.
void check_edge_lanes(std::size_t lanes);

}  // namespace hetflow::fem
