#pragma once
#include <span>

namespace hetflow::core {

// One embedded OpenCL C file: its path below src/hetflow ("core/probe.cl") and its text.
struct KernelSource {
  const char* name;
  const char* source;
};

namespace detail {
// Defined in the file that cmake/embed_kernels.cmake generates at build time.
std::span<const KernelSource> embedded_kernel_sources();
}  // namespace detail

}  // namespace hetflow::core
