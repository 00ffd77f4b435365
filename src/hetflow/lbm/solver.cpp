#include "hetflow/lbm/solver.hpp"

#include <cstring>

#include "hetflow/core/error.hpp"
#include "hetflow/core/program.hpp"

namespace hetflow::lbm {
namespace {

constexpr int q = 19;

std::string mib(std::size_t bytes) { return std::to_string((bytes + (1u << 20) - 1) >> 20) + " MiB"; }

}  // namespace

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

Solver::Solver(const core::DeviceSet& devices, const Geometry& geometry, const Config& config)
    : devices_(&devices),
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
  const core::Context& ctx = devices.context(0);
  const core::DeviceInfo& info = ctx.device().info;
  const std::size_t lattice = nodes() * q * store_bytes_;
  if (device_bytes() > info.global_mem) {
    throw core::Error("the lattice needs " + mib(device_bytes()) + " of device memory; " + ctx.device().label() +
                      " has " + mib(info.global_mem));
  }
  if (lattice > info.max_alloc) {
    throw core::Error("the populations need " + mib(lattice) + " in one buffer; " + ctx.device().label() +
                      " allocates at most " + mib(info.max_alloc) + " at once");
  }

  flags_ = core::Buffer<std::uint8_t>(ctx, nodes());
  wall_bits_ = core::Buffer<std::uint32_t>(ctx, nodes());
  f_[0] = core::Buffer<std::uint8_t>(ctx, lattice);
  if (config.pattern == Pattern::ab) f_[1] = core::Buffer<std::uint8_t>(ctx, lattice);

  core::BuildOptions options(config.storage == Storage::fp64 ? core::Precision::f64 : core::Precision::f32);
  if (config.storage == Storage::fp16) options.define("STORE_HALF", 1);
  // 32-bit slot arithmetic is cheaper; 64-bit only once the slot count needs it.
  if (nodes() * q >= (std::size_t{1} << 32)) options.define("INDEX64", 1);
  const core::Program& program = ctx.program("lbm/lbm.cl", options);
  const double omega = 1.0 / config.tau;
  auto physics = [&](core::Kernel& k, cl_uint first) {
    set_common(k, first);
    set_real(k, first + 3, omega);
    for (cl_uint c = 0; c < 3; ++c) set_real(k, first + 4 + c, config.force[c]);
  };
  for (int parity = 0; parity < 2; ++parity) {
    if (config.pattern == Pattern::ab) {
      ab_[parity] = program.kernel("lbm_ab");
      ab_[parity].set(0, f_[1 - parity]);
      ab_[parity].set(1, f_[parity]);
      ab_[parity].set(2, flags_);
      ab_[parity].set(3, wall_bits_);
      physics(ab_[parity], 4);
    }
  }
  if (config.pattern == Pattern::aa) {
    aa_[0] = program.kernel("lbm_aa_even");
    aa_[1] = program.kernel("lbm_aa_odd");
    for (core::Kernel& k : aa_) {
      k.set(0, f_[0]);
      k.set(1, flags_);
      k.set(2, wall_bits_);
      physics(k, 3);
    }
  }
  if (config.pattern == Pattern::lagrangian) {
    lagrangian_ = program.kernel("lbm_lagrangian");
    lagrangian_.set(0, f_[0]);
    lagrangian_.set(1, flags_);
    lagrangian_.set(2, wall_bits_);
    physics(lagrangian_, 3);
  }
  init_ = program.kernel("lbm_init");
  fields_ = program.kernel("lbm_fields");
  // The kernels read marked flags and wall bits that lbm_mark derives from the node types.
  core::Buffer<std::uint8_t> types(ctx, nodes());
  types.write(queue(), geometry.codes());
  core::Kernel mark = program.kernel("lbm_mark");
  mark.args(flags_, wall_bits_, types);
  set_common(mark, 3);
  mark.launch(queue(), global(), local()).wait();
}

std::size_t Solver::nodes() const {
  return static_cast<std::size_t>(dims_[0]) * static_cast<std::size_t>(dims_[1]) * static_cast<std::size_t>(dims_[2]);
}

std::size_t Solver::bytes_per_update() const { return 2 * q * store_bytes_ + 1; }

