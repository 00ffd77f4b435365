#pragma once
#include <array>
#include <span>
#include <string>
#include <type_traits>

#include "hetflow/core/buffer.hpp"
#include "hetflow/core/device.hpp"
#include "hetflow/core/error.hpp"
#include "hetflow/core/event.hpp"
#include "hetflow/core/handle.hpp"

namespace hetflow::core {

class Queue;

// A 1-, 2- or 3-D index space; a default NDRange as the local size lets the driver choose.
struct NDRange {
  NDRange() = default;
  NDRange(std::size_t x) : size{x, 1, 1}, dims(1) {}
  NDRange(std::size_t x, std::size_t y) : size{x, y, 1}, dims(2) {}
  NDRange(std::size_t x, std::size_t y, std::size_t z) : size{x, y, z}, dims(3) {}
  std::array<std::size_t, 3> size{1, 1, 1};
  cl_uint dims = 0;
};

// Smallest multiple of `multiple` that is >= n: global sizes must be multiples of the local size.
constexpr std::size_t round_up(std::size_t n, std::size_t multiple) {
  return (n + multiple - 1) / multiple * multiple;
}

// The global size of every launch of a kernel that strides over its items (get_global_size(0) apart):
// one width per device, `groups_per_unit` work-groups of `work_group` per compute unit, whatever the
// item count. PoCL 3.1's CPU driver needs this. It shares loaded kernel code between all contexts by
// kernel hash (source, options, device model) and finds a copy by hash, local size, the largest grid
// width the copy was made for and whether it was made for a zero global offset, but releases a
// finished launch by hash and local size alone. A launch that no loaded copy serves (wider, or offset
// where the copy wants none) while launches of that kernel still run loads a second copy in front; the
// earlier launches release that one, and PoCL aborts in pocl_release_dlhandle_cache
// (`found->ref_count > 0`). One width per kernel and device model, and no offsets, leave one copy,
// whatever the item counts and the order of launches.
NDRange strided_range(const DeviceInfo& device, std::size_t work_group, std::size_t groups_per_unit);

// Dynamic local memory of a kernel argument declared `__local T*`.
struct LocalMemory {
  std::size_t bytes;
};

class Kernel {
 public:
  Kernel() = default;
  Kernel(KernelHandle handle, std::string name) : handle_(std::move(handle)), name_(std::move(name)) {}

  cl_kernel get() const { return handle_.get(); }
  const std::string& name() const { return name_; }

  // Sets all arguments in order: buffers, LocalMemory and trivially copyable scalars/vectors.
  template <class... Args>
  Kernel& args(const Args&... a) {
    cl_uint i = 0;
    (set(i++, a), ...);
    return *this;
  }

  template <class T>
  void set(cl_uint index, const Buffer<T>& buffer) {
    cl_mem mem = buffer.get();
    check(clSetKernelArg(handle_.get(), index, sizeof(cl_mem), &mem), arg_call(index));
  }
  void set(cl_uint index, LocalMemory local) {
    check(clSetKernelArg(handle_.get(), index, local.bytes, nullptr), arg_call(index));
  }
  template <class T>
    requires std::is_trivially_copyable_v<T>
  void set(cl_uint index, const T& value) {
    check(clSetKernelArg(handle_.get(), index, sizeof(T), &value), arg_call(index));
  }

  // No global offset: PoCL 3.1 keeps apart copies of a kernel for zero and other offsets and may
  // release the wrong one (strided_range says how); kernels take their origin as an argument.
  Event launch(const Queue& queue, NDRange global, NDRange local = {}, std::span<const Event> wait = {}) const;
  // launch() for callers that need no event: the runtime is asked for none unless tracing keeps it. On
  // NVIDIA's OpenCL with a profiling queue an event more than doubles the host's cost of a launch, which
  // bounds loops of short kernels such as a multigrid cycle on a small mesh (docs/fem.md, Performance).
  void enqueue(const Queue& queue, NDRange global, NDRange local = {}, std::span<const Event> wait = {}) const;

  // The largest work-group this kernel can run with on the queue's device.
  std::size_t max_work_group(const Queue& queue) const;
  // The private memory one work-item of this kernel uses on the queue's device, as the driver reports it.
  std::size_t private_memory(const Queue& queue) const;

 private:
  cl_event submit(const Queue& queue, NDRange global, NDRange local, std::span<const Event> wait,
                  bool with_event) const;
  std::string arg_call(cl_uint index) const {
    return "clSetKernelArg(" + name_ + ", argument " + std::to_string(index) + ")";
  }

  KernelHandle handle_;
  std::string name_;
};

}  // namespace hetflow::core
