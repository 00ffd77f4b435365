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

// Directions whose packets cross a z-face: downwards (c_z = -1) through the lower face, upwards through
// the upper one; a slab's halo planes exchange only these.
core::HaloSegments crossing_directions(std::size_t plane_bytes) {
  core::HaloSegments s;
  for (std::size_t d : {6, 10, 12, 15, 17}) s.lower.push_back({d * plane_bytes, plane_bytes});
  for (std::size_t d : {5, 9, 11, 16, 18}) s.upper.push_back({d * plane_bytes, plane_bytes});
  return s;
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
      config_(config),
      store_bytes_(config.storage == Storage::fp16 ? 2 : config.storage == Storage::fp32 ? 4 : 8) {
  for (int d = 0; d < 3; ++d) {
    if (geometry.dims()[d] < 1 || geometry.dims()[d] > 1u << 30) {
      throw core::Error("lattice dimension " + std::to_string(geometry.dims()[d]) + " is outside 1 .. 2^30");
    }
    dims_[d] = static_cast<int>(geometry.dims()[d]);
  }
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
  // One slab per device of every process.
  const std::size_t slab_count = core::PartPlacement(processes, std::vector<double>(devices.size(), 1.0)).parts();
  if (slab_count > 1 && config.pattern == Pattern::lagrangian) {
    // A Lagrangian packet's slot moves every step, so no fixed halo plane holds what crosses a slab face.
    throw core::Error("the lagrangian pattern runs on one device; use aa or ab on several devices or processes");
  }
  if (static_cast<std::size_t>(dims_[2]) < slab_count) {
    throw core::Error("a lattice of " + std::to_string(dims_[2]) + " z-planes cannot be split over " +
                      std::to_string(slab_count) + " devices" + (processes ? " of all processes" : ""));
  }

  const std::size_t plane_bytes = static_cast<std::size_t>(dims_[0]) * static_cast<std::size_t>(dims_[1]) * store_bytes_;
  core::PlanOptions layout;
  layout.granule = q * plane_bytes;
  layout.halo = slab_count > 1 ? 1 : 0;
  layout.periodic = true;
  layout.link = processes;
  layout.segments = crossing_directions(plane_bytes);
  const std::size_t lattice = static_cast<std::size_t>(dims_[2]) * layout.granule;
  for (std::size_t k = 0; k < devices.size(); ++k) {
    const core::DeviceInfo& info = devices.device(k).info;
    const double share = 1.0 / static_cast<double>(slab_count);
    const auto need = static_cast<std::size_t>(static_cast<double>(device_bytes()) * share);
    if (need > info.global_mem) {
      throw core::Error("the lattice needs " + mib(need) + " of device memory on " + devices.device(k).label() +
                        ", which has " + mib(info.global_mem));
    }
    const auto buffer = static_cast<std::size_t>(static_cast<double>(lattice) * share);
    if (buffer > info.max_alloc) {
      throw core::Error("the populations need " + mib(buffer) + " in one buffer; " + devices.device(k).label() +
                        " allocates at most " + mib(info.max_alloc) + " at once");
    }
  }
  exact_arithmetic_ = config.exact_arithmetic;
  for (std::size_t k = 1; k < devices.size(); ++k) {
    exact_arithmetic_ = exact_arithmetic_ || devices.device(k).platform != devices.device(0).platform;
  }
  f_[0] = std::make_unique<core::Plan<std::uint8_t>>(devices, lattice, layout);
  if (config.pattern == Pattern::ab) f_[1] = std::make_unique<core::Plan<std::uint8_t>>(devices, lattice, layout);
  for (std::size_t array = 0; config.two_component && array < 2; ++array) {
    if (f_[array]) f_b_[array] = std::make_unique<core::Plan<std::uint8_t>>(devices, lattice, layout);
  }
  if (config.shan_chen || config.two_component) {
    // The pseudo-potential, one real per node, or the mixture field, five (lbm.cl's MIX), its halo
    // planes filled from the neighbours each step; of the mixture only the densities cross.
    const std::size_t real_plane = plane_bytes / store_bytes_ * real_bytes();
    core::PlanOptions psi_layout;
    psi_layout.granule = (config.two_component ? 5 : 1) * real_plane;
    psi_layout.halo = layout.halo;
    psi_layout.periodic = true;
    psi_layout.link = processes;
    if (config.two_component) psi_layout.segments = {{{0, 2 * real_plane}}, {{0, 2 * real_plane}}};
    psi_ = std::make_unique<core::Plan<std::uint8_t>>(devices, static_cast<std::size_t>(dims_[2]) * psi_layout.granule,
                                                      psi_layout);
  }
  parts_.resize(devices.size());
  pending_.resize(devices.size());
  for (std::size_t k = 0; k < devices.size(); ++k) build_part(k, geometry);
}

void Solver::build_part(std::size_t k, const Geometry& geometry) {
  Part& p = parts_[k];
  const core::Share share = f_[0]->share(k);
  p.z0 = static_cast<int>(share.offset / f_[0]->partition().granule());
  p.nz = static_cast<int>(share.count / f_[0]->partition().granule());
  const int planes = local_planes(p);
  const core::Context& ctx = devices_->context(k);
  const core::Queue& queue = devices_->compute(k);

  // The slab's node types, its halo planes taken periodically from the neighbouring slabs.
  const std::size_t plane = static_cast<std::size_t>(dims_[0]) * static_cast<std::size_t>(dims_[1]);
  std::vector<std::uint8_t> types(plane * static_cast<std::size_t>(planes));
  for (int z = 0; z < planes; ++z) {
    const int global_z = ((p.z0 + z - (halos() ? 1 : 0)) % dims_[2] + dims_[2]) % dims_[2];
    std::memcpy(&types[plane * static_cast<std::size_t>(z)], &geometry.codes()[plane * static_cast<std::size_t>(global_z)],
                plane);
  }
  p.flags = core::Buffer<std::uint8_t>(ctx, types.size());
  p.wall_bits = core::Buffer<std::uint32_t>(ctx, types.size());
  p.flags.write(queue, types);
  core::Buffer<std::uint8_t> type_buffer(ctx, types.size());
  type_buffer.write(queue, types);

  core::BuildOptions options(config_.storage == Storage::fp64 ? core::Precision::f64 : core::Precision::f32);
  if (config_.storage == Storage::fp16) options.define("STORE_HALF", 1);
  // CPUs vectorise work-items only through straight-line code with addresses the compiler sees are
  // consecutive, which 32-bit index arithmetic (it may wrap) hides: about 3x on PoCL. GPUs prefer
  // branching past walls and the cheaper 32-bit slots until the slot count needs 64 bits.
  const bool cpu = devices_->device(k).info.kind == core::DeviceKind::cpu;
  if (cpu) options.define("UNIFORM_NODES", 1);
  if (cpu || types.size() * q >= (std::size_t{1} << 32)) options.define("INDEX64", 1);
  const auto open = [](std::uint8_t t) {
    return t == static_cast<std::uint8_t>(NodeType::inlet) || t == static_cast<std::uint8_t>(NodeType::outlet);
  };
  if (std::any_of(types.begin(), types.end(), open)) options.define("OPEN_BOUNDARIES", 1);
  if (exact_arithmetic_) options.define("LBM_NO_FMA", 1).raw("-cl-fp32-correctly-rounded-divide-sqrt");
  if (config_.shan_chen) options.define("SHAN_CHEN", 1);
  if (config_.two_component) options.define("TWO_COMPONENT", 1);
  p.psi = psi_ ? psi_->buffer(k) : core::Buffer<std::uint8_t>(ctx, 1);
  const core::Program& program = ctx.program("lbm/lbm.cl", options);

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
        kc.ab[parity] = program.kernel("lbm_ab");
        kc.ab[parity].args(populations(1 - static_cast<std::size_t>(parity), k, c),
                           populations(static_cast<std::size_t>(parity), k, c), p.flags, p.wall_bits);
        physics(kc.ab[parity], 4);
      }
    }
    if (config_.pattern == Pattern::aa) {
      kc.aa[0] = program.kernel("lbm_aa_even");
      kc.aa[1] = program.kernel("lbm_aa_odd");
      for (core::Kernel& kernel : kc.aa) {
        kernel.args(populations(0, k, c), p.flags, p.wall_bits);
        physics(kernel, 3);
      }
    }
    if (config_.pattern == Pattern::lagrangian) {
      kc.lagrangian = program.kernel("lbm_lagrangian");
      kc.lagrangian.args(populations(0, k, c), p.flags, p.wall_bits);
      physics(kc.lagrangian, 6);
    }
    for (std::size_t array = 0; array < 2; ++array) {
      if (!f_[array]) continue;
      kc.merge[array] = program.kernel("lbm_merge");
      kc.merge[array].args(populations(array, k, c), p.flags);
      set_dims(kc.merge[array], 2, p);
    }
    kc.fields = program.kernel("lbm_fields");
    kc.fields.set(3, p.flags);
    kc.fields.set(4, p.wall_bits);
    set_dims(kc.fields, 5, p);
    for (cl_uint d = 0; d < 3; ++d) set_real(kc.fields, 12 + d, config_.force[d]);
    kc.fields.set(15, p.psi);
    set_real(kc.fields, 16, g);
    set_open_boundaries(kc.fields, 17);
    if (config_.two_component) kc.fields.set(21, other);
  }
  p.init = program.kernel("lbm_init");
  if (config_.two_component) {
    p.psi_pass = program.kernel("lbm_mix");
    p.psi_pass.args(p.psi);
    p.psi_pass.set(2, p.flags);
    p.psi_pass.set(3, p.wall_bits);
    set_dims(p.psi_pass, 4, p);
    set_real(p.psi_pass, 12, 1.0 / config_.tau);
    set_real(p.psi_pass, 13, 1.0 / config_.two_component->tau_b);
    for (cl_uint c = 0; c < 2; ++c) set_real(p.psi_pass, 14 + c, config_.two_component->wall_density[c]);
    set_open_boundaries(p.psi_pass, 16);
  }
  if (config_.shan_chen) {
    p.psi_pass = program.kernel("lbm_psi");
    p.psi_pass.args(p.psi);
    p.psi_pass.set(2, p.flags);
    p.psi_pass.set(3, p.wall_bits);
    set_dims(p.psi_pass, 4, p);
    set_real(p.psi_pass, 11, config_.shan_chen->psi0);
    set_real(p.psi_pass, 12, config_.shan_chen->rho0);
    set_open_boundaries(p.psi_pass, 13);
  }
  // The kernels read marked flags and wall bits that lbm_mark derives from the node types.
  core::Kernel mark = program.kernel("lbm_mark");
  mark.args(p.flags, p.wall_bits, type_buffer);
  set_dims(mark, 3, p);
  launch_planes(mark, k, 0, p.nz, {}).wait();
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
  k.set(first, dims_[0]);
  k.set(first + 1, dims_[1]);
  k.set(first + 2, local_planes(p));
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

