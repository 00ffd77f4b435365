#include "hetflow/app/devices_command.hpp"

#include <cstdio>
#include <ostream>

#include "hetflow/core/device_set.hpp"
#include "hetflow/core/probe.hpp"
#include "hetflow/core/selection.hpp"

namespace hetflow::app {
namespace {

std::string gib(std::uint64_t bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f GiB", static_cast<double>(bytes) / (1u << 30));
  return buf;
}

}  // namespace

int devices_command(const std::string& spec, bool bench, std::ostream& out) {
  const std::vector<core::Device> devices = core::select_devices(spec);
  for (const core::Device& d : devices) {
    const core::DeviceInfo& i = d.info;
    out << "[" << i.index << "] " << i.name << "\n"
        << "    platform      " << i.platform << " (" << i.platform_version << ")\n"
        << "    type          " << core::to_string(i.kind) << "\n"
        << "    driver        " << i.driver << "\n"
        << "    memory        " << gib(i.global_mem) << " (largest allocation " << gib(i.max_alloc) << ")\n"
        << "    compute units " << i.compute_units << ", work-group up to " << i.max_work_group << "\n"
        << "    OpenCL C      " << i.opencl_c << "\n"
        << "    fp64          " << (i.fp64 ? "yes" : "no") << "\n";
    if (bench) {
      const core::DeviceSet set({d});
      const core::Bandwidth bw = core::measure_bandwidth(set.compute(0));
      char line[160];
      std::snprintf(line, sizeof line,
                    "    bandwidth     copy %.1f GB/s, triad %.1f GB/s (median of %d, %zu MiB arrays; copy "
                    "min %.1f max %.1f)\n",
                    bw.copy.median, bw.triad.median, bw.copy.repeats, bw.bytes_per_array >> 20, bw.copy.min,
                    bw.copy.max);
      out << line;
    }
  }
  return 0;
}

}  // namespace hetflow::app
