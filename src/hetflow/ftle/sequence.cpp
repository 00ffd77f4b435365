#include "hetflow/ftle/sequence.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>

#include "hetflow/core/build_options.hpp"
#include "hetflow/core/error.hpp"
#include "hetflow/core/kernel.hpp"
#include "hetflow/core/program.hpp"

namespace hetflow::ftle {
namespace {

// ftle.cl's FLOW_GRID and BOUNDARY_CLAMP: flow_map.cl builds ftle.cl's interpolation with them.
constexpr int flow_grid = 6;
constexpr int boundary_clamp = 0;

// One launch width per kernel and device, whatever the seed count, as the Solver does (solver.cpp says
// why PoCL needs it); the kernels stride over their items.
constexpr std::size_t work_group = 64;
constexpr std::size_t groups_per_unit = 32;

core::NDRange launch_range(const core::Device& device) {
  return core::NDRange(work_group * groups_per_unit * std::max(device.info.compute_units, 1u));
}

std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

std::size_t real_bytes(const Config& c) { return c.precision == core::Precision::f64 ? 8 : 4; }

// |T| / interval when the configuration suits the intermediate method, else 0; `why` says what is wrong.
long window_of(const Config& c, const SequenceSpec& s, std::string* why) {
  const double ratio = std::abs(c.duration) / s.interval;
  const long w = std::lround(ratio);
  if (w < 1 || std::abs(ratio - static_cast<double>(w)) > 1e-9 * ratio) {
    if (why) *why = "|T| = " + number(std::abs(c.duration)) + " is not a whole number of intervals of " + number(s.interval);
    return 0;
  }
  if (c.steps % w != 0) {
    if (why)
      *why = "the " + std::to_string(c.steps) + " steps over T do not split into " + std::to_string(w) +
             " intervals: expected a step count that is a multiple of |T| / interval (dt dividing the interval)";
    return 0;
  }
  return w;
}

void check_spec(const Config& c, const SequenceSpec& s) {
  if (s.fields < 1) throw core::Error("an FTLE sequence needs at least one field");
  if (!(s.interval > 0.0) || !std::isfinite(s.interval))
    throw core::Error("FTLE sequence interval " + number(s.interval) + ": expected a positive, finite time");
  if (!(c.duration != 0.0) || !std::isfinite(c.duration))
    throw core::Error("FTLE integration time T = " + number(c.duration) + ": expected a finite, non-zero time");
  if (c.steps < 1) throw core::Error("FTLE step count " + std::to_string(c.steps) + ": expected at least 1");
  if (s.method == SequenceMethod::intermediate) {
    std::string why;
    if (window_of(c, s, &why) == 0) throw core::Error("intermediate flow maps: " + why);
  }
}

// The configurations of the Solvers a sequence runs, one at a time: one per start time (direct), or one
// per short map starting at t0 + m interval (intermediate; forward fields use maps k .. k + W - 1,
// backward ones k - W + 1 .. k).
std::vector<Config> solver_configs(const Config& c, const SequenceSpec& s) {
  std::vector<Config> out;
  const auto k_fields = static_cast<long>(s.fields);
  if (s.method == SequenceMethod::direct) {
    for (long k = 0; k < k_fields; ++k) {
      out.push_back(c);
      out.back().t0 = c.t0 + static_cast<double>(k) * s.interval;
    }
    return out;
  }
  const long w = window_of(c, s, nullptr), sign = c.duration > 0 ? 1 : -1;
  const long m_first = sign > 0 ? 0 : -(w - 1), m_last = sign > 0 ? k_fields + w - 2 : k_fields - 1;
  for (long m = m_first; m <= m_last; ++m) {
    out.push_back(c);
    out.back().t0 = c.t0 + static_cast<double>(m) * s.interval;
    out.back().duration = static_cast<double>(sign) * s.interval;
    out.back().steps = c.steps / w;
  }
  return out;
}

}  // namespace

const char* to_string(SequenceMethod m) { return m == SequenceMethod::direct ? "direct" : "intermediate"; }

Sequence::Sequence(const core::DeviceSet& devices, const AnalyticFlow& flow, const SeedGrid& seeds,
                   const Config& config, const SequenceSpec& spec)
    : Sequence(Source(flow), devices, seeds, config, spec) {}

Sequence::Sequence(const core::DeviceSet& devices, const VelocityGrid& velocity, const SeedGrid& seeds,
                   const Config& config, const SequenceSpec& spec)
    : Sequence(Source(&velocity), devices, seeds, config, spec) {}

Sequence::Sequence(Source source, const core::DeviceSet& devices, const SeedGrid& seeds, const Config& config,
                   const SequenceSpec& spec)
    : devices_(&devices), source_(std::move(source)), seeds_(seeds), config_(config), spec_(spec) {
  check_spec(config, spec);
  seeds.check();
  window_ = window_of(config, spec, nullptr);
  if (spec.method == SequenceMethod::intermediate && std::holds_alternative<const VelocityGrid*>(source_) &&
      config.boundary != Boundary::clamp)
    throw core::Error(std::string("intermediate flow maps with boundary ") + ftle::to_string(config.boundary) +
                      ": expected clamp (a stopped or periodic tracer's short maps do not compose on the seed grid)");
}

double Sequence::start_time(std::size_t k) const { return config_.t0 + static_cast<double>(k) * spec_.interval; }

SequenceCost Sequence::cost(const Config& config, const SequenceSpec& spec) {
  check_spec(config, spec);
  SequenceCost c;
  const auto k = static_cast<long>(spec.fields);
  c.direct_steps = k * config.steps;
  if (const long w = window_of(config, spec, nullptr)) {
    c.short_maps = k + w - 1;
    c.map_steps = c.short_maps * (config.steps / w);
    c.compositions = k * (w - 1);
  }
  return c;
}

SequenceMemory Sequence::estimate(const core::DeviceSet& devices, const Source& source, const SeedGrid& seeds,
                                  const Config& config, const SequenceSpec& spec) {
  check_spec(config, spec);
  seeds.check();
  SequenceMemory m;
  // One Solver at a time: the largest of their plans (a gridded series may be resident or streamed).
  for (const Config& c : solver_configs(config, spec)) {
    const MemoryPlan plan = std::holds_alternative<AnalyticFlow>(source)
                                ? Solver::memory_plan(devices, std::get<AnalyticFlow>(source), seeds, c)
                                : Solver::memory_plan(devices, *std::get<const VelocityGrid*>(source), seeds, c);
    m.solver_bytes = std::max(m.solver_bytes, plan.device_bytes);
  }
  if (spec.method == SequenceMethod::intermediate) {
    const std::size_t rb = real_bytes(config), n = seeds.size(), dim = static_cast<std::size_t>(seeds.dimension);
    m.map_bytes = static_cast<std::size_t>(window_of(config, spec, nullptr)) * n * dim * rb;
    m.work_bytes = 2 * n * dim * rb + n * rb;
  }
  return m;
}

SequenceMemory Sequence::memory(const core::DeviceSet& devices, const AnalyticFlow& flow, const SeedGrid& seeds,
                                const Config& config, const SequenceSpec& spec) {
  return estimate(devices, Source(flow), seeds, config, spec);
}

SequenceMemory Sequence::memory(const core::DeviceSet& devices, const VelocityGrid& velocity, const SeedGrid& seeds,
                                const Config& config, const SequenceSpec& spec) {
  return estimate(devices, Source(&velocity), seeds, config, spec);
}

Solver Sequence::make_solver(const Config& c) const {
  if (const auto* flow = std::get_if<AnalyticFlow>(&source_)) return Solver(*devices_, *flow, seeds_, c);
  return Solver(*devices_, *std::get<const VelocityGrid*>(source_), seeds_, c);
}

std::vector<std::vector<double>> Sequence::run() {
  steps_taken_ = compositions_done_ = 0;
  peak_ = {};
  return spec_.method == SequenceMethod::direct ? run_direct() : run_intermediate();
}

std::vector<std::vector<double>> Sequence::run_direct() {
  std::vector<std::vector<double>> out;
  for (const Config& c : solver_configs(config_, spec_)) {
    Solver s = make_solver(c);
    s.advance_to_end();
    out.push_back(s.ftle());
    steps_taken_ += s.step();
    peak_.solver_bytes = std::max(peak_.solver_bytes, s.device_bytes());
  }
  return out;
}

std::vector<std::vector<double>> Sequence::run_intermediate() {
  const core::Context& ctx = devices_->context(0);
  const core::Queue& q = devices_->compute(0);
  const core::NDRange global = launch_range(devices_->device(0)), local(work_group);
  const bool f64 = config_.precision == core::Precision::f64;
  const std::size_t rb = real_bytes(config_), n = seeds_.size(), dim = static_cast<std::size_t>(seeds_.dimension);
  const long w = window_;
  const long sign = config_.duration > 0 ? 1 : -1;
  const long k_fields = static_cast<long>(spec_.fields);

  core::BuildOptions options(config_.precision);
  options.define("DIM", seeds_.dimension).define("FLOW", flow_grid).define("INTEGRATOR", 1);
  options.define("BOUNDARY", boundary_clamp);
  if (spec_.composition == Interpolation::m4prime) options.define("INTERP_M4", 1);
  const std::size_t reals = seeds_.size() * static_cast<std::size_t>(seeds_.dimension);
  if (reals >= (std::size_t{1} << 31)) options.define("VELOCITY_INDEX64", 1);  // see ftle.cl
  const core::Program& program = ctx.program("ftle/flow_map.cl", options);
  core::Kernel start = program.kernel("flow_map_start");
  core::Kernel compose = program.kernel("flow_map_compose");
  core::Kernel field = program.kernel("ftle_field");
  const auto set_real = [&](core::Kernel& k, cl_uint i, double v) {
    if (f64) k.set(i, v);
    else k.set(i, static_cast<float>(v));
  };

  // W short maps in a ring (map m in slot m mod W), two position buffers for the composition, the field.
  std::vector<core::Buffer<std::uint8_t>> maps;
  for (long j = 0; j < w; ++j) maps.emplace_back(ctx, n * dim * rb);
  core::Buffer<std::uint8_t> pos[2] = {core::Buffer<std::uint8_t>(ctx, n * dim * rb),
                                       core::Buffer<std::uint8_t>(ctx, n * dim * rb)};
  core::Buffer<std::uint8_t> ftle(ctx, n * rb);
  for (const auto& m : maps) peak_.map_bytes += m.bytes();
  peak_.work_bytes = pos[0].bytes() + pos[1].bytes() + ftle.bytes();
  const auto slot = [w](long m) { return static_cast<std::size_t>(((m % w) + w) % w); };

  const cl_int4 seed_dims{{static_cast<cl_int>(seeds_.counts[0]), static_cast<cl_int>(seeds_.counts[1]),
                           static_cast<cl_int>(seeds_.counts[2]), 1}};
  start.set(2, static_cast<cl_uint>(n));
  start.set(3, seed_dims);
  compose.set(3, static_cast<cl_uint>(n));
  compose.set(4, seed_dims);
  for (cl_uint d = 0; d < 3; ++d) {
    set_real(start, 4 + d, seeds_.origin[d]);
    set_real(start, 7 + d, seeds_.spacing[d]);
    set_real(compose, 5 + d, seeds_.origin[d]);
    set_real(compose, 8 + d, 1.0 / seeds_.spacing[d]);
  }
  field.set(1, ftle);
  field.set(2, static_cast<cl_uint>(n));
  field.set(3, seed_dims);
  field.set(4, cl_int{0});
  field.set(5, cl_int{0});
  for (cl_uint d = 0; d < 3; ++d) set_real(field, 6 + d, seeds_.spacing[d]);
  set_real(field, 9, 1.0 / std::abs(config_.duration));

  std::vector<std::vector<double>> out(spec_.fields);
  const auto compose_field = [&](long k) {
    // Maps k, k + sign, ..., k + sign (W - 1), applied in time order.
    start.set(0, pos[0]);
    start.set(1, maps[slot(k)]);
    start.launch(q, global, local);
    int cur = 0;
    for (long i = 1; i < w; ++i) {
      compose.set(0, pos[cur]);
      compose.set(1, pos[1 - cur]);
      compose.set(2, maps[slot(k + sign * i)]);
      compose.launch(q, global, local);
      cur = 1 - cur;
      ++compositions_done_;
    }
    field.set(0, pos[cur]);
    field.launch(q, global, local);
    const std::vector<std::uint8_t> bytes = ftle.to_vector(q);
    std::vector<double>& f = out[static_cast<std::size_t>(k)];
    f.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
      if (f64) {
        std::memcpy(&f[i], bytes.data() + 8 * i, 8);
      } else {
        float v;
        std::memcpy(&v, bytes.data() + 4 * i, 4);
        f[i] = v;
      }
    }
  };

