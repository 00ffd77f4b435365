#include "hetflow/core/kernel_args.hpp"

namespace hetflow::core {

void set_real(Kernel& kernel, cl_uint index, double value, Precision real) {
  if (real == Precision::f64) {
    kernel.set(index, value);
  } else {
    kernel.set(index, static_cast<float>(value));
  }
}

}  // namespace hetflow::core
