#include "hetflow/app/probe/probe_bench.hpp"

#include "hetflow/app/bench/reference.hpp"

namespace hetflow::app {

BenchReport probe_benchmark(const core::DeviceSet& devices, const BenchOptions& options) {
  const core::Queue& queue = devices.compute(0);
  BenchReport report{"probe", devices.device(0).info, 0, {}};
  const std::size_t full = core::default_probe_bytes(devices.device(0).info);
  for (std::size_t bytes : {full, full / 4, full / 16}) {
    core::ProbeOptions o;
    o.bytes_per_array = bytes;
    o.repeats = options.repeats;
    const core::Bandwidth bw = reference_bandwidth(queue, o);
    if (bytes == full) report.reference_bandwidth_GBs = bw.copy.median;
    const std::string mib = std::to_string(bw.bytes_per_array >> 20) + " MiB";
    // bytes_per_unit: bytes read plus written per float4 element.
    const nlohmann::json params = {{"bytes_per_array", bw.bytes_per_array}, {"element", "float4"}};
    nlohmann::json copy = params, triad = params;
    copy["work_group"] = bw.copy_work_group;
    triad["work_group"] = bw.triad_work_group;
    report.add({"copy " + mib, "GB/s", bw.copy, 32.0, bw.copy.median / report.reference_bandwidth_GBs, copy});
    report.add({"triad " + mib, "GB/s", bw.triad, 48.0, bw.triad.median / report.reference_bandwidth_GBs, triad});
  }
  return report;
}

}  // namespace hetflow::app