  // Short maps start at t0 + m interval. Forward fields use maps k .. k + W - 1, backward ones
  // k - W + 1 .. k; maps are made in increasing m, and a field is composed as soon as its last map
  // exists, so the ring never overwrites a map a pending field needs.
  const std::vector<Config> short_maps = solver_configs(config_, spec_);
  const long m_first = sign > 0 ? 0 : -(w - 1);
  std::vector<double> disp(n * dim);
  std::vector<std::uint8_t> bytes(n * dim * rb);
  for (std::size_t j = 0; j < short_maps.size(); ++j) {
    const long m = m_first + static_cast<long>(j);
    {
      // The Solver's positions are private, so a short map comes through the host (docs/ftle.md).
      Solver s = make_solver(short_maps[j]);
      s.advance_to_end();
      const std::vector<double> phi = s.flow_map();
      steps_taken_ += s.step();
      peak_.solver_bytes = std::max(peak_.solver_bytes, s.device_bytes());
      for (std::size_t i = 0; i < n; ++i) {
        const std::size_t index[3] = {i % seeds_.counts[0], (i / seeds_.counts[0]) % seeds_.counts[1],
                                      i / (seeds_.counts[0] * seeds_.counts[1])};
        for (std::size_t d = 0; d < dim; ++d) {
          // The seed position as ftle_seed computes it, so a zero displacement stays exactly zero.
          disp[i * dim + d] = phi[i * dim + d] - seeds_.position(static_cast<int>(d), index[d]);
        }
      }
    }
    for (std::size_t i = 0; i < disp.size(); ++i) {
      if (f64) {
        std::memcpy(bytes.data() + 8 * i, &disp[i], 8);
      } else {
        const auto v = static_cast<float>(disp[i]);
        std::memcpy(bytes.data() + 4 * i, &v, 4);
      }
    }
    maps[slot(m)].write(q, bytes);
    const long k = sign > 0 ? m - (w - 1) : m;
    if (k >= 0 && k < k_fields) compose_field(k);
  }
  return out;
}

}  // namespace hetflow::ftle
