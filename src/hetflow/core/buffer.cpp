#include "hetflow/core/buffer.hpp"

namespace hetflow::core::detail {

void throw_range(const char* op, std::size_t offset, std::size_t count, std::size_t size) {
  throw Error(std::string("buffer ") + op + " of " + std::to_string(count) + " elements at offset " +
              std::to_string(offset) + " exceeds the buffer's " + std::to_string(size) + " elements");
}

cl_mem create_buffer(const Context& context, std::size_t bytes, cl_mem_flags flags) {
  const DeviceInfo& info = context.device().info;
  if (bytes > info.max_alloc) {
    throw Error("a buffer of " + std::to_string(bytes >> 20) + " MiB exceeds the largest allocation of " +
                context.device().label() + " (" + std::to_string(info.max_alloc >> 20) + " MiB)");
  }
  cl_int status = CL_SUCCESS;
  cl_mem mem = clCreateBuffer(context.get(), flags, bytes, nullptr, &status);
  check(status, "clCreateBuffer(" + std::to_string(bytes) + " bytes)");
  return mem;
}

void* map_buffer(const Queue& queue, cl_mem mem, MapMode mode, std::size_t byte_offset, std::size_t bytes) {
  const cl_map_flags flags = mode == MapMode::read    ? CL_MAP_READ
                             : mode == MapMode::write ? CL_MAP_WRITE
                                                      : CL_MAP_READ | CL_MAP_WRITE;
  cl_int status = CL_SUCCESS;
  void* ptr = clEnqueueMapBuffer(queue.get(), mem, CL_TRUE, flags, byte_offset, bytes, 0, nullptr, nullptr, &status);
  check(status, "clEnqueueMapBuffer");
  return ptr;
}

void unmap_buffer(const Queue& queue, cl_mem mem, void* ptr) {
  cl_event e = nullptr;
  // Destructors must not throw: an unmap that fails leaves nothing to recover.
  if (clEnqueueUnmapMemObject(queue.get(), mem, ptr, 0, nullptr, &e) == CL_SUCCESS) {
    clWaitForEvents(1, &e);
    clReleaseEvent(e);
  }
}

}  // namespace hetflow::core::detail
