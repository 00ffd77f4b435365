#pragma once
#include <chrono>
#include <condition_variable>
#include <iostream>
#include <map>
#include <mutex>
#include <thread>

#include "hetflow/core/build_notice.hpp"
#include "hetflow/display/progress.hpp"

namespace hetflow::app {

// Says so on `out` when a kernel build that missed the cache has run for `after`: "hetflow: building
// RADAU5 kernel for gri30.yaml (53 species) on <device>, first time only…", then "hetflow: built … in
// S s" (its seconds) when it ends. Shorter builds stay silent, so a warm cache prints nothing.
// Installed as core's build listener while it lives; quiet prints nothing and installs nothing.
class BuildNotices final : public core::BuildListener {
 public:
  explicit BuildNotices(display::Verbosity verbosity, std::ostream& out = std::cerr,
                        std::chrono::milliseconds after = std::chrono::seconds(1));
  ~BuildNotices() override;
  BuildNotices(const BuildNotices&) = delete;
  BuildNotices& operator=(const BuildNotices&) = delete;

  void started(const core::BuildNotice& build) override;
  void finished(const core::BuildNotice& build, double seconds) override;

 private:
  struct Pending {
    core::BuildNotice build;
    std::chrono::steady_clock::time_point due;
    bool announced = false;
  };
  void watch();
  void announce(Pending& p);  // with mutex_ held

  std::ostream& out_;
  const std::chrono::milliseconds after_;
  const bool active_;
  core::BuildListener* previous_ = nullptr;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::map<std::thread::id, Pending> pending_;  // one build at a time per thread
  bool stop_ = false;
  std::thread watcher_;
};

}  // namespace hetflow::app
