#include "hetflow/fem/device_csr.hpp"

#include <algorithm>
#include <string>
#include <type_traits>
#include <vector>

#include "hetflow/core/error.hpp"
#include "hetflow/core/program.hpp"
#include "hetflow/fem/row_slices.hpp"

namespace hetflow::fem {
namespace {

// Work-groups per compute unit of the SpMV's grid: enough to hide memory latency on a GPU; the groups
// stride over the row blocks, so one grid width serves every matrix (core::strided_range says why).
constexpr std::size_t spmv_groups_per_unit = 32;

}  // namespace

void check(const SpmvShape& shape, const core::DeviceInfo& device) {
  if (shape.row_bits < 0 || shape.wg_bits < shape.row_bits || shape.wg_bits > 12)
    throw core::Error("SpMV shape: needs 0 <= row_bits <= wg_bits <= 12, got wg_bits " +
                      std::to_string(shape.wg_bits) + ", row_bits " + std::to_string(shape.row_bits));
  if (shape.work_group() > device.max_work_group)
    throw core::Error("SpMV shape: a work-group of " + std::to_string(shape.work_group()) + " exceeds the device's " +
                      std::to_string(device.max_work_group));
}

SpmvShape widened_shape(const SpmvShape& tuned, double row_length, double tuned_row_length) {
  SpmvShape shape = tuned;
  // Doubling the lanes pays once the rows are 1.5 times as long as the lanes' share, the geometric middle
  // of rounding log2 of the ratio.
  const auto widened = [&] { return static_cast<double>(shape.lanes()) / static_cast<double>(tuned.lanes()); };
  while (shape.row_bits > 0 && row_length >= 1.5 * widened() * tuned_row_length) --shape.row_bits;
  return shape;
}

std::size_t reduce_work_group(const core::DeviceInfo& device) {
  std::size_t wg = 256;
  while (wg > device.max_work_group) wg /= 2;
  return wg;
}

core::NDRange spmv_range(const core::DeviceInfo& device, const SpmvShape& shape) {
  return core::strided_range(device, shape.work_group(), spmv_groups_per_unit);
}

core::BuildOptions sparse_build_options(core::Precision real, const SpmvShape& shape, std::size_t reduce_wg) {
  core::BuildOptions o(real);
  o.define("SPMV_WG_BITS", shape.wg_bits).define("SPMV_ROW_BITS", shape.row_bits);
  o.define("REDUCE_WG", static_cast<long long>(reduce_wg));
  return o;
}

template <class Real>
DeviceCsr<Real>::DeviceCsr(const core::Queue& queue, const CsrMatrix& a, int bits)
    : n(a.n), nnz(a.nnz()), slice_bits(bits) {
  check(a);
  upload(queue, a.row_start, a.col, a.values);
}

template <class Real>
DeviceCsr<Real>::DeviceCsr(const core::Queue& queue, const SparseRows& a, int bits)
    : n(a.rows), nnz(a.nnz()), slice_bits(bits) {
  upload(queue, a.row_start, a.col, a.values);
}

template <class Real>
void DeviceCsr<Real>::upload(const core::Queue& queue, std::span<const std::int32_t> row_start,
                             std::span<const std::int32_t> columns, std::span<const double> entries) {
  const RowSlices slices = row_slices(row_start, slice_bits);
  // An empty operator (a part's share of a coarse level) keeps one unused slot (core::upload).
  slice_start = core::upload(queue, std::vector<cl_int>(slices.start.begin(), slices.start.end()));
  col = core::upload(queue, sliced(slices, row_start, columns, 1, 0));
  const std::vector<double> v = sliced(slices, row_start, entries, 1, 0.0);
  values = core::upload(queue, std::vector<Real>(v.begin(), v.end()));
}

template <class Real>
void DeviceCsr<Real>::add_layout(core::KernelArgs& args) const {
  args.add(slice_bits).add(slice_start).add(col).add(values);
}

template <class Real>
DeviceSpmv<Real>::DeviceSpmv(const core::Context& context, const SpmvShape& shape) : shape_(shape) {
  const core::DeviceInfo& info = context.device().info;
  check(shape_, info);
  const auto options = sparse_build_options(precision_of<Real>(), shape_, reduce_work_group(info));
  kernel_ = context.program("fem/sparse.cl", options).kernel("fem_spmv");
  global_ = spmv_range(info, shape_);
}

template <class Real>
core::Event DeviceSpmv<Real>::operator()(const core::Queue& queue, const DeviceCsr<Real>& a,
                                         const core::Buffer<Real>& x, core::Buffer<Real>& y) const {
  if (x.size() < a.n || y.size() < a.n)
    throw core::Error("SpMV: vectors of " + std::to_string(x.size()) + " and " + std::to_string(y.size()) +
                      " entries for " + std::to_string(a.n) + " rows");
  core::Kernel k = kernel_;
  core::KernelArgs args(k);
  args.add(static_cast<cl_int>(a.n));
  a.add_layout(args);
  args.add(x).add(y);
  return k.launch(queue, global_, core::NDRange(shape_.work_group()));
}

template struct DeviceCsr<float>;
template struct DeviceCsr<double>;
template class DeviceSpmv<float>;
template class DeviceSpmv<double>;

}  // namespace hetflow::fem
