#pragma once
#include <chrono>
#include <string>

namespace hetflow::core {

// A program build that misses the binary cache, told to whoever listens, so that a front end can say
// why a run waits; core prints nothing itself.
struct BuildNotice {
  std::string what;    // the innermost BuildLabel of the building thread, else the program's name
  std::string device;  // Device::label()
};

// Told when a build that misses the cache starts and when it ends (also when the compiler fails), on
// the building thread, which may be any.
class BuildListener {
 public:
  virtual ~BuildListener() = default;
  virtual void started(const BuildNotice& build) = 0;
  virtual void finished(const BuildNotice& build, double seconds) = 0;
};

// The process's listener, or nullptr (the default) for none. The listener must outlive its setting.
void set_build_listener(BuildListener* listener);
BuildListener* build_listener();

// Names the builds of this thread while it lives, e.g. "RADAU5 kernel for gri30.yaml (53 species)";
// labels nest, the innermost one names.
class BuildLabel {
 public:
  explicit BuildLabel(std::string what);
  ~BuildLabel();
  BuildLabel(const BuildLabel&) = delete;
  BuildLabel& operator=(const BuildLabel&) = delete;

 private:
  std::string previous_;
};

// Seconds this process has spent in builds that missed the cache, on all threads together.
double compile_seconds();

// One build that misses the cache, while it lives (build_program): the listener's started() and
// finished(), and its seconds added to compile_seconds().
class CompileScope {
 public:
  CompileScope(const std::string& name, const std::string& device);
  ~CompileScope();
  CompileScope(const CompileScope&) = delete;
  CompileScope& operator=(const CompileScope&) = delete;

 private:
  BuildNotice notice_;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace hetflow::core
