#include "hetflow/fem/spmv_tuning.hpp"

#include <string>

#include "hetflow/core/error.hpp"

namespace hetflow::fem {

std::vector<SpmvShape> spmv_shapes(const core::DeviceInfo& device) {
  std::vector<SpmvShape> shapes;
  for (int w = 0; w <= 8 && (std::size_t{1} << w) <= device.max_work_group; ++w) {
    for (int r = 0; r <= w; ++r) shapes.push_back(SpmvShape{w, r});
  }
  return shapes;
}

template <class Real>
double spmv_seconds(const core::Queue& queue, const DeviceSpmv<Real>& spmv, const DeviceCsr<Real>& a,
                    const core::Buffer<Real>& x, core::Buffer<Real>& y) {
  const core::Event e = spmv(queue, a, x, y);
  e.wait();
  return e.seconds();
}

template <class Real>
SpmvChoice fastest_spmv_shape(const core::Queue& queue, const DeviceCsr<Real>& a,
                              const std::vector<SpmvShape>& candidates, int warmup, int repeats) {
  if (candidates.empty()) throw core::Error("SpMV tuning: no candidate shapes");
  if (repeats < 1 || warmup < 0)
    throw core::Error("SpMV tuning: needs repeats >= 1 and warmup >= 0, got " + std::to_string(repeats) + " and " +
                      std::to_string(warmup));
  core::Buffer<Real> x(queue.context(), a.n), y(queue.context(), a.n);
  x.fill(queue, Real(1));
  SpmvChoice best;
  bool first = true;
  for (const SpmvShape& shape : candidates) {
    const DeviceSpmv<Real> spmv(queue.context(), shape);
    for (int k = 0; k < warmup; ++k) spmv_seconds(queue, spmv, a, x, y);
    double total = 0;
    for (int k = 0; k < repeats; ++k) total += spmv_seconds(queue, spmv, a, x, y);
    if (first || total < best.seconds) best = {shape, total};
    first = false;
  }
  return best;
}

template double spmv_seconds(const core::Queue&, const DeviceSpmv<float>&, const DeviceCsr<float>&,
                             const core::Buffer<float>&, core::Buffer<float>&);
template double spmv_seconds(const core::Queue&, const DeviceSpmv<double>&, const DeviceCsr<double>&,
                             const core::Buffer<double>&, core::Buffer<double>&);
template SpmvChoice fastest_spmv_shape(const core::Queue&, const DeviceCsr<float>&, const std::vector<SpmvShape>&,
                                       int, int);
template SpmvChoice fastest_spmv_shape(const core::Queue&, const DeviceCsr<double>&, const std::vector<SpmvShape>&,
                                       int, int);

}  // namespace hetflow::fem
