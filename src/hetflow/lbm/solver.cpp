#include "hetflow/lbm/solver.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <iterator>
#include <limits>

#include "hetflow/core/error.hpp"
#include "hetflow/core/program.hpp"
#include "hetflow/lbm/memory_plan.hpp"

namespace hetflow::lbm {
namespace {

// Whether the geometry has Zou-He inlet or outlet nodes, which the models and drives that lack them refuse.
bool has_open_nodes(const Geometry& geometry) {
  return std::any_of(geometry.codes().begin(), geometry.codes().end(), [](std::uint8_t code) {
    const auto type = static_cast<NodeType>(code);
    return type == NodeType::inlet || type == NodeType::outlet;
  });
}

// D3Q19 velocities in lbm.cl's order.
constexpr int velocity[][3] = {{0, 0, 0},  {1, 0, 0},  {-1, 0, 0}, {0, 1, 0},  {0, -1, 0}, {0, 0, 1},  {0, 0, -1},
                                {1, 1, 0},  {-1, -1, 0}, {1, 0, 1},  {-1, 0, -1}, {0, 1, 1},  {0, -1, -1}, {1, -1, 0},
                                {-1, 1, 0}, {1, 0, -1}, {-1, 0, 1}, {0, 1, -1}, {0, -1, 1}};

// The populations that cross a face of `axis` moving towards `side`: a fill brings into a halo the
// packets its box's boundary nodes will pull back out of it (c pointing away from the box), a swap
// sends the packets pushed into a halo (c pointing out of the box).
std::uint32_t crossing(int axis, int side, core::HaloFlow flow) {
  const int c = flow == core::HaloFlow::fill ? -side : side;
  std::uint32_t mask = 0;
  for (std::size_t i = 0; i < std::size(velocity); ++i) {
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

// Config::boxes_per_device, or the fewest boxes per device whose buffers fit one allocation of every
// device of every process: their smallest limit, so that every process splits alike.
std::size_t choose_boxes(const core::DeviceSet& devices, const Extent& dims, const Config& config, core::Link* link) {
  if (config.boxes_per_device > 0) return config.boxes_per_device;
  std::uint64_t max_alloc = std::numeric_limits<std::uint64_t>::max();
  for (std::size_t k = 0; k < devices.size(); ++k) max_alloc = std::min(max_alloc, devices.device(k).info.max_alloc);
  std::size_t count = devices.size();
  if (link) {
    const double mine[2] = {static_cast<double>(count), static_cast<double>(max_alloc)};
    count = 0;
    for (const std::vector<double>& theirs : link->all_gather(mine)) {
      count += static_cast<std::size_t>(theirs[0]);
      max_alloc = std::min(max_alloc, static_cast<std::uint64_t>(theirs[1]));
    }
  }
  return boxes_per_device(dims, config, count, max_alloc);
}

}  // namespace

Solver::Solver(const core::DeviceSet& devices, const Geometry& geometry, const Config& config,
               core::Link* processes)
    : devices_(&devices),
      link_(processes),
      dims_(lattice_dims(geometry)),
      config_(config),
      store_bytes_(config.storage == Storage::fp16 ? 2 : config.storage == Storage::fp32 ? 4 : 8),
      boxes_(choose_boxes(devices, dims_, config, processes)),
      placement_(processes, std::vector<double>(devices.size() * boxes_, 1.0)),
      grid_(dims_, config.device_grid, placement_.parts() / boxes_, boxes_, config.device_weights) {
  if (!(config.tau > 0.5)) {
    throw core::Error("tau = " + std::to_string(config.tau) + " gives a non-positive viscosity: tau must exceed 0.5");
  }
  if (config.collision == Collision::trt && !(config.magic > 0 && std::isfinite(config.magic))) {
    throw core::Error("magic = " + std::to_string(config.magic) +
                      ": TRT's magic parameter must be a finite value above 0 (3/16 puts the walls half-way)");
  }
  const bool open = has_open_nodes(geometry);
  if (config.collision == Collision::mrt && open) {
    throw core::Error("collision mrt has no Zou-He inlets or outlets yet: the geometry has inlet or outlet nodes");
  }
  if (!std::isfinite(config.pressure_drop)) {
    throw core::Error("pressure_drop = " + std::to_string(config.pressure_drop) + " is not a finite number");
  }
  if (config.pressure_drop != 0 && open) {
    throw core::Error("a pressure drop drives a flow periodic along z; the geometry has inlet or outlet nodes, "
                      "which set the pressure themselves");
  }
  if (config.two_component) {
    if (config.collision != Collision::bgk) {
      throw core::Error(std::string("collision ") + to_string(config.collision) +
                        " is built for one component: two-component flow relaxes with BGK");
    }
    if (config.shan_chen) {
      throw core::Error("shan_chen and two_component are exclusive: a run is single-component or two-component");
    }
    if (!(config.two_component->tau_b > 0.5)) {
      throw core::Error("tau_b = " + std::to_string(config.two_component->tau_b) +
                        " gives a non-positive viscosity: tau_b must exceed 0.5");
    }
    if (open) throw core::Error("two-component flow has no open boundaries: the geometry has inlet or outlet nodes");
  }
  if (grid_.parts() > 1 && config.pattern == Pattern::lagrangian) {
    // A Lagrangian packet's slot moves every step, so no fixed halo layer holds what crosses a face.
    throw core::Error("the lagrangian pattern runs in one box, on one device; use aa or ab on several devices or processes, "
                      "or for a lattice larger than one allocation (lbm.boxes_per_device)");
  }
  std::vector<std::size_t> need(devices.size(), 0);
  for (std::size_t k = 0; k < placement_.local(); ++k) {
    const core::Device& device = devices.device(device_of(k));
    const Extent local = grid_.local(global_part(k));
    need[device_of(k)] += required_bytes(local, config);
    const std::size_t buffer = largest_buffer(local, config);
    if (buffer > device.info.max_alloc) {
      throw core::Error("a box of " + std::to_string(boxes_) + " per device needs " +
                        mib(static_cast<double>(buffer)) + " in one buffer; " + device.label() + " allocates at most " +
                        mib(static_cast<double>(device.info.max_alloc)) +
                        " at once: more boxes per device (lbm.boxes_per_device, 0 chooses) make each smaller");
    }
  }
  for (std::size_t k = 0; k < devices.size(); ++k) {
    const core::DeviceInfo& info = devices.device(k).info;
    if (need[k] > info.global_mem) {
      throw core::Error("the lattice needs " + mib(static_cast<double>(need[k])) + " of device memory on " +
                        devices.device(k).label() + ", which has " + mib(static_cast<double>(info.global_mem)));
    }
    if (work_group() * work_group_y() > info.max_work_group) {
      throw core::Error("a work-group of " + std::to_string(work_group()) + " x " + std::to_string(work_group_y()) +
                        " work-items: " + devices.device(k).label() + " takes at most " +
                        std::to_string(info.max_work_group));
    }
  }
  exact_arithmetic_ = config.exact_arithmetic;
  for (std::size_t k = 1; k < devices.size(); ++k) {
    exact_arithmetic_ = exact_arithmetic_ || devices.device(k).platform != devices.device(0).platform;
  }
  parts_.resize(placement_.local());
  pending_.resize(placement_.local());
  for (std::size_t k = 0; k < parts_.size(); ++k) build_part(k, geometry);
  if (!grid_.halos()) return;
  std::vector<const core::Program*> programs;
  std::vector<const core::Buffer<std::uint8_t>*> flags;
  for (const Part& p : parts_) {
    programs.push_back(p.program);
    flags.push_back(&p.flags);
  }
  population_halos_ = std::make_unique<HaloExchange>(devices, boxes_, grid_, placement_, processes, programs, flags,
                                                     q, store_bytes_, crossing);
  if (config.shan_chen || config.two_component) {
    // The pseudo-potential, one real per node, or the mixture field, five (lbm.cl's MIX), of which only
    // the densities cross: their halos are filled from the neighbours each step.
    const std::uint32_t densities = config.two_component ? 0b11u : 0b1u;
    psi_halos_ = std::make_unique<HaloExchange>(devices, boxes_, grid_, placement_, processes, programs, flags,
                                                config.two_component ? 5 : 1, real_bytes(),
                                                [densities](int, int, core::HaloFlow) { return densities; });
  }
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

std::size_t Solver::largest_buffer(const Extent& local, const Config& config) {
  const std::size_t cells = volume(local);
  const std::size_t store = config.storage == Storage::fp16 ? 2 : config.storage == Storage::fp32 ? 4 : 8;
  const std::size_t real = config.storage == Storage::fp64 ? 8 : 4;
  // The populations; the wall bits; the mixture field (five reals per node); the velocity read back.
  return std::max({cells * q * store, cells * sizeof(std::uint32_t), (config.two_component ? 5 : 3) * cells * real});
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
  initialise({}, {}, u, rho);
}

void Solver::initialise(std::span<const double> rho, std::array<double, 3> u) {
  if (config_.two_component) throw core::Error("two-component flow is initialised with a density per component");
  initialise(boxes(rho, "initial density"), {}, u, 1.0);
}

void Solver::initialise(std::span<const double> rho, std::span<const std::array<double, 3>> u) {
  if (config_.two_component) throw core::Error("two-component flow is initialised with a density per component");
  // Each component's boxes, interleaved again per node.
  std::vector<std::vector<double>> local_u(parts_.size());
  for (std::size_t c = 0; c < 3; ++c) {
    std::vector<double> component(u.size());
    for (std::size_t n = 0; n < u.size(); ++n) component[n] = u[n][c];
    const std::vector<std::vector<double>> boxed = boxes(component, "initial velocity");
    for (std::size_t k = 0; k < parts_.size(); ++k) {
      local_u[k].resize(3 * boxed[k].size());
      for (std::size_t n = 0; n < boxed[k].size(); ++n) local_u[k][3 * n + c] = boxed[k][n];
    }
  }
  initialise(boxes(rho, "initial density"), local_u, {0, 0, 0}, 1.0);
}

void Solver::initialise(std::span<const double> rho_a, std::span<const double> rho_b, std::array<double, 3> u) {
  if (!config_.two_component) throw core::Error("a density per component needs the two_component model");
  initialise(boxes(rho_a, "initial density of component a"), {}, u, 1.0, 0);
  initialise(boxes(rho_b, "initial density of component b"), {}, u, 1.0, 1);
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

core::Buffer<std::uint8_t> Solver::real_buffer(std::size_t k, const std::vector<double>& values) const {
  core::Buffer<std::uint8_t> buffer(devices_->context(device_of(k)), values.empty() ? 1 : values.size() * real_bytes());
  if (values.empty()) return buffer;
  std::vector<std::uint8_t> bytes(buffer.size());
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (real_bytes() == 8) {
      std::memcpy(&bytes[8 * i], &values[i], 8);
    } else {
      const auto v = static_cast<float>(values[i]);
      std::memcpy(&bytes[4 * i], &v, 4);
    }
  }
  buffer.write(devices_->compute(device_of(k)), bytes);
  return buffer;
}

void Solver::initialise(const std::vector<std::vector<double>>& local_rho,
                        const std::vector<std::vector<double>>& local_u, std::array<double, 3> u, double rho,
                        std::size_t component) {
  for (std::size_t k = 0; k < parts_.size(); ++k) {
    Part& p = parts_[k];
    const core::Queue& queue = devices_->compute(device_of(k));
    const core::Buffer<std::uint8_t> rho_values = real_buffer(k, local_rho.empty() ? std::vector<double>{} : local_rho[k]);
    const core::Buffer<std::uint8_t> u_values = real_buffer(k, local_u.empty() ? std::vector<double>{} : local_u[k]);
    core::KernelArgs init(p.init, real());
    init.add(p.f[component][0]);
    bind_dims(init, p);
    init.real(rho).reals(u).add(rho_values).add(local_rho.empty() ? 0 : 1).add(u_values).add(local_u.empty() ? 0 : 1);
    // Every local node, halos included.
    pending_[k] = p.init.launch(queue,
                                core::NDRange(core::round_up(static_cast<std::size_t>(p.local[0]), work_group()),
                                              static_cast<std::size_t>(p.local[1]), static_cast<std::size_t>(p.local[2])),
                                core::NDRange(work_group(), 1, 1));
    pending_[k].wait();  // the value buffers go out of scope
  }
  step_ = 0;
}

void Solver::psi_pass() const {
  const std::size_t array = layout_array();
  for (std::size_t k = 0; k < parts_.size(); ++k) {
    const Part& p = parts_[k];
    core::Kernel psi = p.psi_pass;
    core::KernelArgs(psi, real(), p.at.psi_in).add(p.f[0][array]);
    core::KernelArgs state(psi, real(), p.at.psi_state);
    bind_state(state);
    if (config_.two_component) core::KernelArgs(psi, real(), p.at.psi_in_b).add(p.f[1][array]);
    const std::span<const core::Event> wait = pending_[k] ? std::span(&pending_[k], 1) : std::span<const core::Event>();
    pending_[k] = launch(psi, k, own(k), wait);
  }
  if (psi_halos_) {
    std::vector<const core::Buffer<std::uint8_t>*> fields;
    for (const Part& p : parts_) fields.push_back(&p.psi);
    pending_ = psi_halos_->exchange(fields, core::HaloFlow::fill, pending_);
  }
}

std::size_t Solver::layout_array() const {
  return config_.pattern == Pattern::ab ? static_cast<std::size_t>(step_ % 2) : 0;
}

int Solver::layout() const {
  if (config_.pattern == Pattern::lagrangian) return 2;
  return config_.pattern == Pattern::aa && step_ % 2 ? 1 : 0;
}

core::Event Solver::launch(core::Kernel kernel, std::size_t k, const Region& region,
                           std::span<const core::Event> wait, int lanes) const {
  kernel.set(region_arg, cl_int8{{region.first[0], region.first[1], region.first[2], region.first[0] + region.count[0],
                         region.first[1] + region.count[1], 0, 0, 0}});
  const auto items = static_cast<std::size_t>((region.count[0] + lanes - 1) / lanes);
  const core::NDRange global(core::round_up(items, work_group()),
                             core::round_up(static_cast<std::size_t>(region.count[1]), work_group_y()),
                             static_cast<std::size_t>(region.count[2]));
  return kernel.launch(devices_->compute(device_of(k)), global, local(), wait);
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
      devices_->compute(device_of(k)).flush();
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
          {
            core::KernelArgs shift(parts_[0].component[c].lagrangian, real(), parts_[0].at.shift);
            bind_shift(shift);
          }
          last = launch_all([c](const Part& p) -> const core::Kernel& { return p.component[c].lagrangian; }, 0,
                            std::nullopt, c);
          break;
      }
    }
  }
  return last;
}

}  // namespace hetflow::lbm
