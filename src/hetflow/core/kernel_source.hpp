#pragma once
#include <span>
#include <vector>

namespace hetflow::core {

// One embedded OpenCL C file: its path below src/hetflow ("core/probe.cl") and its text.
struct KernelSource {
  const char* name;
  const char* source;
};

namespace detail {
// Every module's table of embedded kernel files. Inline, so the tables that modules register during
// static initialisation need no symbol of core's library and find this list already constructed.
inline std::vector<std::span<const KernelSource>>& kernel_tables() {
  static std::vector<std::span<const KernelSource>> tables;
  return tables;
}
}  // namespace detail

// Registers a module's kernel files with the registry (core/registry.hpp). The file that
// cmake/embed_kernels.cmake generates for each module holds one of these; the build links that file's
// library whole, since nothing refers to it by name.
struct KernelRegistration {
  explicit KernelRegistration(std::span<const KernelSource> files) { detail::kernel_tables().push_back(files); }
};

}  // namespace hetflow::core