// One work-item per own node on a 3-D range, x rounded up to whole work-groups (the kernels skip
// x >= nx; with halos they add one to z).
core::NDRange Solver::range(int planes) const {
  return core::NDRange(core::round_up(static_cast<std::size_t>(dims_[0]), work_group()),
                       static_cast<std::size_t>(dims_[1]), static_cast<std::size_t>(planes));
}

core::NDRange Solver::local() const { return core::NDRange(work_group(), 1, 1); }

void Solver::initialise(double rho, std::array<double, 3> u) {
  if (config_.two_component) throw core::Error("two-component flow is initialised with a density per component");
  initialise(std::vector<std::vector<double>>{}, u, rho);
}

void Solver::initialise(std::span<const double> rho, std::array<double, 3> u) {
  if (config_.two_component) throw core::Error("two-component flow is initialised with a density per component");
  initialise(slabs(rho, "initial density"), u, 1.0);
}

void Solver::initialise(std::span<const double> rho_a, std::span<const double> rho_b, std::array<double, 3> u) {
  if (!config_.two_component) throw core::Error("a density per component needs the two_component model");
  initialise(slabs(rho_a, "initial density of component a"), u, 1.0, 0);
  initialise(slabs(rho_b, "initial density of component b"), u, 1.0, 1);
}

