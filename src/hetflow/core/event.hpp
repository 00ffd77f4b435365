#pragma once
#include <chrono>
#include <span>
#include <vector>

#include "hetflow/core/handle.hpp"

namespace hetflow::core {

// A command's completion event. Device time comes from OpenCL profiling, which every hetflow
// queue enables, so benchmarks time kernels and transfers without host-side noise.
class Event {
 public:
  Event() = default;
  explicit Event(cl_event raw) : handle_(raw) {}

  cl_event get() const { return handle_.get(); }
  explicit operator bool() const { return static_cast<bool>(handle_); }

  void wait() const;
  bool complete() const;
  // Seconds from the command's start to its end on the device.
  double seconds() const;
  // Seconds from this event's start to `later`'s end (a span of several commands).
  double seconds_until(const Event& later) const;

 private:
  EventHandle handle_;
};

// Waits for every event that is set, whatever its context; empty events are skipped.
void wait_all(std::span<const Event> events);

// The raw cl_event list of the set events, for an enqueue's wait list.
std::vector<cl_event> raw_events(std::span<const Event> events);

// Host wall clock for spans that include host work.
class WallTimer {
 public:
  WallTimer() : start_(std::chrono::steady_clock::now()) {}
  void restart() { start_ = std::chrono::steady_clock::now(); }
  double seconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  }

 private:
  std::chrono::steady_clock::time_point start_;
};

}  // namespace hetflow::core
