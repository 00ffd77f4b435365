#pragma once
#include <cstddef>
#include <filesystem>
#include <string_view>

#include "hetflow/core/cl.hpp"

namespace hetflow::core {

class Queue;

// A timeline of the commands hetflow enqueues, for finding what sits on a run's critical path (which
// kernel waits for which transfer, where a device idles). With HETFLOW_TRACE=FILE in the environment
// every kernel launch and buffer command keeps its event; trace::write() then writes FILE as CSV, one
// row per command: device, queue (numbered per device in order of first use), command (kernel name or
// read/write/fill/copy), bytes moved, the device times queued, submitted, started and ended in µs from
// the first start on that device, and the host's time when the command was recorded (its enqueue call
// returned: for a blocking transfer, once done), in µs from the first row (one clock for every device).
// Host phases named by mark() are rows of device "host" with the host time alone, so that a timeline shows
// what the host did between commands. Under mpiexec each rank writes FILE.rankN. Off, it costs one branch
// per command or mark.
namespace trace {

// Whether HETFLOW_TRACE was set when the first command was recorded.
bool enabled();
// Keeps `event` (retained) of a command on `queue`; a no-op when tracing is off or `event` is null. At
// most 2^20 commands are kept; the rest are counted and reported in the file's last line.
void record(const Queue& queue, std::string_view command, cl_event event, std::size_t bytes = 0);
// Keeps a host row named `what` at the host's present time: the end of a phase of host work.
void mark(std::string_view what);
// Waits for the recorded commands, writes them to `file` and forgets them; returns how many were written.
std::size_t write(const std::filesystem::path& file);
// write() to the file HETFLOW_TRACE names (with the rank suffix); does nothing when tracing is off.
std::size_t write();

}  // namespace trace
}  // namespace hetflow::core
