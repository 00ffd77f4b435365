#pragma once
#include <cstddef>
#include <optional>
#include <span>

#include "hetflow/core/build_options.hpp"
#include "hetflow/core/kernel.hpp"

namespace hetflow::core {

// Sets argument `index` of `kernel` to `value` in the kernel's real_t: float under Precision::f32,
// double under f64 (the build's `-D REAL`, core/common.cl).
void set_real(Kernel& kernel, cl_uint index, double value, Precision real);

// Binds a kernel's arguments in the order of its parameter list. Each call sets the next argument, so
// the host code reads as the kernel's signature and no index is written by hand; a block of parameters
// that several kernels share (one macro in the .cl file) is bound by one function that takes the binder.
// skip() passes over arguments set per launch, which are set later at the index next() gave.
class KernelArgs {
 public:
  KernelArgs(Kernel& kernel, Precision real, cl_uint first = 0) : kernel_(kernel), real_(real), next_(first) {}
  // A kernel without real_t parameters: real() throws.
  explicit KernelArgs(Kernel& kernel, cl_uint first = 0) : kernel_(kernel), next_(first) {}

  template <class T>
  KernelArgs& add(const T& value) {
    kernel_.set(next_++, value);
    return *this;
  }
  // A real_t argument, converted to the build's precision.
  KernelArgs& real(double value) {
    set_real(kernel_, next_++, value, precision());
    return *this;
  }
  // Consecutive real_t arguments (the components of a vector given one by one).
  KernelArgs& reals(std::span<const double> values) {
    for (double v : values) real(v);
    return *this;
  }
  KernelArgs& skip(cl_uint count = 1) {
    next_ += count;
    return *this;
  }
  // The index the next argument goes to.
  cl_uint next() const { return next_; }
  Precision precision() const;
  Kernel& kernel() const { return kernel_; }

 private:
  Kernel& kernel_;
  std::optional<Precision> real_;
  cl_uint next_;
};

}  // namespace hetflow::core