std::size_t Solver::device_bytes() const {
  const std::size_t arrays = config_.pattern == Pattern::ab ? 2 : 1;
  return arrays * nodes() * q * store_bytes_ + nodes() * (1 + sizeof(std::uint32_t));
}

void Solver::set_common(core::Kernel& k, cl_uint first) const {
  for (cl_uint d = 0; d < 3; ++d) k.set(first + d, dims_[d]);
}

void Solver::set_real(core::Kernel& k, cl_uint index, double value) const {
  if (config_.storage == Storage::fp64) {
    k.set(index, value);
  } else {
    k.set(index, static_cast<float>(value));
  }
}

std::size_t Solver::work_group() const { return config_.work_group ? config_.work_group : 64; }

// One work-item per node on a 3-D range, x rounded up to whole work-groups (the kernels skip x >= nx).
core::NDRange Solver::global() const {
  return core::NDRange(core::round_up(static_cast<std::size_t>(dims_[0]), work_group()),
                       static_cast<std::size_t>(dims_[1]), static_cast<std::size_t>(dims_[2]));
}

core::NDRange Solver::local() const { return core::NDRange(work_group(), 1, 1); }

void Solver::initialise(double rho, std::array<double, 3> u) {
  init_.set(0, f_[0]);
  set_common(init_, 1);
  set_real(init_, 4, rho);
  for (cl_uint c = 0; c < 3; ++c) set_real(init_, 5 + c, u[c]);
  init_.launch(queue(), global(), local());
  step_ = 0;
}

core::Event Solver::advance(long steps) {
  core::Event last;
  for (long s = 0; s < steps; ++s, ++step_) {
    const int parity = static_cast<int>(step_ % 2);
    switch (config_.pattern) {
      case Pattern::ab: last = ab_[parity].launch(queue(), global(), local()); break;
      case Pattern::aa: last = aa_[parity].launch(queue(), global(), local()); break;
      case Pattern::lagrangian:
        for (cl_uint d = 0; d < 3; ++d) lagrangian_.set(10 + d, static_cast<int>(step_ % dims_[d]));
        last = lagrangian_.launch(queue(), global(), local());
        break;
    }
  }
  return last;
}

Fields Solver::fields() const {
  const core::Context& ctx = devices_->context(0);
  const std::size_t real_bytes = config_.storage == Storage::fp64 ? 8 : 4;
  core::Buffer<std::uint8_t> rho(ctx, nodes() * real_bytes), u(ctx, 3 * nodes() * real_bytes);
  int layout = 0;
  const core::Buffer<std::uint8_t>* f = &f_[0];
  if (config_.pattern == Pattern::ab) f = &f_[step_ % 2];
  if (config_.pattern == Pattern::aa && step_ % 2 == 1) layout = 1;
  if (config_.pattern == Pattern::lagrangian) layout = 2;
  fields_.set(0, rho);
  fields_.set(1, u);
  fields_.set(2, *f);
  fields_.set(3, flags_);
  fields_.set(4, wall_bits_);
  set_common(fields_, 5);
  for (cl_uint c = 0; c < 3; ++c) set_real(fields_, 8 + c, config_.force[c]);
  fields_.set(11, layout);
  for (cl_uint d = 0; d < 3; ++d) fields_.set(12 + d, static_cast<int>(step_ % dims_[d]));
  fields_.launch(queue(), global(), local());

  auto to_double = [&](const core::Buffer<std::uint8_t>& b) {
    const std::vector<std::uint8_t> bytes = b.to_vector(queue());
    std::vector<double> out(bytes.size() / real_bytes);
    for (std::size_t i = 0; i < out.size(); ++i) {
      if (real_bytes == 8) {
        std::memcpy(&out[i], &bytes[8 * i], 8);
      } else {
        float v;
        std::memcpy(&v, &bytes[4 * i], 4);
        out[i] = v;
      }
    }
    return out;
  };
  return Fields{dims_, to_double(rho), to_double(u)};
}

double Solver::mass() const {
  const Fields f = fields();
  double sum = 0;
  for (double r : f.rho) sum += r;
  return sum;
}

}  // namespace hetflow::lbm
