#pragma once
#include <vector>

#include "hetflow/core/buffer.hpp"
#include "hetflow/core/context.hpp"
#include "hetflow/fem/device_csr.hpp"

namespace hetflow::fem {

// The SpMV shapes worth timing on `device`: every 0 <= row_bits <= wg_bits <= 8 whose work-group the
// device takes (45 where work-groups of 256 are allowed), as in the paper's start-up tuning.
std::vector<SpmvShape> spmv_shapes(const core::DeviceInfo& device);

// The device seconds of one SpMV y = A x with `spmv`, from its profiling event (waits for it): one
// repetition for a tuner's measurement.
template <class Real>
double spmv_seconds(const core::Queue& queue, const DeviceSpmv<Real>& spmv, const DeviceCsr<Real>& a,
                    const core::Buffer<Real>& x, core::Buffer<Real>& y);

struct SpmvChoice {
  SpmvShape shape;
  double seconds = 0;  // the least summed time of `repeats` launches
};

// Times every candidate on the matrix itself (`warmup` launches, then the sum of `repeats`) and keeps
// the fastest: for runs that find no tuned shape. core::Error for no candidates or repeats < 1.
template <class Real>
SpmvChoice fastest_spmv_shape(const core::Queue& queue, const DeviceCsr<Real>& a,
                              const std::vector<SpmvShape>& candidates, int warmup = 3, int repeats = 10);

}  // namespace hetflow::fem
