#pragma once
// What Radau5 keeps on each device: the built kernels with their scratch (Radau5::Device), and the
// buffers a run's chunks go through (Radau5::Pipeline, Slot), with the sizes they are made from.
// Internal to the ode module.
#include <algorithm>
#include <span>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "hetflow/core/buffer.hpp"
#include "hetflow/core/kernel.hpp"
#include "hetflow/core/parallel.hpp"
#include "hetflow/core/program.hpp"
#include "hetflow/ode/radau5.hpp"

namespace hetflow::ode {
namespace detail {

// radau5.cl's C_* counters per system.
inline constexpr std::size_t counter_count = 8;

// phased_state.cl's layout per system: the record (20 scalars, then f(x, y) and the three divided
// differences), the matrices J, E1, E2 (real and imaginary; `matrix` doubles each, launch::matrix_doubles)
// and the two pivot vectors.
inline std::size_t phased_state_doubles(std::size_t n) { return 20 + 4 * n; }
inline std::size_t phased_matrix_doubles(std::size_t matrix) { return 4 * matrix; }
inline std::size_t phased_pivots(std::size_t n) { return 2 * n; }
// What the phased mapping holds per system beside the batch's own data: the record, the matrices, the
// pivots and the system's place in each of the three lists of the passes.
inline std::size_t phased_bytes(std::size_t n, std::size_t matrix) {
  return sizeof(double) * (phased_state_doubles(n) + phased_matrix_doubles(matrix)) +
         sizeof(cl_int) * phased_pivots(n) + 3 * sizeof(cl_uint);
}

// The host's checks, packing and unpacking of a batch run on all cores in ranges of at least this many
// values (2 MB): on one core each costs a large batch milliseconds per run, while the GPU waits.
inline constexpr std::size_t parallel_grain = std::size_t{1} << 18;

// Copies the `per` values each of the systems at run positions first .. first + count - 1 from
// `from` (batch order) into the start of `to`.
inline void gather(std::span<const double> from, const std::vector<std::size_t>& order, std::size_t first,
                   std::size_t count, std::size_t per, double* to) {
  core::parallel_ranges(count, parallel_grain / std::max<std::size_t>(per, 1), [&](std::size_t a, std::size_t b) {
    for (std::size_t i = a; i < b; ++i)
      std::copy_n(from.begin() + static_cast<std::ptrdiff_t>(order[first + i] * per), per, to + i * per);
  });
}

// One chunk's device buffers and their pinned host staging. With two slots in rotation, one chunk
// integrates while the other slot's results come down and its next inputs go up.
struct Slot {
  Slot(const core::Context& ctx, const core::Queue& transfer, std::size_t systems, std::size_t n, std::size_t matrix,
       std::size_t np, std::size_t times, bool with_phased)
      : capacity(systems),
        per_system_times(times != 0),
        phased(with_phased),
        y(ctx, systems * n),
        params(ctx, std::max<std::size_t>(systems * np, 1)),  // the kernel needs a buffer even without parameters
        t0(ctx, times),
        t_end(ctx, times),
        reached(ctx, systems * 2),
        counters(ctx, systems * counter_count),
        host_y(transfer, systems * n),
        host_params(transfer, systems * np),
        host_t0(transfer, times),
        host_t_end(transfer, times),
        host_reached(transfer, systems * 2),
        host_counters(transfer, systems * counter_count),
        state(ctx, with_phased ? systems * phased_state_doubles(n) : 1),
        matrices(ctx, with_phased ? systems * phased_matrix_doubles(matrix) : 1),
        matrix_pivots(ctx, with_phased ? systems * phased_pivots(n) : 1),
        lists{core::Buffer<cl_uint>(ctx, with_phased ? systems : 1),
              core::Buffer<cl_uint>(ctx, with_phased ? systems : 1)},
        jacobians(ctx, with_phased ? systems : 1),
        pending(ctx, 2),
        host_pending(transfer, 2),
        claimed(ctx, 1),
        sample_times(ctx, 1),  // the kernel needs buffers even without samples
        sampled(ctx, 1),
        host_sample_times(std::in_place, transfer, 0),
        host_sampled(std::in_place, transfer, 0) {}

