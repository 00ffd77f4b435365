#pragma once
#include <cstddef>
#include <span>
#include <vector>

#include "hetflow/core/device_set.hpp"
#include "hetflow/core/kernel.hpp"
#include "hetflow/karst/model.hpp"
#include "hetflow/karst/series.hpp"

namespace hetflow::karst {

// Batched forward runs on one OpenCL device (karst/karst.cl), FP64: many parameter sets, one forcing,
// one kernel enqueue. Each set is one work-group that runs the whole time loop; the state stays on the
// device and only the outlet series come back. Results equal host_run() bit for bit (same operations in
// the same order, no contraction into fma).
//
// Limits: the water system and the rock factorisation live in local memory, 8 (2 N + 2 M) bytes per
// work-group (N = 1000, M = 100: 17.6 KB; NVIDIA's 48 KB allow N up to about 2900); the rock state takes
// 8 P M N bytes of device memory (P = 500, M = 100, N = 1000: 400 MB). Not for use from two threads at
// once.
class KarstDevice {
 public:
  // Builds the kernel for device `device` of `devices` (the compute queue is used), with `work_group`
  // work-items per set (`hetflow tune karst` finds the best; 0: 256), at most what the kernel allows.
  explicit KarstDevice(const core::DeviceSet& devices, std::size_t device = 0, std::size_t work_group = 0);

  // One outlet series per parameter set, at grid.times. Throws core::Error for invalid input (see
  // step_forcing, check_parameters) or a grid whose water system does not fit in local memory, before
  // anything is enqueued.
  std::vector<Series> run(const Series& inlet, const Series& velocity, std::span<const KarstParameters> sets,
                          const Grid& grid);

  // Work-items per set (one work-group each).
  std::size_t work_group() const { return work_group_; }

 private:
  core::Queue queue_;
  core::Kernel kernel_;
  std::size_t work_group_;
};

}  // namespace hetflow::karst
