#include "hetflow/core/kernel.hpp"

#include <algorithm>

#include "hetflow/core/context.hpp"
#include "hetflow/core/trace.hpp"

namespace hetflow::core {

NDRange strided_range(const DeviceInfo& device, std::size_t work_group, std::size_t groups_per_unit) {
  return NDRange(work_group * groups_per_unit * std::max(device.compute_units, 1u));
}

Event Kernel::launch(const Queue& queue, NDRange global, NDRange local, std::span<const Event> wait) const {
  return Event(submit(queue, global, local, wait, true));
}

void Kernel::enqueue(const Queue& queue, NDRange global, NDRange local, std::span<const Event> wait) const {
  const cl_event e = submit(queue, global, local, wait, trace::enabled());
  if (e) check(clReleaseEvent(e), "clReleaseEvent(" + name_ + ")");
}

cl_event Kernel::submit(const Queue& queue, NDRange global, NDRange local, std::span<const Event> wait,
                        bool with_event) const {
  if (local.dims != 0 && local.dims != global.dims) {
    throw Error("kernel " + name_ + ": the local size has " + std::to_string(local.dims) +
                " dimensions, the global size " + std::to_string(global.dims));
  }
  const auto list = raw_events(wait);
  cl_event e = nullptr;
  check(clEnqueueNDRangeKernel(queue.get(), handle_.get(), global.dims, nullptr, global.size.data(),
                               local.dims ? local.size.data() : nullptr, static_cast<cl_uint>(list.size()),
                               list.empty() ? nullptr : list.data(), with_event ? &e : nullptr),
        "clEnqueueNDRangeKernel(" + name_ + ")");
  trace::record(queue, name_, e);
  return e;
}

std::size_t Kernel::max_work_group(const Queue& queue) const {
  std::size_t n = 0;
  check(clGetKernelWorkGroupInfo(handle_.get(), queue.context().device().id, CL_KERNEL_WORK_GROUP_SIZE, sizeof(n), &n,
                                 nullptr),
        "clGetKernelWorkGroupInfo");
  return n;
}

std::size_t Kernel::private_memory(const Queue& queue) const {
  cl_ulong bytes = 0;
  check(clGetKernelWorkGroupInfo(handle_.get(), queue.context().device().id, CL_KERNEL_PRIVATE_MEM_SIZE, sizeof(bytes),
                                 &bytes, nullptr),
        "clGetKernelWorkGroupInfo");
  return static_cast<std::size_t>(bytes);
}

}  // namespace hetflow::core
