#include "hetflow/core/program.hpp"

#include <cstdlib>
#include <iostream>
#include <vector>

#include "hetflow/core/binary_cache.hpp"
#include "hetflow/core/build_notice.hpp"
#include "hetflow/core/context.hpp"
#include "hetflow/core/error.hpp"

namespace hetflow::core {
namespace {

std::string build_log(cl_program program, cl_device_id device) {
  std::size_t n = 0;
  if (clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &n) != CL_SUCCESS) return {};
  std::string log(n, '\0');
  clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, n, log.data(), nullptr);
  while (!log.empty() && (log.back() == '\0' || log.back() == '\n')) log.pop_back();
  return log;
}

std::vector<unsigned char> program_binary(cl_program program) {
  std::size_t size = 0;
  check(clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizeof(size), &size, nullptr), "clGetProgramInfo");
  std::vector<unsigned char> binary(size);
  unsigned char* ptr = binary.data();
  if (size > 0) check(clGetProgramInfo(program, CL_PROGRAM_BINARIES, sizeof(ptr), &ptr, nullptr), "clGetProgramInfo");
  return binary;
}

// A cached binary that the driver refuses (e.g. after a driver update that kept its version string)
// yields no program; the caller then compiles from source.
ProgramHandle from_binary(const Context& context, std::span<const unsigned char> binary, const std::string& options) {
  const cl_device_id device = context.device().id;
  const std::size_t size = binary.size();
  const unsigned char* data = binary.data();
  cl_int binary_status = CL_SUCCESS;
  cl_int status = CL_SUCCESS;
  ProgramHandle program(clCreateProgramWithBinary(context.get(), 1, &device, &size, &data, &binary_status, &status));
  if (status != CL_SUCCESS || binary_status != CL_SUCCESS) return {};
  if (clBuildProgram(program.get(), 1, &device, options.c_str(), nullptr, nullptr) != CL_SUCCESS) return {};
  return program;
}

// Compiles `source` for the device and stores the binary in the cache under `key`.
ProgramHandle compile(cl_context context, const Device& device, const std::string& name, const std::string& source,
                      const std::string& options, const BinaryCache& cache, const std::string& key) {
  const CompileScope compiling(name, device.label());
  const char* text = source.c_str();
  const std::size_t length = source.size();
  cl_int status = CL_SUCCESS;
  ProgramHandle program(clCreateProgramWithSource(context, 1, &text, &length, &status));
  check(status, "clCreateProgramWithSource(" + name + ")");
  status = clBuildProgram(program.get(), 1, &device.id, options.c_str(), nullptr, nullptr);
  if (status == CL_BUILD_PROGRAM_FAILURE || status == CL_INVALID_BUILD_OPTIONS) {
    std::string log = build_log(program.get(), device.id);
    if (status == CL_INVALID_BUILD_OPTIONS) log = "the compiler rejected the options" + (log.empty() ? "" : ":\n" + log);
    throw KernelBuildError(name, options, device.label(), log.empty() ? "(the compiler gave no log)" : log);
  }
  check(status, "clBuildProgram(" + name + ")");
  // Compiler statistics (e.g. NVIDIA's -cl-nv-verbose register counts) for whoever tunes kernels.
  if (std::getenv("HETFLOW_BUILD_LOG")) {
    std::cerr << "hetflow: built " << name << " for " << device.label() << " with '" << options << "':\n"
              << build_log(program.get(), device.id) << "\n";
  }
  cache.store(key, program_binary(program.get()));
  return program;
}

KernelHandle create_kernel(const ProgramHandle& program, const std::string& entry, cl_int& status) {
  return KernelHandle(clCreateKernel(program.get(), entry.c_str(), &status));
}

}  // namespace

Program::Program(ProgramHandle handle, std::string name, std::string options, std::shared_ptr<const Origin> cached_from)
    : state_(std::make_shared<State>()), name_(std::move(name)), options_(std::move(options)) {
  state_->handle = std::move(handle);
  state_->cached_from = std::move(cached_from);
}

cl_program Program::get() const {
  const std::lock_guard lock(state_->mutex);
  return state_->handle.get();
}

bool Program::from_cache() const {
  const std::lock_guard lock(state_->mutex);
  return state_->cached_from != nullptr;
}

Kernel Program::kernel(const std::string& entry) const {
  const std::lock_guard lock(state_->mutex);
  cl_int status = CL_SUCCESS;
  KernelHandle k = create_kernel(state_->handle, entry, status);
  if (status == CL_INVALID_KERNEL_NAME && state_->cached_from) {
    // Kernels made from the stale program keep it alive; the rebuilt one serves every later request.
    const std::shared_ptr<const Origin> origin = std::move(state_->cached_from);
    const Origin& o = *origin;
    state_->handle = compile(o.context.get(), o.device, name_, o.source, options_, BinaryCache::from_environment(),
                             o.cache_key);
    std::cerr << "hetflow: the cached binary of " << name_ << " for " << o.device.label() << " had no kernel '"
              << entry << "'; rebuilt it from source and replaced the cache entry\n";
    k = create_kernel(state_->handle, entry, status);
  }
  if (status == CL_INVALID_KERNEL_NAME) {
    throw Error("kernel file '" + name_ + "' has no kernel named '" + entry + "'");
  }
  check(status, "clCreateKernel(" + entry + ")");
  return Kernel(std::move(k), entry);
}

Program build_program(const Context& context, const std::string& name, const std::string& source,
                      const std::string& requested) {
  const std::string options = context.full_build_options(requested);
  const Device& device = context.device();
  const BinaryCache cache = BinaryCache::from_environment();
  const std::string key = BinaryCache::key(source, options, device.info);
  if (const auto binary = cache.load(key)) {
    if (ProgramHandle program = from_binary(context, *binary, options)) {
      check(clRetainContext(context.get()), "clRetainContext");
      auto origin =
          std::make_shared<const Program::Origin>(Program::Origin{ContextHandle(context.get()), device, source, key});
      return Program(std::move(program), name, options, std::move(origin));
    }
    cache.remove(key);
  }
  return Program(compile(context.get(), device, name, source, options, cache, key), name, options, nullptr);
}

}  // namespace hetflow::core
