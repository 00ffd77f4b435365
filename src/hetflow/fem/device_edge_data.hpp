#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "hetflow/core/buffer.hpp"
#include "hetflow/core/build_options.hpp"
#include "hetflow/core/device_set.hpp"
#include "hetflow/core/kernel_args.hpp"
#include "hetflow/fem/edge_data.hpp"
#include "hetflow/fem/row_slices.hpp"

namespace hetflow::fem {

// Slots of a directed edge IJ's record on the device, in the order of fem_nodes.cl's edge_record_t (its
// EDGE_SLOTS is `count`): the kernels use Λ_IJ only through tr Λ and aᵀΛa, so the record keeps its
// diagonal and the sums of its off-diagonal pairs, and leaves out the consistent mass m_IJ, which no
// kernel reads.
namespace device_slot {
inline constexpr std::size_t diagonal = 0;  // Λ_xx, Λ_yy, Λ_zz
inline constexpr std::size_t pairs = 3;     // Λ_xy + Λ_yx, Λ_xz + Λ_zx, Λ_yz + Λ_zy
inline constexpr std::size_t d = 6;
inline constexpr std::size_t g = 9;
inline constexpr std::size_t count = 12;
}  // namespace device_slot

// The device records of `data`'s edges, `device_slot::count` values per edge in edge order.
std::vector<double> device_records(const EdgeData& data);

// The edge data on one device, uploaded once and read by every step's kernels: the edge graph and
// records (96 bytes per directed edge in FP64, the largest arrays of a run) are held once per device,
// whatever number of classes launch edge loops over them, in slices of 2^edge_slice_bits nodes
// (fem/row_slices.hpp). With FP32 records (48 bytes per edge) the kernels still compute in FP64: the
// records are rounded once, at upload (docs/fem.md, Precision).
struct DeviceEdgeData {
  DeviceEdgeData(const core::DeviceSet& devices, std::size_t device, const EdgeData& data,
                 core::Precision record_precision = core::Precision::f64);

  // Binds the slice offsets, the columns and the records (in their precision) as the next three arguments.
  void add_graph(core::KernelArgs& args) const;
  // The options of programs that read the records: FP64 arithmetic, EDGE_SLICE_BITS, and EDGE_REAL=float
  // for FP32 records.
  core::BuildOptions build_options() const;

  std::size_t nodes;
  core::Precision record_precision;
  core::Buffer<std::uint32_t> slice_start, col;
  core::Buffer<double> mass, inv_mass, h_min;

 private:
  core::Buffer<double> records_;
  core::Buffer<float> records_f32_;
};

}  // namespace hetflow::fem
