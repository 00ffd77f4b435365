#include "hetflow/ftle/sequence.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <string>

#include "hetflow/core/error.hpp"
#include "hetflow/ftle/flow_map_kernels.hpp"
#include "hetflow/ftle/messages.hpp"

namespace hetflow::ftle {
namespace {

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

// Hands out buffer numbers: the most recently released one first, else a new one,
// so a plan run twice (counted, then executed) uses the same numbers and the same number of buffers.
struct Slots {
  std::vector<int> free;
  int created = 0;
  int acquire() {
    if (free.empty()) return created++;
    const int id = free.back();
    free.pop_back();
    return id;
  }
  void release(int id) {
    if (id >= 0) free.push_back(id);
  }
};

// The two-stack (prefix/suffix) composition of K windows of W consecutive short maps, r = 0 .. K + W - 2
// in the order the maps are made (increasing start time). Field k uses maps k .. k + W - 1; in time order
// (forward) or the reverse (backward, sign < 0: map r + 1 is applied before map r). The executor e
// provides acquire() / release(id) of map buffers, arrive(r, id) (short map r into buffer id),
// chain(first, second, out) (out = the map "apply first, then second", a displacement on the seed grid)
// and field(k, first, second) (field k from the positions of "apply first, then second"; second < 0:
// of first alone). Blocks of W maps: when block b is complete (r = bW + W - 1) its suffix compositions
// suf[j] = maps bW + j .. bW + W - 1 are built, j = W - 2 down to 0 (W - 1 chains), and field bW is
// suf[0]; while block b + 1 arrives, its prefix (maps (b + 1) W .. r) is extended by one chain a map
// (none for the first), and field k = r - W + 1 chains suf[k - bW] with it.
template <class Executor>
void two_stack_plan(long fields, long w, long sign, Executor& e) {
  const long maps = fields + w - 1;
  std::vector<int> raw(static_cast<std::size_t>(w), -1), suf(static_cast<std::size_t>(w), -1);
  int prefix = -1;
  bool prefix_owned = false;  // false while the prefix is the block's first short map, kept for its suffixes
  // lo covers earlier maps (smaller r) than hi.
  const auto chain = [&](int lo, int hi, int out) { sign > 0 ? e.chain(lo, hi, out) : e.chain(hi, lo, out); };
  for (long r = 0; r < maps; ++r) {
    const long b = r / w, p = r % w, k = r - (w - 1);  // k: the field whose last map r is (k < fields)
    const bool flips = b * w < fields;                  // block b holds a field's first map
    const int map = e.acquire();
    e.arrive(r, map);
    if (p == w - 1) {  // block b is complete (only a block that flips gets here)
      if (prefix_owned) e.release(prefix);
      prefix = -1;
      prefix_owned = false;
      raw[static_cast<std::size_t>(p)] = map;
      std::fill(suf.begin(), suf.end(), -1);
      suf.back() = map;
      for (long j = w - 2; j >= 0; --j) {
        const auto ju = static_cast<std::size_t>(j);
        const int out = e.acquire();
        chain(raw[ju], suf[ju + 1], out);
        e.release(raw[ju]);
        if (b * w + j + 1 >= fields) {  // no field starts there: only needed for this chain
          e.release(suf[ju + 1]);
          suf[ju + 1] = -1;
        }
        suf[ju] = out;
      }
      std::fill(raw.begin(), raw.end(), -1);
      e.field(k, suf[0], -1);
      e.release(suf[0]);
      suf[0] = -1;
      continue;
    }
    if (k < 0) {  // block 0 before it is complete
      raw[static_cast<std::size_t>(p)] = map;
      continue;
    }
    if (flips) raw[static_cast<std::size_t>(p)] = map;
    if (p == 0) {
      prefix = map;
      prefix_owned = !flips;
    } else {
      const int out = e.acquire();
      chain(prefix, map, out);
      if (prefix_owned) e.release(prefix);
      if (!flips) e.release(map);
      prefix = out;
      prefix_owned = true;
    }
    const auto j = static_cast<std::size_t>(k - (b - 1) * w);  // field k's place in block b - 1: 1 .. W - 1
    if (sign > 0) e.field(k, suf[j], prefix);
    else e.field(k, prefix, suf[j]);
    e.release(suf[j]);
    suf[j] = -1;
  }
}

// Counts what a plan does: chains (compositions, the field's chaining included) and buffers.
struct PlanCount {
  Slots slots;
  long compositions = 0;
  int acquire() { return slots.acquire(); }
  void release(int id) { slots.release(id); }
  void arrive(long, int) {}
  void chain(int, int, int) { ++compositions; }
  void field(long, int, int second) {
    if (second >= 0) ++compositions;
  }
};

PlanCount count_two_stack(const Config& c, const SequenceSpec& s) {
  PlanCount count;
  two_stack_plan(static_cast<long>(s.fields), window_of(c, s, nullptr), c.duration > 0 ? 1 : -1, count);
  return count;
}

bool two_stack(const SequenceSpec& s) {
  return s.method == SequenceMethod::intermediate && s.scheme == CompositionScheme::two_stack;
}

}  // namespace

const char* to_string(CompositionScheme s) { return s == CompositionScheme::two_stack ? "two_stack" : "sequential"; }

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
                      ": expected clamp (the short maps compose on the seed grid only for tracers that keep moving "
                      "inside the data box)");
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
    c.compositions = two_stack(spec) ? count_two_stack(config, spec).compositions : k * (w - 1);
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
  const std::size_t rb = real_bytes(config), n = seeds.size(), dim = static_cast<std::size_t>(seeds.dimension);
  if (two_stack(spec)) {
    m.map_bytes = static_cast<std::size_t>(count_two_stack(config, spec).slots.created) * n * dim * rb;
    m.work_bytes = n * dim * rb + n * rb;
  } else if (spec.method == SequenceMethod::intermediate) {
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

std::vector<std::vector<double>> Sequence::run(const Continue& go_on) {
  steps_taken_ = compositions_done_ = 0;
  peak_ = {};
  return spec_.method == SequenceMethod::direct ? run_direct(go_on) : run_intermediate(go_on);
}

std::vector<std::vector<double>> Sequence::run_direct(const Continue& go_on) {
  std::vector<std::vector<double>> out;
  for (const Config& c : solver_configs(config_, spec_)) {
    Solver s = make_solver(c);
    s.advance_to_end();
    out.push_back(s.ftle());
    steps_taken_ += s.step();
    peak_.solver_bytes = std::max(peak_.solver_bytes, s.device_bytes());
    if (go_on && out.size() < spec_.fields && !go_on(steps_taken_, out.size())) break;
  }
  return out;
}

namespace {

// Thrown out of the short-map maker when the caller's Continue says stop: the two-stack plan has no
// other way out, and unwinding releases every buffer.
struct Stopped {};

// The fields completed, in start-time order, up to the first one still undone.
std::size_t fields_done(const std::vector<std::vector<double>>& out) {
  return static_cast<std::size_t>(std::find_if(out.begin(), out.end(), [](const auto& f) { return f.empty(); }) -
                                  out.begin());
}

std::vector<std::vector<double>> completed(std::vector<std::vector<double>>& out) {
  out.erase(out.begin() + static_cast<std::ptrdiff_t>(fields_done(out)), out.end());
  return out;
}

}  // namespace

std::vector<std::vector<double>> Sequence::run_intermediate(const Continue& go_on) {
  const core::Context& ctx = devices_->context(0);
  const std::size_t map_bytes = seeds_.size() * static_cast<std::size_t>(seeds_.dimension) * real_bytes(config_);
  FlowMapKernels kernels(*devices_, seeds_, config_, spec_.composition);

  // The field of composed positions (one position buffer for two_stack, two for sequential) and the FTLE.
  const bool stacks = spec_.scheme == CompositionScheme::two_stack;
  std::vector<core::Buffer<std::uint8_t>> pos;
  pos.emplace_back(ctx, map_bytes);
  if (!stacks) pos.emplace_back(ctx, map_bytes);
  for (const auto& b : pos) peak_.work_bytes += b.bytes();
  peak_.work_bytes += kernels.field_bytes();

  std::vector<std::vector<double>> out(spec_.fields);
  // Short maps start at t0 + m interval, m = m_first + r, made in increasing r. Forward fields use maps
  // k .. k + W - 1, backward ones k - W + 1 .. k: in both cases r = k .. k + W - 1.
  const std::vector<Config> short_maps = solver_configs(config_, spec_);
  const MapMaker make_map = [&](long r, core::Buffer<std::uint8_t>& target) {
    // Asked before each map but the first: every field whose maps exist has been composed by then.
    if (go_on && r > 0 && !go_on(steps_taken_, fields_done(out))) throw Stopped{};
    write_short_map(short_maps[static_cast<std::size_t>(r)], target);
  };
  if (stacks) {
    compose_two_stack(kernels, pos[0], make_map, out);
  } else {
    compose_sequential(kernels, pos, static_cast<long>(short_maps.size()), make_map, out);
  }
  return completed(out);
}

void Sequence::write_short_map(const Config& c, core::Buffer<std::uint8_t>& target) {
  const bool f64 = config_.precision == core::Precision::f64;
  const std::size_t n = seeds_.size(), dim = static_cast<std::size_t>(seeds_.dimension);
  std::vector<double> disp(n * dim);
  {
    // The Solver's positions are private, so a short map comes through the host (docs/ftle.md).
    Solver s = make_solver(c);
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
  std::vector<std::uint8_t> bytes(n * dim * real_bytes(config_));
  for (std::size_t i = 0; i < disp.size(); ++i) {
    if (f64) {
      std::memcpy(bytes.data() + 8 * i, &disp[i], 8);
    } else {
      const auto v = static_cast<float>(disp[i]);
      std::memcpy(bytes.data() + 4 * i, &v, 4);
    }
  }
  target.write(devices_->compute(0), bytes);
}

void Sequence::compose_two_stack(FlowMapKernels& kernels, const core::Buffer<std::uint8_t>& positions,
                                 const MapMaker& make_map, std::vector<std::vector<double>>& out) {
  // Map buffers are made as the plan first needs them and reused once released (Slots numbers them
  // as the counted plan of memory() does, so the peak is the estimate).
  struct Executor {
    Slots slots;
    std::vector<core::Buffer<std::uint8_t>> maps;
    std::function<void(long, core::Buffer<std::uint8_t>&)> make;
    std::function<void(int, int, int)> launch_chain;
    std::function<void(long, int, int)> make_field;
    const core::Context* ctx;
    std::size_t bytes;
    int acquire() {
      const int id = slots.acquire();
      if (static_cast<std::size_t>(id) == maps.size()) maps.emplace_back(*ctx, bytes);
      return id;
    }
    void release(int id) { slots.release(id); }
    void arrive(long r, int id) { make(r, maps[static_cast<std::size_t>(id)]); }
    void chain(int first, int second, int out) { launch_chain(first, second, out); }
    void field(long k, int first, int second) { make_field(k, first, second); }
  } e;
  e.ctx = &devices_->context(0);
  e.bytes = seeds_.size() * static_cast<std::size_t>(seeds_.dimension) * real_bytes(config_);
  e.make = make_map;
  const auto run_chain = [&](int first, int second, const core::Buffer<std::uint8_t>& target, int as_positions) {
    kernels.chain(e.maps[static_cast<std::size_t>(first)], e.maps[static_cast<std::size_t>(second)], target,
                  as_positions);
    ++compositions_done_;
  };
  e.launch_chain = [&](int first, int second, int target) {
    run_chain(first, second, e.maps[static_cast<std::size_t>(target)], 0);
  };
  e.make_field = [&](long k, int first, int second) {
    if (second >= 0) {
      run_chain(first, second, positions, 1);
    } else {
      kernels.start(positions, e.maps[static_cast<std::size_t>(first)]);
    }
    out[static_cast<std::size_t>(k)] = kernels.field(positions);
  };
  try {
    two_stack_plan(static_cast<long>(spec_.fields), window_, config_.duration > 0 ? 1 : -1, e);
  } catch (const Stopped&) {
  }
  for (const auto& m : e.maps) peak_.map_bytes += m.bytes();
}

// W short maps in a ring (map r in slot r mod W); a field is composed as soon as its last map exists, so
// the ring never overwrites a map a pending field needs.
void Sequence::compose_sequential(FlowMapKernels& kernels, std::vector<core::Buffer<std::uint8_t>>& pos,
                                  long maps_total, const MapMaker& make_map, std::vector<std::vector<double>>& out) {
  const long w = window_;
  const long sign = config_.duration > 0 ? 1 : -1;
  std::vector<core::Buffer<std::uint8_t>> maps;
  const std::size_t map_bytes = seeds_.size() * static_cast<std::size_t>(seeds_.dimension) * real_bytes(config_);
  for (long j = 0; j < w; ++j) maps.emplace_back(devices_->context(0), map_bytes);
  for (const auto& m : maps) peak_.map_bytes += m.bytes();
  const auto slot = [w](long r) { return static_cast<std::size_t>(r % w); };
  for (long r = 0; r < maps_total; ++r) {
    try {
      make_map(r, maps[slot(r)]);
    } catch (const Stopped&) {
      return;
    }
    const long k = r - (w - 1);
    if (k < 0) continue;
    // Maps r = k .. k + W - 1 in time order: increasing r forward, decreasing backward.
    const auto map_at = [&](long i) -> core::Buffer<std::uint8_t>& {
      return maps[slot(sign > 0 ? k + i : k + w - 1 - i)];
    };
    kernels.start(pos[0], map_at(0));
    int cur = 0;
    for (long i = 1; i < w; ++i) {
      kernels.compose(pos[static_cast<std::size_t>(cur)], pos[static_cast<std::size_t>(1 - cur)], map_at(i));
      cur = 1 - cur;
      ++compositions_done_;
    }
    out[static_cast<std::size_t>(k)] = kernels.field(pos[static_cast<std::size_t>(cur)]);
  }
}

}  // namespace hetflow::ftle
