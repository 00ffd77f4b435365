#pragma once
#include <memory>
#include <mutex>
#include <string>

#include "hetflow/core/device.hpp"
#include "hetflow/core/handle.hpp"
#include "hetflow/core/kernel.hpp"

namespace hetflow::core {

class Context;

// A program built for one context's device. Copies share the program.
class Program {
 public:
  // What a program loaded from the binary cache needs to compile its source again.
  struct Origin {
    ContextHandle context;
    Device device;
    std::string source;
    std::string cache_key;
  };

  Program(ProgramHandle handle, std::string name, std::string options, std::shared_ptr<const Origin> cached_from);

  cl_program get() const;
  const std::string& name() const { return name_; }
  const std::string& options() const { return options_; }
  // True when the binary came from the persistent cache instead of the compiler.
  bool from_cache() const;

  // A program from the cache that lacks `entry` is a stale entry (e.g. a binary stored under another
  // source's key): it is compiled from source, replaces the entry, and a line on stderr says so.
  Kernel kernel(const std::string& entry) const;

 private:
  struct State {
    std::mutex mutex;  // held while kernel() swaps in a rebuilt program
    ProgramHandle handle;
    std::shared_ptr<const Origin> cached_from;  // null once compiled from source
  };
  std::shared_ptr<State> state_;
  std::string name_;
  std::string options_;
};

// Builds `source` for the context's device with `options` and the context's extra options, through the
// persistent binary cache (BinaryCache::from_environment()). A compile error throws KernelBuildError with
// the full log.
Program build_program(const Context& context, const std::string& name, const std::string& source,
                      const std::string& options);

}  // namespace hetflow::core
