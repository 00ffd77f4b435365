#include "hetflow/core/event.hpp"

#include "hetflow/core/error.hpp"

namespace hetflow::core {
namespace {

cl_ulong profiling(cl_event e, cl_profiling_info what) {
  cl_ulong t = 0;
  check(clGetEventProfilingInfo(e, what, sizeof(t), &t, nullptr), "clGetEventProfilingInfo");
  return t;
}

}  // namespace

void Event::wait() const {
  if (!handle_) return;
  cl_event e = handle_.get();
  check(clWaitForEvents(1, &e), "clWaitForEvents");
}

bool Event::complete() const {
  if (!handle_) return true;
  cl_int status = 0;
  check(clGetEventInfo(handle_.get(), CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(status), &status, nullptr),
        "clGetEventInfo");
  if (status < 0) throw ClError(status, "a command on the device");
  return status == CL_COMPLETE;
}

double Event::seconds() const { return seconds_until(*this); }

double Event::seconds_until(const Event& later) const {
  wait();
  later.wait();
  const cl_ulong start = profiling(get(), CL_PROFILING_COMMAND_START);
  const cl_ulong end = profiling(later.get(), CL_PROFILING_COMMAND_END);
  return end > start ? static_cast<double>(end - start) * 1e-9 : 0.0;
}

std::vector<cl_event> raw_events(std::span<const Event> events) {
  std::vector<cl_event> raw;
  raw.reserve(events.size());
  for (const Event& e : events) {
    if (e) raw.push_back(e.get());
  }
  return raw;
}

void wait_all(std::span<const Event> events) {
  // One at a time: clWaitForEvents refuses a list whose events belong to different contexts.
  for (const Event& e : events) e.wait();
}

}  // namespace hetflow::core
