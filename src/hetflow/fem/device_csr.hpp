#pragma once
#include <cstddef>
#include <cstdint>
#include <span>

#include "hetflow/core/buffer.hpp"
#include "hetflow/core/build_options.hpp"
#include "hetflow/core/context.hpp"
#include "hetflow/core/kernel.hpp"
#include "hetflow/core/kernel_args.hpp"
#include "hetflow/fem/amg_sparse.hpp"
#include "hetflow/fem/csr_matrix.hpp"

namespace hetflow::fem {

// The launch shape of the multi-row vector-CSR SpMV (docs/fem.md, "Pressure solver"): a work-group of
// 2^wg_bits work-items handles 2^row_bits rows, each row with 2^(wg_bits - row_bits) lanes.
struct SpmvShape {
  int wg_bits = 8;
  int row_bits = 5;
  std::size_t work_group() const { return std::size_t{1} << wg_bits; }
  std::size_t lanes() const { return std::size_t{1} << (wg_bits - row_bits); }
  bool operator==(const SpmvShape&) const = default;
};

// The shape for rows `row_length` entries long on average, from one tuned on rows `tuned_row_length` long:
// as many times more lanes per row (a power of two, up to the whole work-group), so that each lane's share
// of a row stays what it was tuned for. The multigrid's coarse operators have rows 5-10 times longer than
// the finest level's; with the finest level's lanes their products are latency-bound chains.
SpmvShape widened_shape(const SpmvShape& tuned, double row_length, double tuned_row_length);

// Throws core::Error unless 0 <= row_bits <= wg_bits and the work-group fits the device.
void check(const SpmvShape& shape, const core::DeviceInfo& device);

// The work-group size of the device reductions: 256, or the device's largest power of two below it.
std::size_t reduce_work_group(const core::DeviceInfo& device);

// The global range of the SpMV-shaped kernels (DeviceSpmv, the CG's product, the multigrid cycle): a
// fixed number of work-groups per compute unit that stride over the row blocks.
core::NDRange spmv_range(const core::DeviceInfo& device, const SpmvShape& shape);

// fem/sparse.cl's build options: the precision of values and vectors, the SpMV shape and the reduction
// work-group.
core::BuildOptions sparse_build_options(core::Precision real, const SpmvShape& shape, std::size_t reduce_wg);

template <class Real>
constexpr core::Precision precision_of() {
  return sizeof(Real) == 8 ? core::Precision::f64 : core::Precision::f32;
}

// A sparse matrix on one device, its values in Real (double, or float for the FP32 option), its rows
// sliced (fem/row_slices.hpp) in slices of 2^slice_bits rows: 0 keeps compressed sparse rows, whose
// lanes (SpmvShape) read consecutive entries of a row; more suit one work-item per row (SpmvShape with one
// lane), whose neighbours then read consecutive entries.
template <class Real>
struct DeviceCsr {
  DeviceCsr() = default;  // no rows: a slot to assign
  // Throws core::Error for an inconsistent matrix (check(const CsrMatrix&)).
  DeviceCsr(const core::Queue& queue, const CsrMatrix& a, int slice_bits = 0);
  DeviceCsr(const core::Queue& queue, const SparseRows& a, int slice_bits = 0);

  // Binds the slice width, the slice offsets, the columns and the values as the next four arguments.
  void add_layout(core::KernelArgs& args) const;

  std::size_t n = 0;
  std::size_t nnz = 0;  // the entries, without the slices' padding
  cl_int slice_bits = 0;
  core::Buffer<cl_int> slice_start;
  core::Buffer<cl_int> col;
  core::Buffer<Real> values;

 private:
  void upload(const core::Queue& queue, std::span<const std::int32_t> row_start,
              std::span<const std::int32_t> columns, std::span<const double> entries);
};

// y = A x on the device with one SpMV shape.
template <class Real>
class DeviceSpmv {
 public:
  DeviceSpmv(const core::Context& context, const SpmvShape& shape);

  core::Event operator()(const core::Queue& queue, const DeviceCsr<Real>& a, const core::Buffer<Real>& x,
                         core::Buffer<Real>& y) const;
  const SpmvShape& shape() const { return shape_; }

 private:
  SpmvShape shape_;
  core::Kernel kernel_;
  core::NDRange global_;
};

}  // namespace hetflow::fem
