#include "hetflow/core/context.hpp"

#include "hetflow/core/error.hpp"
#include "hetflow/core/program.hpp"
#include "hetflow/core/registry.hpp"

namespace hetflow::core {

struct Context::Programs {
  std::mutex mutex;  // held while a program builds
  std::mutex options_mutex;
  std::string extra_options;
  std::map<std::string, Program> built;
};

Context::Context(const Device& device) : device_(device), programs_(std::make_shared<Programs>()) {
  cl_int status = CL_SUCCESS;
  const cl_context_properties props[] = {CL_CONTEXT_PLATFORM, reinterpret_cast<cl_context_properties>(device.platform),
                                         0};
  handle_ = ContextHandle(clCreateContext(props, 1, &device.id, nullptr, nullptr, &status));
  check(status, "clCreateContext(" + device.label() + ")");
}

void Context::set_extra_build_options(std::string options) {
  const std::lock_guard lock(programs_->options_mutex);
  programs_->extra_options = std::move(options);
}

std::string Context::full_build_options(const std::string& options) const {
  const std::lock_guard lock(programs_->options_mutex);
  const std::string& extra = programs_->extra_options;
  if (extra.empty()) return options;
  std::string all = options;
  if (!all.empty()) all += ' ';
  return all += extra;
}

const Program& Context::program(const std::string& name, const BuildOptions& options) const {
  if (options.needs_fp64() && !device_.info.fp64) {
    throw Error("kernel '" + name + "' needs double precision, which " + device_.label() +
                " does not support; use single precision (float) on this device");
  }
  const std::lock_guard lock(programs_->mutex);
  const std::string key = name + '\n' + full_build_options(options.str());
  auto it = programs_->built.find(key);
  if (it == programs_->built.end()) {
    it = programs_->built.emplace(key, build_program(*this, name, kernel_source(name), options.str())).first;
  }
  return it->second;
}

Queue::Queue(const Context& context) : context_(context) {
  cl_int status = CL_SUCCESS;
  handle_ = QueueHandle(
      clCreateCommandQueue(context.get(), context.device().id, CL_QUEUE_PROFILING_ENABLE, &status));
  check(status, "clCreateCommandQueue(" + context.device().label() + ")");
}

void Queue::flush() const { check(clFlush(get()), "clFlush"); }
void Queue::finish() const { check(clFinish(get()), "clFinish"); }

}  // namespace hetflow::core
