#pragma once
#include <string>

#include "hetflow/core/handle.hpp"
#include "hetflow/core/kernel.hpp"

namespace hetflow::core {

class Context;

// A program built for one context's device.
class Program {
 public:
  Program(ProgramHandle handle, std::string name, std::string options, bool from_cache)
      : handle_(std::move(handle)), name_(std::move(name)), options_(std::move(options)), from_cache_(from_cache) {}

  cl_program get() const { return handle_.get(); }
  const std::string& name() const { return name_; }
  const std::string& options() const { return options_; }
  // True when the binary came from the persistent cache instead of the compiler.
  bool from_cache() const { return from_cache_; }

  Kernel kernel(const std::string& entry) const;

 private:
  ProgramHandle handle_;
  std::string name_;
  std::string options_;
  bool from_cache_;
};

// Builds `source` for the context's device with `options` and the context's extra options, through the
// persistent binary cache (BinaryCache::from_environment()). A compile error throws KernelBuildError with
// the full log.
Program build_program(const Context& context, const std::string& name, const std::string& source,
                      const std::string& options);

}  // namespace hetflow::core
