// Radau5's chunking: how a batch's systems are split over the devices and into chunks that fit the
// memory budget, and the buffers each device keeps for them.
#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>

#include "hetflow/core/error.hpp"
#include "hetflow/core/partition.hpp"
#include "hetflow/ode/radau5.hpp"
#include "hetflow/ode/radau5_buffers.hpp"
#include "hetflow/ode/radau5_launch.hpp"

namespace hetflow::ode {

using detail::counter_count;
using detail::phased_bytes;
using detail::phased_matrix_doubles;
using detail::Slot;

std::vector<ChunkPlan> Radau5::plan(std::size_t systems, bool per_system_times, std::size_t samples,
                                    bool per_system_samples) const {
  const auto n = static_cast<std::size_t>(system_.n);
  const std::size_t np = system_.parameters;
  const std::size_t times = per_system_times ? 2 : 0;
  // Dense output: each system's sampled states, and their times where each system has its own.
  const std::size_t sample_doubles = samples * n + (per_system_samples ? samples : 0);
  const std::size_t shared_samples = per_system_samples ? 0 : samples;
  const bool phased = mapping(systems) == Mapping::phased;
  const core::Partition split(systems, 1, core::distribution_weights(core::Distribution::uniform, *devices_));
  const bool group = mapping(systems) == Mapping::work_group;
  std::vector<ChunkPlan> plans(parts_.size());
  for (std::size_t k = 0; k < parts_.size(); ++k) {
    const core::Device& d = devices_->device(k);
    // Per system in a chunk: y, parameters, its times, the reached t and h, the counters, its samples,
    // and its matrices where the kernel keeps them beside the chunk.
    const bool matrices = phased || launch::system_matrices(d, options_, mapping(systems), system_);
    const std::size_t matrix = launch::matrix_doubles(system_);
    const std::size_t per_system = sizeof(double) * (n + np + times + 2 + sample_doubles) +
                                   sizeof(std::int64_t) * counter_count + (matrices ? phased_bytes(n, matrix) : 0);
    const std::size_t largest =
        std::max({n, np, counter_count, samples * n, matrices ? phased_matrix_doubles(matrix) : 0}) * sizeof(double);
    ChunkPlan& p = plans[k];
    p.first = split.share(k).offset;
    p.systems = split.share(k).count;
    p.system_bytes = per_system;
    p.budget = options_.memory_budget ? options_.memory_budget : static_cast<std::size_t>(d.info.global_mem / 4);
    // Held whatever the chunking: the kernel's scratch, the tolerances and settings, shared times and
    // shared sample times.
    const std::size_t scratch =
        sizeof(double) * std::max<std::size_t>(launch::scratch_doubles(d, system_, mapping(systems), options_), 1) +
        sizeof(cl_int) * (group ? launch::group_scratch_pivots(d, system_, options_) : 1);
    const std::size_t fixed =
        scratch + sizeof(double) * (system_.tables.size() + tolerances_.size() + settings_.size() +
                                    (per_system_times ? 0 : 2) + shared_samples);
    if (p.systems == 0) continue;
    std::size_t chunk = p.systems;
    if (fixed + p.systems * per_system > p.budget) {
      // Two chunk buffers in rotation share what the per-device data leaves.
      chunk = p.budget > fixed ? (p.budget - fixed) / (2 * per_system) : 0;
      if (chunk == 0)
        throw core::Error("ODE memory_budget = " + std::to_string(p.budget) + " bytes on " + d.label() +
                          " cannot hold one system: each of the two chunk buffers needs " +
                          std::to_string(per_system) + " bytes per system, beside " + std::to_string(fixed) +
                          " bytes of per-device data (at least " + std::to_string(fixed + 2 * per_system) +
                          " bytes)");
    }
    if (options_.chunk_systems) chunk = std::min(chunk, options_.chunk_systems);
    // No single buffer may pass the device's allocation limit.
    if (d.info.max_alloc)
      chunk = std::max<std::size_t>(1, std::min<std::size_t>(chunk, d.info.max_alloc / largest));
    p.chunks = (p.systems + chunk - 1) / chunk;
    // Even chunks rather than a short last one: the launches take similar times, so the overlap holds.
    p.chunk_systems = (p.systems + p.chunks - 1) / p.chunks;
    p.device_bytes = fixed + std::min<std::size_t>(p.chunks, 2) * p.chunk_systems * per_system;
  }
  return plans;
}

// Device k's pipeline for a run planned as p, made or grown here and kept for later runs.
Radau5::Pipeline& Radau5::pipeline(std::size_t k, const ChunkPlan& p, bool per_system_times, bool phased,
                                   std::size_t samples, bool per_system_samples) const {
  std::unique_ptr<Pipeline>& pipe = pipes_[k];
  const core::Context& ctx = devices_->context(k);
  const core::Queue& tq = devices_->transfer(k);
  if (!pipe) {
    pipe = std::make_unique<Pipeline>();
    pipe->tol = core::Buffer<double>(ctx, tolerances_.size());
    pipe->tol.write(tq, tolerances_, 0, core::Blocking::no);
    pipe->settings = core::Buffer<double>(ctx, settings_.size());
    pipe->settings.write(tq, settings_, 0, core::Blocking::no);
    pipe->t0 = core::Buffer<double>(ctx, 1);
    pipe->t_end = core::Buffer<double>(ctx, 1);
  }
  if (const std::size_t shared = per_system_samples ? 0 : samples; pipe->sample_times.size() < shared)
    pipe->sample_times = core::Buffer<double>(ctx, shared);
  // A run that threw may have left transfers and kernels in flight that use the slots.
  for (Slot& s : pipe->slots)
    if (s.count != 0) {
      devices_->compute(k).finish();
      tq.finish();
      s.count = 0;
    }
  const std::size_t slot_count = std::min<std::size_t>(p.chunks, 2);
  std::size_t capacity = p.chunk_systems;
  bool times = per_system_times, with_phased = phased, fits = pipe->slots.size() >= slot_count;
  for (const Slot& s : pipe->slots) {
    fits = fits && s.capacity >= p.chunk_systems && (s.per_system_times || !per_system_times) &&
           (s.phased || !phased);
    capacity = std::max(capacity, s.capacity);
    times = times || s.per_system_times;
    with_phased = with_phased || s.phased;
  }
  if (!fits) {
    // Released before the larger ones are allocated.
    pipe->slots.clear();
    pipe->slots.reserve(slot_count);
    for (std::size_t i = 0; i < slot_count; ++i)
      pipe->slots.emplace_back(ctx, tq, capacity, static_cast<std::size_t>(system_.n), launch::matrix_doubles(system_),
                               system_.parameters, times ? capacity : 0, with_phased);
  }
  for (Slot& s : pipe->slots)
    s.hold_samples(ctx, tq, p.chunk_systems * samples * static_cast<std::size_t>(system_.n),
                   per_system_samples ? p.chunk_systems * samples : 0);
  return *pipe;
}

}  // namespace hetflow::ode
