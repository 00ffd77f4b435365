#pragma once
#include <cstddef>

#include "hetflow/core/buffer.hpp"
#include "hetflow/core/context.hpp"
#include "hetflow/core/device_set.hpp"
#include "hetflow/core/kernel.hpp"
#include "hetflow/nnls/matrix.hpp"
#include "hetflow/nnls/svc.hpp"

namespace hetflow::nnls {

// SVC on one OpenCL device (nnls/svc.cl): the same matrix as svc_host() bit for bit, built where a
// solver will use it. Each fill_pow2 level is two launches over all of its rotations (rows, then
// columns), each combination and extra pass one launch, each preceded by a launch that draws its angles;
// nothing waits for the host. Keeps its program and a scratch buffer for the angles; not for use from
// two threads at once.
class SvcGenerator {
 public:
  // Builds the kernels for device `device` of `devices` (the compute queue is used).
  explicit SvcGenerator(const core::DeviceSet& devices, std::size_t device = 0);

  // Enqueues the generation; the result, spec.rows x spec.cols column-major, stays on the device.
  // Throws core::Error for an invalid spec before enqueueing anything.
  core::Buffer<double> generate(const SvcSpec& spec);
  // generate() and download.
  Matrix matrix(const SvcSpec& spec);

  const core::Queue& queue() const { return queue_; }

 private:
  // Draws the `count` rotations of (phase, step) into angles_.
  void draw(std::uint64_t seed, SvcPhase phase, std::uint32_t step, std::size_t count);
  // Launches `kernel` over `lines` x `elements` (lines in dimension 0 when lines_fast).
  void launch(const core::Kernel& kernel, std::size_t lines, std::size_t elements, bool lines_fast);

  core::Queue queue_;
  core::Kernel diagonal_, angles_kernel_, level_, chains_, matching_;
  core::Buffer<double> angles_;  // two doubles (c, s) per rotation
};

// One matrix on device `device` of `devices`, downloaded.
Matrix svc_device(const core::DeviceSet& devices, const SvcSpec& spec, std::size_t device = 0);

}  // namespace hetflow::nnls
