#include "hetflow/core/trace.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iomanip>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "hetflow/core/context.hpp"
#include "hetflow/core/error.hpp"

namespace hetflow::core::trace {
namespace {

constexpr std::size_t max_commands = std::size_t{1} << 20;

// A device command, or with no event a host mark.
struct Command {
  std::string device;
  cl_command_queue queue;
  std::string name;
  std::size_t bytes;
  cl_event event;
  std::chrono::steady_clock::time_point host;
};

struct Recorder {
  std::mutex mutex;
  std::vector<Command> commands;
  std::size_t dropped = 0;
};

Recorder& recorder() {
  static Recorder r;
  return r;
}

std::filesystem::path configured_file() {
  const char* file = std::getenv("HETFLOW_TRACE");
  if (!file || !*file) return {};
  std::string path = file;
  if (const char* rank = std::getenv("OMPI_COMM_WORLD_RANK")) path += std::string(".rank") + rank;
  return path;
}

cl_ulong profiling(cl_event e, cl_profiling_info what) {
  cl_ulong t = 0;
  check(clGetEventProfilingInfo(e, what, sizeof t, &t, nullptr), "clGetEventProfilingInfo (trace)");
  return t;
}

}  // namespace

bool enabled() {
  static const bool on = !configured_file().empty();
  return on;
}

void record(const Queue& queue, std::string_view command, cl_event event, std::size_t bytes) {
  if (!enabled() || !event) return;
  Recorder& r = recorder();
  const std::lock_guard lock(r.mutex);
  if (r.commands.size() >= max_commands) {
    ++r.dropped;
    return;
  }
  // The queue too: the timeline is written after the command has let its devices go.
  check(clRetainEvent(event), "clRetainEvent (trace)");
  check(clRetainCommandQueue(queue.get()), "clRetainCommandQueue (trace)");
  r.commands.push_back({queue.context().device().label(), queue.get(), std::string(command), bytes, event,
                        std::chrono::steady_clock::now()});
}

void mark(std::string_view what) {
  if (!enabled()) return;
  Recorder& r = recorder();
  const std::lock_guard lock(r.mutex);
  if (r.commands.size() >= max_commands) {
    ++r.dropped;
    return;
  }
  r.commands.push_back({"host", nullptr, std::string(what), 0, nullptr, std::chrono::steady_clock::now()});
}

std::size_t write(const std::filesystem::path& file) {
  Recorder& r = recorder();
  const std::lock_guard lock(r.mutex);
  // One by one: a wait list may not mix contexts.
  for (const Command& c : r.commands)
    if (c.event) check(clWaitForEvents(1, &c.event), "clWaitForEvents (trace)");

  // Device clocks are not comparable across devices: times count from each device's first start.
  std::map<std::string, cl_ulong> origin;
  std::map<std::string, std::vector<cl_command_queue>> queues;
  for (const Command& c : r.commands) {
    if (!c.event) continue;
    const cl_ulong start = profiling(c.event, CL_PROFILING_COMMAND_START);
    auto [it, fresh] = origin.emplace(c.device, start);
    if (!fresh) it->second = std::min(it->second, start);
    std::vector<cl_command_queue>& q = queues[c.device];
    if (std::find(q.begin(), q.end(), c.queue) == q.end()) q.push_back(c.queue);
  }
  std::ofstream out(file);
  if (!out) throw Error("HETFLOW_TRACE: cannot write " + file.string());
  out << "device,queue,command,bytes,queued_us,submitted_us,started_us,ended_us,duration_us,host_us\n"
      << std::fixed << std::setprecision(3);
  // A CSV field: quoted, its quotes doubled.
  const auto quoted = [](std::string text) {
    for (std::size_t at = text.find('"'); at != std::string::npos; at = text.find('"', at + 2)) text.insert(at, 1, '"');
    return '"' + text + '"';
  };
  const auto host_origin = r.commands.empty() ? std::chrono::steady_clock::time_point{} : r.commands.front().host;
  for (const Command& c : r.commands) {
    const double host = std::chrono::duration<double, std::micro>(c.host - host_origin).count();
    if (!c.event) {
      out << "\"host\",," << quoted(c.name) << ",0,,,,,," << host << '\n';
      continue;
    }
    const double t0 = static_cast<double>(origin[c.device]);
    auto us = [&](cl_profiling_info what) { return (static_cast<double>(profiling(c.event, what)) - t0) * 1e-3; };
    const std::vector<cl_command_queue>& q = queues[c.device];
    const double start = us(CL_PROFILING_COMMAND_START), end = us(CL_PROFILING_COMMAND_END);
    out << quoted(c.device) << ',' << (std::find(q.begin(), q.end(), c.queue) - q.begin()) << ',' << c.name << ','
        << c.bytes << ',' << us(CL_PROFILING_COMMAND_QUEUED) << ',' << us(CL_PROFILING_COMMAND_SUBMIT) << ','
        << start << ',' << end << ',' << end - start << ',' << host << '\n';
  }
  if (r.dropped) out << "# " << r.dropped << " later commands not recorded (at most " << max_commands << ")\n";
  const std::size_t written = r.commands.size();
  for (const Command& c : r.commands) {
    if (!c.event) continue;
    clReleaseEvent(c.event);
    clReleaseCommandQueue(c.queue);
  }
  r.commands.clear();
  r.dropped = 0;
  return written;
}

std::size_t write() { return enabled() ? write(configured_file()) : 0; }

}  // namespace hetflow::core::trace
