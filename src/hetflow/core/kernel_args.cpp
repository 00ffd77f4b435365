#include "hetflow/core/kernel_args.hpp"

#include "hetflow/core/error.hpp"

namespace hetflow::core {

void set_real(Kernel& kernel, cl_uint index, double value, Precision real) {
  if (real == Precision::f64) {
    kernel.set(index, value);
  } else {
    kernel.set(index, static_cast<float>(value));
  }
}

Precision KernelArgs::precision() const {
  if (!real_) throw Error("internal: a real_t argument of " + kernel_.name() + " bound without a precision");
  return *real_;
}

}  // namespace hetflow::core
