#pragma once
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "hetflow/core/build_options.hpp"
#include "hetflow/core/device.hpp"
#include "hetflow/core/handle.hpp"

namespace hetflow::core {

class Program;

// An OpenCL context on one device, with the programs built for it. hetflow gives each device its own
// context so devices of different platforms (PoCL CPU + NVIDIA GPU) mix freely; copies between devices
// are staged through pinned host memory (see Plan).
class Context {
 public:
  explicit Context(const Device& device);

  cl_context get() const { return handle_.get(); }
  const Device& device() const { return device_; }

  // The program built from the registered kernel file `name` with `options`, built (or loaded from the
  // binary cache) once per context and kept.
  const Program& program(const std::string& name, const BuildOptions& options = {}) const;

  // Extra compiler options appended to every build in this context (a case's device.build_options).
  void set_extra_build_options(std::string options);
  // options followed by the extra options: what build_program() passes to the compiler.
  std::string full_build_options(const std::string& options) const;

 private:
  Device device_;
  ContextHandle handle_;
  struct Programs;
  std::shared_ptr<Programs> programs_;
};

// An in-order command queue with profiling enabled.
class Queue {
 public:
  explicit Queue(const Context& context);

  cl_command_queue get() const { return handle_.get(); }
  const Context& context() const { return context_; }
  void flush() const;
  void finish() const;

 private:
  Context context_;
  QueueHandle handle_;
};

}  // namespace hetflow::core