std::vector<std::vector<double>> Solver::slabs(std::span<const double> field, const char* what) const {
  if (field.size() != nodes()) {
    throw core::Error(std::string(what) + " has " + std::to_string(field.size()) + " values for " +
                      std::to_string(nodes()) + " nodes");
  }
  const std::size_t plane = static_cast<std::size_t>(dims_[0]) * static_cast<std::size_t>(dims_[1]);
  std::vector<std::vector<double>> local(parts_.size());
  for (std::size_t k = 0; k < parts_.size(); ++k) {
    const int planes = local_planes(parts_[k]);
    for (int z = 0; z < planes; ++z) {
      const int global_z = ((parts_[k].z0 + z - (halos() ? 1 : 0)) % dims_[2] + dims_[2]) % dims_[2];
      const auto first = field.begin() + static_cast<std::ptrdiff_t>(plane * static_cast<std::size_t>(global_z));
      local[k].insert(local[k].end(), first, first + static_cast<std::ptrdiff_t>(plane));
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
    p.init.set(0, populations(0, k, component));
    set_dims(p.init, 1, p);
    set_real(p.init, 4, rho);
    for (cl_uint c = 0; c < 3; ++c) set_real(p.init, 5 + c, u[c]);
    p.init.set(8, values);
    p.init.set(9, field ? 1 : 0);
    // Every local plane, halos included (lbm_init does not skip them).
    pending_[k] = p.init.launch(queue, range(local_planes(p)), local());
    pending_[k].wait();  // `values` goes out of scope
  }
  step_ = 0;
}

void Solver::psi_pass() const {
  const std::size_t array = config_.pattern == Pattern::ab ? static_cast<std::size_t>(step_ % 2) : 0;
  for (std::size_t k = 0; k < parts_.size(); ++k) {
    core::Kernel psi = parts_[k].psi_pass;
    psi.set(1, f_[array]->buffer(k));
    set_state(psi, 7);
    if (config_.two_component) psi.set(11, f_b_[array]->buffer(k));
    const std::span<const core::Event> wait = pending_[k] ? std::span(&pending_[k], 1) : std::span<const core::Event>();
    pending_[k] = launch_planes(psi, k, 0, parts_[k].nz, wait);
  }
  if (halos()) {
    psi_->begin_halo_exchange(pending_, core::HaloFlow::fill);
    pending_ = psi_->end_halo_exchange();
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

core::Event Solver::launch_planes(const core::Kernel& kernel, std::size_t k, int first, int count,
                                  std::span<const core::Event> wait) const {
  const int offset = first + (halos() ? 1 : 0);  // local plane 0 is a halo when there are several devices
  return kernel.launch(devices_->compute(k), range(count), local(), wait,
                       core::NDRange(0, 0, static_cast<std::size_t>(offset)));
}

core::Event Solver::launch_all(const std::function<const core::Kernel&(const Part&)>& pick, std::size_t array,
                               std::optional<core::HaloFlow> flow, std::size_t component) const {
  auto wait = [&](std::size_t k) {
    return pending_[k] ? std::span(&pending_[k], 1) : std::span<const core::Event>();
  };
  if (!flow || !halos()) {
    for (std::size_t k = 0; k < parts_.size(); ++k) pending_[k] = launch_planes(pick(parts_[k]), k, 0, parts_[k].nz, wait(k));
    return pending_[0];
  }
  // The boundary planes first, so their halo traffic runs while the interior planes are updated; all
  // launches of a device share its in-order compute queue.
  std::vector<core::Event> boundary(parts_.size()), first(parts_.size());
  for (std::size_t k = 0; k < parts_.size(); ++k) {
    const Part& p = parts_[k];
    first[k] = launch_planes(pick(p), k, 0, 1, wait(k));
    boundary[k] = p.nz > 1 ? launch_planes(pick(p), k, p.nz - 1, 1, {}) : first[k];
  }
  plan(array, component).begin_halo_exchange(boundary, *flow);
  for (std::size_t k = 0; k < parts_.size(); ++k) {
    if (parts_[k].nz > 2) launch_planes(pick(parts_[k]), k, 1, parts_[k].nz - 2, {});
    devices_->compute(k).flush();
  }
  pending_ = plan(array, component).end_halo_exchange();
  if (*flow == core::HaloFlow::swap) {
    for (std::size_t k = 0; k < parts_.size(); ++k) {
      // Both boundary planes: the merge kernel's z selects the side.
      pending_[k] = parts_[k].component[component].merge[array].launch(devices_->compute(k), range(2), local(),
                                                                         std::span(&pending_[k], 1));
    }
  }
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
            parts_[0].component[c].lagrangian.set(3 + d, static_cast<int>(step_ % dims_[d]));
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
  const std::size_t plane = static_cast<std::size_t>(dims_[0]) * static_cast<std::size_t>(dims_[1]);
  const std::size_t array = config_.pattern == Pattern::ab ? static_cast<std::size_t>(step_ % 2) : 0;
  // The velocity includes half the interaction force.
  if (config_.shan_chen || config_.two_component) psi_pass();
  const std::size_t per_component = config_.two_component ? nodes() : 0;
  Fields out{dims_, std::vector<double>(nodes()), std::vector<double>(3 * nodes()),
             std::vector<double>(per_component), std::vector<double>(per_component)};
  for (std::size_t k = 0; k < parts_.size(); ++k) {
    const Part& p = parts_[k];
    const std::size_t local_nodes = plane * static_cast<std::size_t>(local_planes(p));
    const core::Context& ctx = devices_->context(k);
    const core::Queue& queue = devices_->compute(k);
    core::Buffer<std::uint8_t> rho(ctx, local_nodes * real_bytes), u(ctx, 3 * local_nodes * real_bytes);
    const std::span<const core::Event> wait = pending_[k] ? std::span(&pending_[k], 1) : std::span<const core::Event>();

    // Own planes only: the first local plane is a halo when there are several devices.
    const std::size_t first = halos() ? plane : 0, own = plane * static_cast<std::size_t>(p.nz);
    const std::size_t at = plane * static_cast<std::size_t>(p.z0);
    std::vector<std::uint8_t> bytes(3 * own * real_bytes);
    auto convert = [&](const core::Buffer<std::uint8_t>& b, std::size_t components, double* dst) {
      b.read(queue, std::span(bytes).first(components * own * real_bytes), components * first * real_bytes);
      for (std::size_t i = 0; i < components * own; ++i) {
        if (real_bytes == 8) {
          std::memcpy(&dst[i], &bytes[8 * i], 8);
        } else {
          float v;
          std::memcpy(&v, &bytes[4 * i], 4);
          dst[i] = v;
        }
      }
    };
    std::vector<double> momentum(config_.two_component ? 3 * own : 0);
    for (std::size_t c = 0; c < component_count(); ++c) {
      core::Kernel fields = p.component[c].fields;
      fields.args(rho, u, plan(array, c).buffer(k));
      set_state(fields, 8);
      launch_planes(fields, k, 0, p.nz, wait);
      if (!config_.two_component) {
        convert(rho, 1, &out.rho[at]);
        convert(u, 3, &out.u[3 * at]);
        continue;
      }
      // Each component's density, and its momentum with half its force summed into u.
      convert(rho, 1, &(c == 0 ? out.rho_a : out.rho_b)[at]);
      convert(u, 3, momentum.data());
      for (std::size_t i = 0; i < momentum.size(); ++i) out.u[3 * at + i] += momentum[i];
    }
  }
  for (std::size_t n = 0; n < out.rho_a.size(); ++n) {
    out.rho[n] = out.rho_a[n] + out.rho_b[n];
    for (std::size_t d = 0; d < 3; ++d) out.u[3 * n + d] = out.rho[n] > 0 ? out.u[3 * n + d] / out.rho[n] : 0.0;
  }
  if (link_) {
    // Rank 0 collects the other processes' planes, one piece each since a process holds consecutive slabs.
    const std::size_t at = plane * static_cast<std::size_t>(parts_.front().z0);
    const std::size_t own = plane * static_cast<std::size_t>(parts_.back().z0 + parts_.back().nz) - at;
    for (std::vector<double>* field : {&out.rho, &out.u, &out.rho_a, &out.rho_b}) {
      if (field->empty()) continue;  // the component densities of a one-component run
      const std::size_t bytes = field->size() / nodes() * sizeof(double);  // per node
      link_->gather(std::as_writable_bytes(std::span(*field)), at * bytes, own * bytes);
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
