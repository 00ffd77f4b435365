#pragma once
#include <cstddef>
#include <functional>
#include <variant>
#include <vector>

#include "hetflow/core/buffer.hpp"
#include "hetflow/core/device_set.hpp"
#include "hetflow/ftle/analytic_flow.hpp"
#include "hetflow/ftle/method.hpp"
#include "hetflow/ftle/seed_grid.hpp"
#include "hetflow/ftle/solver.hpp"
#include "hetflow/ftle/velocity_grid.hpp"

namespace hetflow::ftle {

class FlowMapKernels;

// How a sequence of FTLE fields is computed (Conti et al. 2012, Section 3.4; docs/ftle.md "Sequences"):
//   direct        one Solver run over [t0_k, t0_k + T] per start time: K |T| / dt steps;
//   intermediate  Brunton & Rowley's intermediate flow maps: every short map phi over one interval
//                 [t_j, t_j +- interval] is integrated once on the seed grid, and the map over T from t0_k
//                 is the composition of |T| / interval consecutive short maps, each evaluated (M4' or
//                 linear interpolation of its displacement on the seed grid) at the positions the earlier
//                 ones produced: (K + |T| / interval - 1) |interval| / dt steps.
enum class SequenceMethod { direct, intermediate };

const char* to_string(SequenceMethod m);

// How the intermediate method composes the W short maps of each field (docs/ftle.md "Sequences"):
//   sequential  (default) each field chains its W short maps one after another, W - 1 compositions a
//               field, every one interpolating a short map.
//   two_stack   windows of W consecutive maps slide by one map per field, so consecutive fields share
//               compositions (prefix/suffix or "two-stack" sliding-window aggregation, the cost that Eq. 19
//               of Conti et al. 2012 assumes): the short maps are cut into blocks of W; when a block is
//               complete its suffix compositions (map j .. the block's end, for every j) are built, last
//               first, and while the next block arrives one prefix composition is extended by each map;
//               field k is the whole block when
//               k mod W = 0, else its block's suffix chained with the next block's prefix. A field costs
//               c(k mod W) compositions, c(0) = W - 1, c(1) = 1, c(i >= 2) = 2: 3 - 4 / W a field on
//               average (K (3 - 4 / W) when W divides K). Chaining interpolates composed maps stored on
//               the seed grid, not only short ones, so the fields differ from the direct ones ~25 times
//               more than sequential's (docs/ftle.md "Sequences").
enum class CompositionScheme { sequential, two_stack };

const char* to_string(CompositionScheme s);

// Start times t0_k = config.t0 + k * interval, k = 0 .. fields - 1; each field integrates over
// config.duration (T, signed) with dt = T / config.steps. The intermediate method needs |T| to be a
// whole number W of intervals and config.steps a multiple of W (dt divides the interval).
struct SequenceSpec {
  std::size_t fields = 1;  // K
  double interval = 1.0;   // > 0: the spacing of start times and the length of a short map
  SequenceMethod method = SequenceMethod::intermediate;
  // How a short map is evaluated between seeds: M4' (the paper's M2P) or linear. Both reproduce affine
  // maps exactly.
  Interpolation composition = Interpolation::m4prime;
  CompositionScheme scheme = CompositionScheme::sequential;  // intermediate method only
};

// Work of a sequence, counted in integration steps (each of config.integrator) and compositions (one
// interpolation of a short map per seed).
struct SequenceCost {
  long direct_steps = 0;  // K * steps
  long map_steps = 0;     // short maps (K + W - 1) times steps / W
  // sequential: K (W - 1); two_stack: sum over k < K of c(k mod W), c(0) = W - 1, c(1) = 1, c(>= 2) = 2
  // (W = 1: none), K (3 - 4 / W) when W divides K. Each chaining of two maps counts once, including the
  // one that gives a field's positions.
  long compositions = 0;
  long short_maps = 0;    // K + W - 1
  // Steps of the direct method over steps of the intermediate one: K W / (K + W - 1).
  double step_saving() const { return static_cast<double>(direct_steps) / static_cast<double>(map_steps); }
  // Direct steps over the intermediate method's step-equivalents, map_steps + compositions x
  // step_per_composition; Eq. 19 charges a composition as half a (one-RK2-stage) step.
  double saving(double step_per_composition = 0.5) const {
    return static_cast<double>(direct_steps) /
           (static_cast<double>(map_steps) + step_per_composition * static_cast<double>(compositions));
  }
};

// Device memory a sequence needs at its peak, over all devices together: one Solver at a time (the
// largest Solver::memory_plan() of those it runs: tracers, field and velocity on every device of the
// set, a gridded series resident or streamed), and for the intermediate method, all on the set's first
// device: sequential, W short maps (displacements, dimension reals per seed) and two position buffers
// plus one field buffer; two_stack, the most maps (short or composed, dimension reals per seed) alive at
// once, W + 1 when K <= W, W + 2 when K > W (1 when W = 1): a block's short maps while the previous
// block's suffixes are used up, the prefix, the one being built; and one position buffer plus one field
// buffer.
struct SequenceMemory {
  std::size_t solver_bytes = 0;
  std::size_t map_bytes = 0;
  std::size_t work_bytes = 0;
  std::size_t total() const { return solver_bytes + map_bytes + work_bytes; }
};

// FTLE fields for a series of start times. The velocity source is what a Solver takes; a VelocityGrid
// is referenced, not copied, and must outlive the Sequence. The fields come back in start-time order,
// one value per seed (x fastest), the same layout as Solver::ftle().
class Sequence {
 public:
  Sequence(const core::DeviceSet& devices, const AnalyticFlow& flow, const SeedGrid& seeds, const Config& config,
           const SequenceSpec& spec);
  Sequence(const core::DeviceSet& devices, const VelocityGrid& velocity, const SeedGrid& seeds, const Config& config,
           const SequenceSpec& spec);

