#pragma once
#include <utility>

#include "hetflow/core/cl.hpp"

namespace hetflow::core {

// Shared ownership of an OpenCL object through its own reference count: copying retains,
// destruction releases, so every hetflow type that holds an OpenCL object is RAII and copyable.
template <class T, cl_int (*Retain)(T), cl_int (*Release)(T)>
class Handle {
 public:
  Handle() = default;
  // Takes over a reference the caller already owns (what clCreate* returns).
  explicit Handle(T raw) : raw_(raw) {}
  Handle(const Handle& other) : raw_(other.raw_) {
    if (raw_) Retain(raw_);
  }
  Handle(Handle&& other) noexcept : raw_(std::exchange(other.raw_, nullptr)) {}
  Handle& operator=(Handle other) noexcept {
    std::swap(raw_, other.raw_);
    return *this;
  }
  ~Handle() {
    if (raw_) Release(raw_);
  }

  T get() const { return raw_; }
  explicit operator bool() const { return raw_ != nullptr; }

 private:
  T raw_ = nullptr;
};

using ContextHandle = Handle<cl_context, clRetainContext, clReleaseContext>;
using QueueHandle = Handle<cl_command_queue, clRetainCommandQueue, clReleaseCommandQueue>;
using MemHandle = Handle<cl_mem, clRetainMemObject, clReleaseMemObject>;
using EventHandle = Handle<cl_event, clRetainEvent, clReleaseEvent>;
using ProgramHandle = Handle<cl_program, clRetainProgram, clReleaseProgram>;
using KernelHandle = Handle<cl_kernel, clRetainKernel, clReleaseKernel>;

}  // namespace hetflow::core
