#include "hetflow/core/probe.hpp"

#include <algorithm>
#include <cstdint>
#include <vector>

#include "hetflow/core/buffer.hpp"
#include "hetflow/core/kernel.hpp"
#include "hetflow/core/kernel_args.hpp"
#include "hetflow/core/program.hpp"

namespace hetflow::core {

std::size_t default_probe_bytes(const DeviceInfo& device) {
  const std::size_t target = device.kind == DeviceKind::gpu ? (std::size_t{1} << 30) : (std::size_t{256} << 20);
  // Three arrays must fit beside whatever else the device holds.
  const std::size_t cap = std::min<std::size_t>(device.max_alloc, device.global_mem / 8);
  return std::max<std::size_t>(std::min(target, cap) / 16 * 16, 16);
}

Bandwidth measure_bandwidth(const Queue& queue, const ProbeOptions& options) {
  const Context& ctx = queue.context();
  const std::size_t bytes = options.bytes_per_array ? options.bytes_per_array : default_probe_bytes(ctx.device().info);
  const std::size_t n = bytes / sizeof(cl_float4);
  if (n == 0) throw Error("the bandwidth probe needs arrays of at least 16 bytes");
  Buffer<cl_float4> a(ctx, n), b(ctx, n), c(ctx, n);
  b.fill(queue, cl_float4{{1, 1, 1, 1}}, 0, to_end);
  c.fill(queue, cl_float4{{2, 2, 2, 2}}, 0, to_end);
  const Program& program = ctx.program("core/probe.cl");
  Kernel copy = program.kernel("probe_copy");
  Kernel triad = program.kernel("probe_triad");
  const cl_ulong count = n;
  copy.args(a, b, count);
  triad.args(a, b, c, 3.0f, count);
  const std::size_t fallback = 256 <= std::min(copy.max_work_group(queue), triad.max_work_group(queue)) ? 256 : 64;

  auto time = [&](const Kernel& k, std::size_t local, double arrays) {
    const NDRange global(round_up(n, local));
    for (int i = 0; i < options.warmup; ++i) k.launch(queue, global, NDRange(local)).wait();
    std::vector<double> rates;
    for (int i = 0; i < options.repeats; ++i) {
      const double s = k.launch(queue, global, NDRange(local)).seconds();
      rates.push_back(arrays * static_cast<double>(n * sizeof(cl_float4)) / s * 1e-9);
    }
    return summarize(rates);
  };
  Bandwidth result;
  result.bytes_per_array = n * sizeof(cl_float4);
  result.copy_work_group = options.copy_work_group ? options.copy_work_group : fallback;
  result.triad_work_group = options.triad_work_group ? options.triad_work_group : fallback;
  result.copy = time(copy, result.copy_work_group, 2.0);
  result.triad = time(triad, result.triad_work_group, 3.0);
  return result;
}

FlopRate measure_flops(const Queue& queue, Precision precision, const FlopOptions& options) {
  const Context& ctx = queue.context();
  const DeviceInfo& info = ctx.device().info;
  if (precision == Precision::f64 && !info.fp64) throw Error(ctx.device().label() + " has no double precision");
  const bool gpu = info.kind == DeviceKind::gpu;
  const std::size_t units = std::max(info.compute_units, 1u);
  const std::size_t local = options.work_group ? options.work_group : 64;
  const std::size_t items = round_up(options.work_items ? options.work_items : units * (gpu ? 8192 : 1024), local);
  const unsigned iterations = options.iterations ? options.iterations : (gpu ? 2048u : 1024u);
  const std::size_t real = precision == Precision::f64 ? 8 : 4;
  Buffer<std::uint8_t> out(ctx, items * real);
  Kernel k = ctx.program("core/probe.cl", BuildOptions(precision)).kernel("probe_fma");
  KernelArgs(k, precision).add(out).real(0.999).real(0.001).add(static_cast<cl_uint>(iterations));
  const double flops = 4.0 * probe_fma_chains * static_cast<double>(iterations) * static_cast<double>(items);
  for (int i = 0; i < options.warmup; ++i) k.launch(queue, NDRange(items), NDRange(local)).wait();
  std::vector<double> rates;
  for (int i = 0; i < options.repeats; ++i) {
    rates.push_back(flops / k.launch(queue, NDRange(items), NDRange(local)).seconds() * 1e-9);
  }
  return {precision, items, iterations, summarize(rates)};
}

}  // namespace hetflow::core
