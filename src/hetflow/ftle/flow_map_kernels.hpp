#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "hetflow/core/buffer.hpp"
#include "hetflow/core/device_set.hpp"
#include "hetflow/core/kernel.hpp"
#include "hetflow/ftle/method.hpp"
#include "hetflow/ftle/seed_grid.hpp"
#include "hetflow/ftle/solver.hpp"

namespace hetflow::ftle {

// flow_map.cl's kernels on the first device of a set, bound to a seed grid: what the intermediate method
// (Brunton & Rowley 2010) does with short maps stored as displacements on the seed grid, and the FTLE of
// the positions it composes. Each call enqueues one launch on the first device's compute queue.
class FlowMapKernels {
 public:
  FlowMapKernels(const core::DeviceSet& devices, const SeedGrid& seeds, const Config& config,
                 Interpolation composition);

  // positions = seed + `map` (flow_map_start).
  void start(const core::Buffer<std::uint8_t>& positions, const core::Buffer<std::uint8_t>& map);
  // out = in + `map` interpolated at in (flow_map_compose).
  void compose(const core::Buffer<std::uint8_t>& in, const core::Buffer<std::uint8_t>& out,
               const core::Buffer<std::uint8_t>& map);
  // out = the map "apply first, then second": its displacement, or with `positions` 1 its positions
  // (flow_map_chain).
  void chain(const core::Buffer<std::uint8_t>& first, const core::Buffer<std::uint8_t>& second,
             const core::Buffer<std::uint8_t>& out, int positions);
  // ln(sigma_max(F)) / |T| of `positions`, one value per seed (ftle_field).
  std::vector<double> field(const core::Buffer<std::uint8_t>& positions);
  // Device memory of the FTLE buffer field() computes into.
  std::size_t field_bytes() const { return ftle_.bytes(); }

 private:
  const core::Queue* queue_;
  core::NDRange global_, local_;
  core::Precision precision_;
  std::size_t seeds_;
  core::Kernel start_, compose_, chain_, field_;
  core::Buffer<std::uint8_t> ftle_;
  cl_uint chain_positions_ = 0;  // flow_map_chain's `positions`
};

}  // namespace hetflow::ftle
