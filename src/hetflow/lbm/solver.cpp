#include "hetflow/lbm/solver.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "hetflow/core/error.hpp"
#include "hetflow/core/program.hpp"

namespace hetflow::lbm {
namespace {

constexpr int q = 19;

std::string mib(std::size_t bytes) { return std::to_string((bytes + (1u << 20) - 1) >> 20) + " MiB"; }

// D3Q19 velocities in lbm.cl's order.
constexpr int velocity[q][3] = {{0, 0, 0},  {1, 0, 0},  {-1, 0, 0}, {0, 1, 0},  {0, -1, 0}, {0, 0, 1},  {0, 0, -1},
                                {1, 1, 0},  {-1, -1, 0}, {1, 0, 1},  {-1, 0, -1}, {0, 1, 1},  {0, -1, -1}, {1, -1, 0},
                                {-1, 1, 0}, {1, 0, -1}, {-1, 0, 1}, {0, 1, -1}, {0, -1, 1}};

// The populations that cross a face of `axis` moving towards `side`: a fill brings into a halo the
// packets its box's boundary nodes will pull back out of it (c pointing away from the box), a swap
// sends the packets pushed into a halo (c pointing out of the box).
std::uint32_t crossing(int axis, int side, core::HaloFlow flow) {
  const int c = flow == core::HaloFlow::fill ? -side : side;
  std::uint32_t mask = 0;
  for (int i = 0; i < q; ++i) {
    if (velocity[i][axis] == c) mask |= 1u << i;
  }
  return mask;
}

Extent lattice_dims(const Geometry& geometry) {
  Extent dims{};
  for (int d = 0; d < 3; ++d) {
    if (geometry.dims()[d] < 1 || geometry.dims()[d] > 1u << 30) {
      throw core::Error("lattice dimension " + std::to_string(geometry.dims()[d]) + " is outside 1 .. 2^30");
    }
    dims[d] = static_cast<int>(geometry.dims()[d]);
  }
  return dims;
}

std::size_t volume(const Extent& e) {
  return static_cast<std::size_t>(e[0]) * static_cast<std::size_t>(e[1]) * static_cast<std::size_t>(e[2]);
}

}  // namespace

double shan_chen_pressure(double rho, const ShanChen& sc) {
  const double psi = sc.psi0 * std::exp(-sc.rho0 / rho);
  return rho / 3.0 + sc.g * psi * psi / 6.0;
}

double two_component_pressure(double rho_a, double rho_b, const TwoComponent& tc) {
  return (rho_a + rho_b) / 3.0 + tc.g * rho_a * rho_b / 3.0;
}

Pattern parse_pattern(std::string_view text) {
  if (text == "ab") return Pattern::ab;
  if (text == "aa") return Pattern::aa;
  if (text == "lagrangian") return Pattern::lagrangian;
  throw core::Error("unknown memory pattern '" + std::string(text) + "': expected ab, aa or lagrangian");
}

Storage parse_storage(std::string_view text) {
  if (text == "fp32") return Storage::fp32;
  if (text == "fp16") return Storage::fp16;
  if (text == "fp64") return Storage::fp64;
  throw core::Error("unknown storage '" + std::string(text) + "': expected fp32, fp16 or fp64");
}

const char* to_string(Pattern p) {
  return p == Pattern::ab ? "ab" : p == Pattern::aa ? "aa" : "lagrangian";
}

const char* to_string(Storage s) { return s == Storage::fp32 ? "fp32" : s == Storage::fp16 ? "fp16" : "fp64"; }

Solver::Solver(const core::DeviceSet& devices, const Geometry& geometry, const Config& config,
               core::Link* processes)
    : devices_(&devices),
      link_(processes),
      dims_(lattice_dims(geometry)),
      config_(config),
      store_bytes_(config.storage == Storage::fp16 ? 2 : config.storage == Storage::fp32 ? 4 : 8),
      placement_(processes, std::vector<double>(devices.size(), 1.0)),
      grid_(dims_, config.device_grid, placement_.parts()) {
  if (!(config.tau > 0.5)) {
    throw core::Error("tau = " + std::to_string(config.tau) + " gives a non-positive viscosity: tau must exceed 0.5");
  }
  if (config.two_component) {
    if (config.shan_chen) {
      throw core::Error("shan_chen and two_component are exclusive: a run is single-component or two-component");
    }
    if (!(config.two_component->tau_b > 0.5)) {
      throw core::Error("tau_b = " + std::to_string(config.two_component->tau_b) +
                        " gives a non-positive viscosity: tau_b must exceed 0.5");
    }
    for (std::uint8_t code : geometry.codes()) {
      const auto type = static_cast<NodeType>(code);
      if (type == NodeType::inlet || type == NodeType::outlet) {
        throw core::Error("two-component flow has no open boundaries: the geometry has inlet or outlet nodes");
      }
    }
  }
  if (grid_.parts() > 1 && config.pattern == Pattern::lagrangian) {
    // A Lagrangian packet's slot moves every step, so no fixed halo layer holds what crosses a face.
    throw core::Error("the lagrangian pattern runs on one device; use aa or ab on several devices or processes");
  }
  for (std::size_t k = 0; k < devices.size(); ++k) {
    const core::DeviceInfo& info = devices.device(k).info;
    const Extent local = grid_.local(global_part(k));
    const std::size_t need = required_bytes(local, config);
    if (need > info.global_mem) {
      throw core::Error("the lattice needs " + mib(need) + " of device memory on " + devices.device(k).label() +
                        ", which has " + mib(info.global_mem));
    }
    if (work_group() * work_group_y() > info.max_work_group) {
      throw core::Error("a work-group of " + std::to_string(work_group()) + " x " + std::to_string(work_group_y()) +
                        " work-items: " + devices.device(k).label() + " takes at most " +
                        std::to_string(info.max_work_group));
    }
    const std::size_t buffer = volume(local) * q * store_bytes_;
    if (buffer > info.max_alloc) {
      throw core::Error("the populations need " + mib(buffer) + " in one buffer; " + devices.device(k).label() +
                        " allocates at most " + mib(info.max_alloc) + " at once");
    }
  }
  exact_arithmetic_ = config.exact_arithmetic;
  for (std::size_t k = 1; k < devices.size(); ++k) {
    exact_arithmetic_ = exact_arithmetic_ || devices.device(k).platform != devices.device(0).platform;
  }
  parts_.resize(devices.size());
  pending_.resize(devices.size());
  for (std::size_t k = 0; k < devices.size(); ++k) build_part(k, geometry);
  if (!grid_.halos()) return;
  std::vector<const core::Program*> programs;
  std::vector<const core::Buffer<std::uint8_t>*> flags;
  for (const Part& p : parts_) {
    programs.push_back(p.program);
    flags.push_back(&p.flags);
  }
  population_halos_ = std::make_unique<HaloExchange>(devices, grid_, placement_, processes, programs, flags, q,
                                                     store_bytes_, crossing);
  if (config.shan_chen || config.two_component) {
    // The pseudo-potential, one real per node, or the mixture field, five (lbm.cl's MIX), of which only
    // the densities cross: their halos are filled from the neighbours each step.
    const std::uint32_t densities = config.two_component ? 0b11u : 0b1u;
    psi_halos_ = std::make_unique<HaloExchange>(devices, grid_, placement_, processes, programs, flags,
                                                config.two_component ? 5 : 1, real_bytes(),
                                                [densities](int, int, core::HaloFlow) { return densities; });
  }
}

void Solver::build_part(std::size_t k, const Geometry& geometry) {
  Part& p = parts_[k];
  const std::size_t part = global_part(k);
  p.local = grid_.local(part);
  const std::size_t cells = volume(p.local);
  const core::Context& ctx = devices_->context(k);
  const core::Queue& queue = devices_->compute(k);

  // The box's node types, its halos taken periodically from the neighbouring boxes.
  std::vector<std::uint8_t> types(cells);
  for (int z = 0, i = 0; z < p.local[2]; ++z) {
    for (int y = 0; y < p.local[1]; ++y) {
      for (int x = 0; x < p.local[0]; ++x, ++i) {
        types[static_cast<std::size_t>(i)] =
            geometry.codes()[geometry.index(static_cast<std::size_t>(grid_.global(part, 0, x)),
                                            static_cast<std::size_t>(grid_.global(part, 1, y)),
                                            static_cast<std::size_t>(grid_.global(part, 2, z)))];
      }
    }
  }
  p.flags = core::Buffer<std::uint8_t>(ctx, cells);
  p.wall_bits = core::Buffer<std::uint32_t>(ctx, cells);
  p.flags.write(queue, types);
  core::Buffer<std::uint8_t> type_buffer(ctx, cells);
  type_buffer.write(queue, types);
  const std::size_t arrays = config_.pattern == Pattern::ab ? 2 : 1;
  for (std::size_t c = 0; c < component_count(); ++c) {
    for (std::size_t array = 0; array < arrays; ++array) p.f[c][array] = core::Buffer<std::uint8_t>(ctx, cells * q * store_bytes_);
  }
  const std::size_t psi_values = config_.two_component ? 5 : config_.shan_chen ? 1 : 0;
  p.psi = core::Buffer<std::uint8_t>(ctx, psi_values ? psi_values * cells * real_bytes() : 1);

  core::BuildOptions options(config_.storage == Storage::fp64 ? core::Precision::f64 : core::Precision::f32);
  if (config_.storage == Storage::fp16) options.define("STORE_HALF", 1);
  // CPUs vectorise work-items only through straight-line code with addresses the compiler sees are
  // consecutive, which 32-bit index arithmetic (it may wrap) hides: about 3x on PoCL. GPUs prefer
  // returning from wall nodes and the cheaper 32-bit slots until the slot count needs 64 bits.
  const bool cpu = devices_->device(k).info.kind == core::DeviceKind::cpu;
  if (cpu) options.define("UNIFORM_NODES", 1);
  // CPUs take the nodes as explicit vectors of 8 along x with FP32 arithmetic (lbm.cl says why).
  // Measured on a 16-core Xeon (PoCL 5): 8 lanes ahead of 16 and of 4; FP64 vectors no faster than the
  // scalar kernels, which run near the memory bound there.
  const bool vectors = cpu && config_.storage != Storage::fp64 && !config_.shan_chen && !config_.two_component;
  if (vectors) {
    p.lanes = 8;
    options.define("LBM_VEC", p.lanes);
  }
  if (cpu || cells * q >= (std::size_t{1} << 32)) options.define("INDEX64", 1);
  // A-A's shifts along x balanced between its two steps, and its even step bouncing packets into the
  // walls' slots so that the odd step reads without its wall bits (lbm.cl says how and what each gains
  // on the H200). FP16 storage loses by both, and CPU vectors take their nodes whole along x and treat
  // walls their own way. CPU scalar kernels (FP64, multiphase) take both like GPUs, so that PoCL tests
  // the GPUs' code; on 2 PoCL cores FP64 128^3 A-A measured 54-57 against 59-65 MLUPs/s with
  // SHIFT_WEST and A-B 49-51 against 20.5 (noisy).
  if (!vectors && config_.storage != Storage::fp16) options.define("SHIFT_WEST", 1).define("BOUNCE_INTO_WALLS", 1);
  const auto open = [](std::uint8_t t) {
    return t == static_cast<std::uint8_t>(NodeType::inlet) || t == static_cast<std::uint8_t>(NodeType::outlet);
  };
  if (std::any_of(types.begin(), types.end(), open)) options.define("OPEN_BOUNDARIES", 1);
  if (exact_arithmetic_) options.define("LBM_NO_FMA", 1).raw("-cl-fp32-correctly-rounded-divide-sqrt");
  if (config_.max_registers && core::takes_register_budget(devices_->device(k).info)) {
    options.raw("-cl-nv-maxrregcount=" + std::to_string(config_.max_registers));
  }
  if (config_.shan_chen) options.define("SHAN_CHEN", 1);
  if (config_.two_component) options.define("TWO_COMPONENT", 1);
  const core::Program& program = ctx.program("lbm/lbm.cl", options);
  p.program = &program;

  // Argument 0 of every node kernel, its region, is set by launch().
  const double g = config_.shan_chen ? config_.shan_chen->g : config_.two_component ? config_.two_component->g : 0.0;
  for (std::size_t c = 0; c < component_count(); ++c) {
    Part::Kernels& kc = p.component[c];
    const double omega = 1.0 / (c == 0 ? config_.tau : config_.two_component->tau_b);
    // With two components a collision and lbm_fields also take the index of the other component.
    const auto other = static_cast<int>(1 - c);
    auto physics = [&](core::Kernel& kernel, cl_uint first) {
      set_dims(kernel, first, p);
      set_real(kernel, first + 3, omega);
      for (cl_uint d = 0; d < 3; ++d) set_real(kernel, first + 4 + d, config_.force[d]);
      kernel.set(first + 7, p.psi);
      set_real(kernel, first + 8, g);
      set_open_boundaries(kernel, first + 9);
      if (config_.two_component) kernel.set(first + 13, other);
    };
    for (int parity = 0; parity < 2; ++parity) {
      if (config_.pattern == Pattern::ab) {
        kc.ab[parity] = program.kernel(vectors ? "lbm_ab_vec" : "lbm_ab");
        kc.ab[parity].args(cl_int8{}, p.f[c][1 - parity], p.f[c][parity], p.flags, p.wall_bits);
        physics(kc.ab[parity], 5);
      }
    }
    if (config_.pattern == Pattern::aa) {
      kc.aa[0] = program.kernel(vectors ? "lbm_aa_even_vec" : "lbm_aa_even");
      kc.aa[1] = program.kernel(vectors ? "lbm_aa_odd_vec" : "lbm_aa_odd");
      for (core::Kernel& kernel : kc.aa) {
        kernel.args(cl_int8{}, p.f[c][0], p.flags, p.wall_bits);
        physics(kernel, 4);
      }
    }
    if (config_.pattern == Pattern::lagrangian) {
      kc.lagrangian = program.kernel(vectors ? "lbm_lagrangian_vec" : "lbm_lagrangian");
      kc.lagrangian.args(cl_int8{}, p.f[c][0], p.flags, p.wall_bits);
      physics(kc.lagrangian, 7);
    }
    kc.fields = program.kernel("lbm_fields");
    kc.fields.set(4, p.flags);
    kc.fields.set(5, p.wall_bits);
    set_dims(kc.fields, 6, p);
    for (cl_uint d = 0; d < 3; ++d) set_real(kc.fields, 13 + d, config_.force[d]);
    kc.fields.set(16, p.psi);
    set_real(kc.fields, 17, g);
    set_open_boundaries(kc.fields, 18);
    if (config_.two_component) kc.fields.set(22, other);
  }
  p.init = program.kernel("lbm_init");
  if (config_.two_component) {
    p.psi_pass = program.kernel("lbm_mix");
    p.psi_pass.set(1, p.psi);
    p.psi_pass.set(3, p.flags);
    p.psi_pass.set(4, p.wall_bits);
    set_dims(p.psi_pass, 5, p);
    set_real(p.psi_pass, 13, 1.0 / config_.tau);
    set_real(p.psi_pass, 14, 1.0 / config_.two_component->tau_b);
    for (cl_uint c = 0; c < 2; ++c) set_real(p.psi_pass, 15 + c, config_.two_component->wall_density[c]);
    set_open_boundaries(p.psi_pass, 17);
  }
  if (config_.shan_chen) {
    p.psi_pass = program.kernel("lbm_psi");
    p.psi_pass.set(1, p.psi);
    p.psi_pass.set(3, p.flags);
    p.psi_pass.set(4, p.wall_bits);
    set_dims(p.psi_pass, 5, p);
    set_real(p.psi_pass, 12, config_.shan_chen->psi0);
    set_real(p.psi_pass, 13, config_.shan_chen->rho0);
    set_open_boundaries(p.psi_pass, 14);
  }
  // The kernels read marked flags and wall bits that lbm_mark derives from the node types.
  core::Kernel mark = program.kernel("lbm_mark");
  mark.args(cl_int8{}, p.flags, p.wall_bits, type_buffer);
  set_dims(mark, 4, p);
  launch(mark, k, own(k), {}).wait();
}

std::size_t Solver::nodes() const {
  return static_cast<std::size_t>(dims_[0]) * static_cast<std::size_t>(dims_[1]) * static_cast<std::size_t>(dims_[2]);
}

std::size_t Solver::bytes_per_update() const { return component_count() * 2 * q * store_bytes_ + 1; }

std::size_t Solver::required_bytes(const std::array<int, 3>& dims, const Config& config) {
  const std::size_t nodes = static_cast<std::size_t>(dims[0]) * static_cast<std::size_t>(dims[1]) *
                            static_cast<std::size_t>(dims[2]);
  const std::size_t arrays = config.pattern == Pattern::ab ? 2 : 1;
  const std::size_t store = config.storage == Storage::fp16 ? 2 : config.storage == Storage::fp32 ? 4 : 8;
  const std::size_t real = config.storage == Storage::fp64 ? 8 : 4;
  const std::size_t components = config.two_component ? 2 : 1;
  const std::size_t psi = config.two_component ? 5 * real : config.shan_chen ? real : 0;
  // Populations, then per node the flag byte, the wall-bits word and the pseudo-potential (or the
  // mixture field).
  return components * arrays * nodes * q * store + nodes * (1 + sizeof(std::uint32_t) + psi);
}

void Solver::set_dims(core::Kernel& k, cl_uint first, const Part& p) const {
  for (cl_uint d = 0; d < 3; ++d) k.set(first + d, p.local[d]);
}

void Solver::set_open_boundaries(core::Kernel& k, cl_uint first) const {
  for (cl_uint c = 0; c < 3; ++c) set_real(k, first + c, config_.inlet_velocity[c]);
  set_real(k, first + 3, config_.outlet_density);
}

void Solver::set_real(core::Kernel& k, cl_uint index, double value) const {
  if (config_.storage == Storage::fp64) {
    k.set(index, value);
  } else {
    k.set(index, static_cast<float>(value));
  }
}

std::size_t Solver::work_group() const { return config_.work_group ? config_.work_group : 64; }

std::size_t Solver::work_group_y() const { return config_.work_group_y ? config_.work_group_y : 1; }

core::NDRange Solver::local() const { return core::NDRange(work_group(), work_group_y(), 1); }

Solver::Region Solver::own(std::size_t k) const {
  return {{grid_.halo(0), grid_.halo(1), grid_.halo(2)}, grid_.extent(global_part(k))};
}

std::vector<Solver::Region> Solver::boundary_layers(std::size_t k, Region& interior) const {
  interior = own(k);
  std::vector<Region> layers;
  // z first: its layers are whole x-y planes, the cheapest launches.
  for (int axis = 2; axis >= 0; --axis) {
    if (!grid_.split(axis) || interior.count[axis] == 0) continue;
    Region lower = interior, upper = interior;
    lower.count[axis] = upper.count[axis] = 1;
    upper.first[axis] = interior.first[axis] + interior.count[axis] - 1;
    layers.push_back(lower);
    if (interior.count[axis] > 1) layers.push_back(upper);
    const int taken = std::min(interior.count[axis], 2);
    interior.first[axis] += 1;
    interior.count[axis] -= taken;
  }
  return layers;
}

void Solver::initialise(double rho, std::array<double, 3> u) {
  if (config_.two_component) throw core::Error("two-component flow is initialised with a density per component");
  initialise(std::vector<std::vector<double>>{}, u, rho);
}

void Solver::initialise(std::span<const double> rho, std::array<double, 3> u) {
  if (config_.two_component) throw core::Error("two-component flow is initialised with a density per component");
  initialise(boxes(rho, "initial density"), u, 1.0);
}

void Solver::initialise(std::span<const double> rho_a, std::span<const double> rho_b, std::array<double, 3> u) {
  if (!config_.two_component) throw core::Error("a density per component needs the two_component model");
  initialise(boxes(rho_a, "initial density of component a"), u, 1.0, 0);
  initialise(boxes(rho_b, "initial density of component b"), u, 1.0, 1);
}

std::vector<std::vector<double>> Solver::boxes(std::span<const double> field, const char* what) const {
  if (field.size() != nodes()) {
    throw core::Error(std::string(what) + " has " + std::to_string(field.size()) + " values for " +
                      std::to_string(nodes()) + " nodes");
  }
  std::vector<std::vector<double>> local(parts_.size());
  for (std::size_t k = 0; k < parts_.size(); ++k) {
    const std::size_t part = global_part(k);
    const Extent& box = parts_[k].local;
    for (int z = 0; z < box[2]; ++z) {
      for (int y = 0; y < box[1]; ++y) {
        for (int x = 0; x < box[0]; ++x) {
          local[k].push_back(field[static_cast<std::size_t>(grid_.global(part, 0, x)) +
                                   static_cast<std::size_t>(dims_[0]) *
                                       (static_cast<std::size_t>(grid_.global(part, 1, y)) +
                                        static_cast<std::size_t>(dims_[1]) * static_cast<std::size_t>(grid_.global(part, 2, z)))]);
        }
      }
    }
  }
  return local;
}

void Solver::initialise(const std::vector<std::vector<double>>& local_rho, std::array<double, 3> u, double rho,
                        std::size_t component) {
  for (std::size_t k = 0; k < parts_.size(); ++k) {
    Part& p = parts_[k];
    const core::Context& ctx = devices_->context(k);
    const core::Queue& queue = devices_->compute(k);
    const bool field = !local_rho.empty();
    core::Buffer<std::uint8_t> values(ctx, field ? local_rho[k].size() * real_bytes() : 1);
    if (field) {
      std::vector<std::uint8_t> bytes(values.size());
      for (std::size_t i = 0; i < local_rho[k].size(); ++i) {
        if (real_bytes() == 8) {
          std::memcpy(&bytes[8 * i], &local_rho[k][i], 8);
        } else {
          const auto v = static_cast<float>(local_rho[k][i]);
          std::memcpy(&bytes[4 * i], &v, 4);
        }
      }
      values.write(queue, bytes);
    }
    p.init.set(0, p.f[component][0]);
    set_dims(p.init, 1, p);
    set_real(p.init, 4, rho);
    for (cl_uint c = 0; c < 3; ++c) set_real(p.init, 5 + c, u[c]);
    p.init.set(8, values);
    p.init.set(9, field ? 1 : 0);
    // Every local node, halos included.
    pending_[k] = p.init.launch(queue,
                                core::NDRange(core::round_up(static_cast<std::size_t>(p.local[0]), work_group()),
                                              static_cast<std::size_t>(p.local[1]), static_cast<std::size_t>(p.local[2])),
                                core::NDRange(work_group(), 1, 1));
    pending_[k].wait();  // `values` goes out of scope
  }
  step_ = 0;
}

void Solver::psi_pass() const {
  const std::size_t array = config_.pattern == Pattern::ab ? static_cast<std::size_t>(step_ % 2) : 0;
  for (std::size_t k = 0; k < parts_.size(); ++k) {
    core::Kernel psi = parts_[k].psi_pass;
    psi.set(2, parts_[k].f[0][array]);
    set_state(psi, 8);
    if (config_.two_component) psi.set(12, parts_[k].f[1][array]);
    const std::span<const core::Event> wait = pending_[k] ? std::span(&pending_[k], 1) : std::span<const core::Event>();
    pending_[k] = launch(psi, k, own(k), wait);
  }
  if (psi_halos_) {
    std::vector<const core::Buffer<std::uint8_t>*> fields;
    for (const Part& p : parts_) fields.push_back(&p.psi);
    pending_ = psi_halos_->exchange(fields, core::HaloFlow::fill, pending_);
  }
}

int Solver::layout() const {
  if (config_.pattern == Pattern::lagrangian) return 2;
  return config_.pattern == Pattern::aa && step_ % 2 ? 1 : 0;
}

void Solver::set_state(core::Kernel& k, cl_uint first) const {
  k.set(first, layout());
  for (cl_uint d = 0; d < 3; ++d) k.set(first + 1 + d, static_cast<int>(step_ % dims_[d]));
}

core::Event Solver::launch(core::Kernel kernel, std::size_t k, const Region& region,
                           std::span<const core::Event> wait, int lanes) const {
  kernel.set(0, cl_int8{{region.first[0], region.first[1], region.first[2], region.first[0] + region.count[0],
                         region.first[1] + region.count[1], 0, 0, 0}});
  const auto items = static_cast<std::size_t>((region.count[0] + lanes - 1) / lanes);
  const core::NDRange global(core::round_up(items, work_group()),
                             core::round_up(static_cast<std::size_t>(region.count[1]), work_group_y()),
                             static_cast<std::size_t>(region.count[2]));
  return kernel.launch(devices_->compute(k), global, local(), wait);
}

core::Event Solver::launch_all(const std::function<const core::Kernel&(const Part&)>& pick, std::size_t array,
                               std::optional<core::HaloFlow> flow, std::size_t component) const {
  auto wait = [&](std::size_t k) {
    return pending_[k] ? std::span(&pending_[k], 1) : std::span<const core::Event>();
  };
  if (!flow || !population_halos_) {
    for (std::size_t k = 0; k < parts_.size(); ++k) pending_[k] = launch(pick(parts_[k]), k, own(k), wait(k), parts_[k].lanes);
    return pending_[0];
  }
  // The boundary layers first, then their faces' packing, then the interiors, all on each device's
  // in-order compute queue, so the faces travel while the interiors are updated.
  std::vector<core::Event> boundary(parts_.size()), first(parts_.size());
  std::vector<Region> interiors(parts_.size());
  for (std::size_t k = 0; k < parts_.size(); ++k) {
    for (const Region& layer : boundary_layers(k, interiors[k])) {
      boundary[k] = launch(pick(parts_[k]), k, layer, first[k] ? std::span<const core::Event>() : wait(k), parts_[k].lanes);
      if (!first[k]) first[k] = boundary[k];
    }
  }
  std::vector<const core::Buffer<std::uint8_t>*> fields;
  for (const Part& p : parts_) fields.push_back(&p.f[component][array]);
  pending_ = population_halos_->exchange(fields, *flow, boundary, [&] {
    for (std::size_t k = 0; k < parts_.size(); ++k) {
      if (interiors[k].nodes() > 0) launch(pick(parts_[k]), k, interiors[k], {}, parts_[k].lanes);
      devices_->compute(k).flush();
    }
  });
  return first[0];
}

core::Event Solver::advance(long steps) {
  core::Event last;
  for (long s = 0; s < steps; ++s, ++step_) {
    const int parity = static_cast<int>(step_ % 2);
    if (config_.shan_chen || config_.two_component) psi_pass();
    // With two components each collides in turn; both read only their own populations and the
    // mixture field of the step's start.
    for (std::size_t c = 0; c < component_count(); ++c) {
      switch (config_.pattern) {
        case Pattern::ab:
          // Packets pushed into the halos of the array just written belong to the neighbours.
          last = launch_all([parity, c](const Part& p) -> const core::Kernel& { return p.component[c].ab[parity]; },
                            1 - static_cast<std::size_t>(parity), core::HaloFlow::swap, c);
          break;
        case Pattern::aa:
          // Even steps stay inside the node; the odd step then reads the neighbours' reversed packets
          // (filled into the halos first) and pushes packets into them (swapped and merged after).
          last = launch_all([parity, c](const Part& p) -> const core::Kernel& { return p.component[c].aa[parity]; }, 0,
                            parity == 0 ? core::HaloFlow::fill : core::HaloFlow::swap, c);
          break;
        case Pattern::lagrangian:
          for (cl_uint d = 0; d < 3; ++d) {
            parts_[0].component[c].lagrangian.set(4 + d, static_cast<int>(step_ % dims_[d]));
          }
          last = launch_all([c](const Part& p) -> const core::Kernel& { return p.component[c].lagrangian; }, 0,
                            std::nullopt, c);
          break;
      }
    }
  }
  return last;
}

Fields Solver::fields() const {
  const std::size_t real_bytes = this->real_bytes();
  const std::size_t array = config_.pattern == Pattern::ab ? static_cast<std::size_t>(step_ % 2) : 0;
  // The velocity includes half the interaction force.
  if (config_.shan_chen || config_.two_component) psi_pass();
  // Each part's own nodes, packed in part order: a process's parts are consecutive, so across
  // processes its share is one piece of the packed arrays, which rank 0 gathers.
  std::vector<std::size_t> packed_at(grid_.parts() + 1, 0);
  for (std::size_t part = 0; part < grid_.parts(); ++part) packed_at[part + 1] = packed_at[part] + volume(grid_.extent(part));
  const std::size_t per_component = config_.two_component ? nodes() : 0;
  Fields packed{dims_, std::vector<double>(nodes()), std::vector<double>(3 * nodes()),
                std::vector<double>(per_component), std::vector<double>(per_component)};
  for (std::size_t k = 0; k < parts_.size(); ++k) {
    const Part& p = parts_[k];
    const Region mine = own(k);
    const std::size_t cells = volume(p.local), at = packed_at[global_part(k)];
    const core::Context& ctx = devices_->context(k);
    const core::Queue& queue = devices_->compute(k);
    core::Buffer<std::uint8_t> rho(ctx, cells * real_bytes), u(ctx, 3 * cells * real_bytes);
    const std::span<const core::Event> wait = pending_[k] ? std::span(&pending_[k], 1) : std::span<const core::Event>();
    std::vector<std::uint8_t> bytes(3 * cells * real_bytes);
    // The own nodes of a per-node field of `components` reals, added to `dst` (packed).
    auto convert = [&](const core::Buffer<std::uint8_t>& b, std::size_t components, double* dst) {
      b.read(queue, std::span(bytes).first(components * cells * real_bytes));
      std::size_t i = 0;
      for (int z = mine.first[2]; z < mine.first[2] + mine.count[2]; ++z) {
        for (int y = mine.first[1]; y < mine.first[1] + mine.count[1]; ++y) {
          for (int x = mine.first[0]; x < mine.first[0] + mine.count[0]; ++x, ++i) {
            const std::size_t n = static_cast<std::size_t>(x) +
                                  static_cast<std::size_t>(p.local[0]) *
                                      (static_cast<std::size_t>(y) + static_cast<std::size_t>(p.local[1]) * static_cast<std::size_t>(z));
            for (std::size_t c = 0; c < components; ++c) {
              const std::size_t from = (components * n + c) * real_bytes;
              double v;
              if (real_bytes == 8) {
                std::memcpy(&v, &bytes[from], 8);
              } else {
                float f;
                std::memcpy(&f, &bytes[from], 4);
                v = f;
              }
              dst[components * i + c] += v;
            }
          }
        }
      }
    };
    for (std::size_t c = 0; c < component_count(); ++c) {
      core::Kernel fields = p.component[c].fields;
      fields.set(1, rho);
      fields.set(2, u);
      fields.set(3, p.f[c][array]);
      set_state(fields, 9);
      launch(fields, k, mine, wait);
      // With two components, each component's density, and its momentum with half its force summed
      // into u.
      convert(rho, 1, &(config_.two_component ? (c == 0 ? packed.rho_a : packed.rho_b) : packed.rho)[at]);
      convert(u, 3, &packed.u[3 * at]);
    }
  }
  if (link_) {
    const std::size_t at = packed_at[placement_.first()], own = packed_at[placement_.first() + parts_.size()] - at;
    for (std::vector<double>* field : {&packed.rho, &packed.u, &packed.rho_a, &packed.rho_b}) {
      if (field->empty()) continue;  // the component densities of a one-component run
      const std::size_t bytes = field->size() / nodes() * sizeof(double);  // per node
      link_->gather(std::as_writable_bytes(std::span(*field)), at * bytes, own * bytes);
    }
  }
  // Unpacked into lattice order.
  Fields out{dims_, std::vector<double>(nodes()), std::vector<double>(3 * nodes()),
             std::vector<double>(per_component), std::vector<double>(per_component)};
  for (std::size_t part = 0; part < grid_.parts(); ++part) {
    const Extent origin = grid_.origin(part), extent = grid_.extent(part);
    std::size_t i = packed_at[part];
    for (int z = origin[2]; z < origin[2] + extent[2]; ++z) {
      for (int y = origin[1]; y < origin[1] + extent[1]; ++y) {
        const std::size_t row = static_cast<std::size_t>(dims_[0]) *
                                (static_cast<std::size_t>(y) + static_cast<std::size_t>(dims_[1]) * static_cast<std::size_t>(z));
        for (int x = origin[0]; x < origin[0] + extent[0]; ++x, ++i) {
          const std::size_t n = row + static_cast<std::size_t>(x);
          for (std::size_t d = 0; d < 3; ++d) out.u[3 * n + d] = packed.u[3 * i + d];
          if (!config_.two_component) {
            out.rho[n] = packed.rho[i];
            continue;
          }
          out.rho_a[n] = packed.rho_a[i];
          out.rho_b[n] = packed.rho_b[i];
          out.rho[n] = out.rho_a[n] + out.rho_b[n];
          for (std::size_t d = 0; d < 3; ++d) out.u[3 * n + d] = out.rho[n] > 0 ? out.u[3 * n + d] / out.rho[n] : 0.0;
        }
      }
    }
  }
  return out;
}

double Solver::mass() const {
  const Fields f = fields();
  double sum = 0;
  for (double r : f.rho) sum += r;
  // Rank 0 holds the whole field: its sum, in one device's order, goes to every process.
  return link_ ? link_->all_gather(std::span(&sum, 1))[0][0] : sum;
}

}  // namespace hetflow::lbm