  // Called after each Solver run but the last (one field of the direct method, one short map of the
  // intermediate one) with the steps taken and the fields completed so far; false stops the sequence
  // there (Ctrl-C, a time limit).
  using Continue = std::function<bool(long steps_taken, std::size_t fields_done)>;

  // Computes the fields in start-time order: all of them, or those completed when `go_on` said stop.
  // Throws TracerError (from the Solver) when a tracer fails.
  std::vector<std::vector<double>> run(const Continue& go_on = {});

  double start_time(std::size_t k) const;
  std::size_t fields() const { return spec_.fields; }
  // |T| / interval (intermediate method; 0 for the direct one when T is not a multiple).
  long window() const { return window_; }

  // What the configuration costs and needs, before anything runs (throws core::Error when the
  // configuration is invalid, as the constructor does).
  static SequenceCost cost(const Config& config, const SequenceSpec& spec);
  static SequenceMemory memory(const core::DeviceSet& devices, const AnalyticFlow& flow, const SeedGrid& seeds,
                               const Config& config, const SequenceSpec& spec);
  static SequenceMemory memory(const core::DeviceSet& devices, const VelocityGrid& velocity, const SeedGrid& seeds,
                               const Config& config, const SequenceSpec& spec);

  // Measured by the last run(): steps the Solvers took, compositions enqueued, and the peak device
  // memory (the largest Solver's device_bytes() plus the sequence's own buffers).
  long steps_taken() const { return steps_taken_; }
  long compositions_done() const { return compositions_done_; }
  SequenceMemory peak_memory() const { return peak_; }

 private:
  using Source = std::variant<AnalyticFlow, const VelocityGrid*>;
  Sequence(Source source, const core::DeviceSet& devices, const SeedGrid& seeds, const Config& config,
           const SequenceSpec& spec);
  Solver make_solver(const Config& c) const;
  std::vector<std::vector<double>> run_direct(const Continue& go_on);
  // The intermediate method: short maps made one at a time, composed into fields as they arrive.
  std::vector<std::vector<double>> run_intermediate(const Continue& go_on);
  // Makes short map r (by the Solver of solver_configs()[r]) into a map buffer.
  using MapMaker = std::function<void(long r, core::Buffer<std::uint8_t>& target)>;
  // Runs the Solver of the short map `c` and writes its displacement on the seed grid into `target`.
  void write_short_map(const Config& c, core::Buffer<std::uint8_t>& target);
  // The compositions of each scheme, from the short maps make_map makes, into `out` (field k at k),
  // through the field buffer `positions` (two_stack) or the two of `pos` (sequential); they return
  // early when make_map throws Stopped.
  void compose_two_stack(FlowMapKernels& kernels, const core::Buffer<std::uint8_t>& positions,
                         const MapMaker& make_map, std::vector<std::vector<double>>& out);
  void compose_sequential(FlowMapKernels& kernels, std::vector<core::Buffer<std::uint8_t>>& pos, long maps_total,
                          const MapMaker& make_map, std::vector<std::vector<double>>& out);
  static SequenceMemory estimate(const core::DeviceSet& devices, const Source& source, const SeedGrid& seeds,
                                 const Config& config, const SequenceSpec& spec);

  const core::DeviceSet* devices_;
  Source source_;
  SeedGrid seeds_;
  Config config_;
  SequenceSpec spec_;
  long window_ = 0;
  long steps_taken_ = 0, compositions_done_ = 0;
  SequenceMemory peak_;
};

}  // namespace hetflow::ftle
