#include "hetflow/tune/probe_tunable.hpp"

#include <algorithm>
#include <charconv>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "hetflow/core/buffer.hpp"
#include "hetflow/core/kernel.hpp"
#include "hetflow/core/probe.hpp"
#include "hetflow/core/program.hpp"

namespace hetflow::tune {
namespace {

constexpr const char* copy_name = "copy_work_group";
constexpr const char* triad_name = "triad_work_group";
constexpr const char* fma_name = "fma_work_group";
constexpr const char* probe_name = "probe";
constexpr const char* probe_class = "f32";
const std::vector<std::string>& probe_files() {
  static const std::vector<std::string> files{"core/probe.cl"};
  return files;
}

// Buffers and kernels shared by every evaluation, and the times measured so far.
struct ProbeState {
  const core::Queue* queue = nullptr;
  std::size_t elements = 0;  // float4 elements per array
  std::size_t fma_items = 0;
  core::Buffer<cl_float4> a, b, c;
  core::Buffer<float> out;
  core::Kernel copy, triad, fma;
  std::map<std::pair<std::string, std::size_t>, double> seconds;

  double time(const std::string& name, const core::Kernel& k, std::size_t items, std::size_t local,
              const MeasureOptions& options) {
    const auto key = std::make_pair(name, local);
    if (const auto it = seconds.find(key); it != seconds.end()) return it->second;
    const core::NDRange global(core::round_up(items, local));
    const double s = measure([&] { return k.launch(*queue, global, core::NDRange(local)).seconds(); }, options).median;
    seconds.emplace(key, s);
    return s;
  }
};

std::size_t kernel_limit(const core::Kernel& k, const core::Queue& q) { return std::min<std::size_t>(1024, k.max_work_group(q)); }

}  // namespace

Tunable probe_tunable(const core::Queue& queue, const MeasureOptions& measure, std::size_t bytes_per_array) {
  const core::Context& ctx = queue.context();
  const core::DeviceInfo& info = ctx.device().info;
  auto state = std::make_shared<ProbeState>();
  state->queue = &queue;
  const std::size_t bytes = bytes_per_array ? bytes_per_array : core::default_probe_bytes(info) / 4;
  state->elements = std::max<std::size_t>(bytes / sizeof(cl_float4), 1);
  const bool gpu = info.kind == core::DeviceKind::gpu;
  state->fma_items = std::max(info.compute_units, 1u) * (gpu ? 8192 : 1024);
  state->a = core::Buffer<cl_float4>(ctx, state->elements);
  state->b = core::Buffer<cl_float4>(ctx, state->elements);
  state->c = core::Buffer<cl_float4>(ctx, state->elements);
  state->out = core::Buffer<float>(ctx, core::round_up(state->fma_items, 1024));
  state->b.fill(queue, cl_float4{{1, 1, 1, 1}});
  state->c.fill(queue, cl_float4{{2, 2, 2, 2}});
  const core::Program& program = ctx.program("core/probe.cl");
  state->copy = program.kernel("probe_copy");
  state->triad = program.kernel("probe_triad");
  state->fma = ctx.program("core/probe.cl", core::BuildOptions(core::Precision::f32)).kernel("probe_fma");
  const cl_ulong n = state->elements;
  state->copy.args(state->a, state->b, n);
  state->triad.args(state->a, state->b, state->c, 3.0f, n);
  // The iteration count of core::FlopOptions' non-GPU default: enough to dwarf the launch, short on a CPU.
  state->fma.args(state->out, 0.999f, 0.001f, cl_uint{1024});

  const std::size_t copy_limit = kernel_limit(state->copy, queue), triad_limit = kernel_limit(state->triad, queue);
  // The defaults are what core::measure_bandwidth and measure_flops use untuned.
  const std::string stream_default = std::min(copy_limit, triad_limit) >= 256 ? "256" : "64";
  Tunable t{probe_name,
            probe_files(),
            probe_class,
            std::to_string(bytes >> 20) + " MiB arrays, " + std::to_string(state->fma_items) + " fma work-items",
            TuningSpace({Dimension::ordered(copy_name, powers_of_two(32, copy_limit)),
                         Dimension::ordered(triad_name, powers_of_two(32, triad_limit)),
                         Dimension::ordered(fma_name, powers_of_two(32, kernel_limit(state->fma, queue)))}),
            {{copy_name, stream_default}, {triad_name, stream_default}, {fma_name, "64"}},
            {},
            {},
            ""};
  t.seconds = [state, measure](const Setting& s) {
    const auto local = [&](const char* name) { return static_cast<std::size_t>(std::stoul(s.at(name))); };
    return state->time("copy", state->copy, state->elements, local(copy_name), measure) +
           state->time("triad", state->triad, state->elements, local(triad_name), measure) +
           state->time("fma", state->fma, state->fma_items, local(fma_name), measure);
  };
  return t;
}

Key probe_key(const core::DeviceInfo& device) { return make_key(probe_name, device, probe_files(), probe_class); }

void apply_probe_tuning(const core::DeviceInfo& device, const Database& db, core::ProbeOptions& options,
                        core::FlopOptions* flops) {
  if (tuning_disabled()) return;
  const std::optional<Entry> entry = db.find(probe_key(device));
  if (!entry) return;
  // A value that is not a size (a hand-edited file) leaves the default: the database is advisory.
  const auto size = [&](const char* name, std::size_t& into) {
    const auto it = entry->best.find(name);
    if (it == entry->best.end()) return;
    std::size_t v = 0;
    const char* end = it->second.data() + it->second.size();
    if (const auto [p, ec] = std::from_chars(it->second.data(), end, v); ec == std::errc() && p == end && v > 0) into = v;
  };
  size(copy_name, options.copy_work_group);
  size(triad_name, options.triad_work_group);
  if (flops) size(fma_name, flops->work_group);
}

}  // namespace hetflow::tune