  // Room for a chunk's dense output: `values` sampled doubles and, where each system has its own, `times`
  // sample times. Sized by the run that needs them rather than with the slot: the slot keeps the most
  // systems any run had, which times another run's samples per system could take past its budget.
  void hold_samples(const core::Context& ctx, const core::Queue& transfer, std::size_t values, std::size_t times) {
    if (sampled.size() < values) {
      sampled = core::Buffer<double>(ctx, values);
      host_sampled.emplace(transfer, values);
    }
    if (sample_times.size() < times) {
      sample_times = core::Buffer<double>(ctx, times);
      host_sample_times.emplace(transfer, times);
    }
  }

  std::size_t capacity;   // systems it holds
  bool per_system_times;  // whether it holds a time interval per system
  bool phased;            // whether it holds the phased mapping's buffers (mapping 1's system matrices too)
  core::Buffer<double> y, params, t0, t_end, reached;
  core::Buffer<std::int64_t> counters;
  core::PinnedBuffer<double> host_y, host_params, host_t0, host_t_end, host_reached;
  core::PinnedBuffer<std::int64_t> host_counters;
  // The phased mapping's (matrices and pivots also mapping 1's where launch::system_matrices): each
  // system's record and matrices between passes, the systems a pass left for decomposition (lists[0]
  // and [1] in turn), those of them that need a new J, and how many of each.
  core::Buffer<double> state, matrices;
  core::Buffer<cl_int> matrix_pivots;
  core::Buffer<cl_uint> lists[2], jacobians, pending;
  core::PinnedBuffer<cl_uint> host_pending;
  core::Buffer<cl_uint> claimed;  // the systems a launch's work-items have claimed (launch::claims_systems)
  // Dense output: the chunk's sample times (Batch::per_system_samples) and its sampled states.
  core::Buffer<double> sample_times, sampled;
  std::optional<core::PinnedBuffer<double>> host_sample_times, host_sampled;
  std::size_t first = 0, count = 0;  // the chunk in flight (run positions); count 0: none
  std::vector<core::Event> downloads;
};

}  // namespace detail

// Per device, what integrate() keeps from one call to the next: the tolerances and settings, the shared
// time interval, and the chunk slots, which grow to the largest chunk seen. Allocated afresh in every
// call (pinned host memory above all), they would cost small batches, which an operator-split flow
// solver integrates every time step, a large share of their run (docs/chem.md, Performance).
struct Radau5::Pipeline {
  core::Buffer<double> tol, settings, t0, t_end;  // t0, t_end: shared times only
  core::Buffer<double> sample_times;              // the dense-output times shared by all systems, if any
  std::vector<detail::Slot> slots;
};

struct Radau5::Device {
  core::Program program;
  core::Kernel kernel{};
  // Mapping 2's per-group matrices, vectors and pivots in global memory; one element each where the
  // kernel ignores them (mapping 1, local scratch).
  core::Buffer<double> scratch;
  core::Buffer<cl_int> scratch_pivots;
  core::Buffer<double> tables;  // System::tables (one element when it has none)
  core::Buffer<cl_int> sparse;  // the SparseLu plan of a system with a jacobian_pattern (else one element)
  core::Buffer<cl_uint> no_list;  // the kernel's list arguments where it ignores them (all but phased)
  // The phased mapping's decompositions (radau5_decompose.cl) with their group sizes, in launch order,
  // and its Jacobians (radau5_jacobian); empty for the other mappings.
  std::optional<core::Program> decompose_program{};
  std::vector<std::pair<core::Kernel, std::size_t>> decompose{};
  core::Kernel jacobian{};
};

}  // namespace hetflow::ode
