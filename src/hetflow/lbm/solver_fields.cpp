// Reading the lattice back: density and velocity per node, gathered across devices and processes.
#include "hetflow/lbm/solver.hpp"

#include <cstring>

#include "hetflow/core/error.hpp"

namespace hetflow::lbm {

Fields Solver::fields() const {
  const std::size_t real_bytes = this->real_bytes();
  const std::size_t array = layout_array();
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
    const core::Context& ctx = devices_->context(device_of(k));
    const core::Queue& queue = devices_->compute(device_of(k));
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
      core::KernelArgs(fields, real(), p.at.fields_out).add(rho).add(u).add(3).add(p.f[c][array]);
      core::KernelArgs state(fields, real(), p.at.fields_state);
      bind_state(state);
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

core::Event Solver::velocity_on_device(core::Buffer<std::uint8_t>& u, int components) const {
  if (parts_.size() != 1 || link_ || config_.two_component) {
    throw core::Error("the velocity stays on the device for one component in one box on one device; this run has " +
                      std::to_string(parts_.size()) + " boxes" + (link_ ? " over processes" : "") +
                      (config_.two_component ? " and two components" : ""));
  }
  if (components != 3 && !(components == 2 && dims_[2] == 1)) {
    throw core::Error("velocity components " + std::to_string(components) + " of a lattice " +
                      std::to_string(dims_[2]) + " nodes deep: 3, or 2 for a lattice one node deep");
  }
  const std::size_t bytes = nodes() * static_cast<std::size_t>(components) * real_bytes();
  if (u.size() != bytes) {
    throw core::Error("a velocity buffer of " + std::to_string(u.size()) + " bytes for " + std::to_string(bytes));
  }
  if (config_.shan_chen) psi_pass();  // the velocity includes half the interaction force
  const Part& p = parts_[0];
  core::Buffer<std::uint8_t> rho(devices_->context(0), nodes() * real_bytes());
  core::Kernel fields = p.component[0].fields;
  core::KernelArgs(fields, real(), p.at.fields_out).add(rho).add(u).add(components).add(p.f[0][layout_array()]);
  core::KernelArgs state(fields, real(), p.at.fields_state);
  bind_state(state);
  const std::span<const core::Event> wait = pending_[0] ? std::span(&pending_[0], 1) : std::span<const core::Event>();
  pending_[0] = launch(fields, 0, own(0), wait);
  pending_[0].wait();  // `rho` goes out of scope
  return pending_[0];
}

double Solver::mass() const {
  const Fields f = fields();
  double sum = 0;
  for (double r : f.rho) sum += r;
  // Rank 0 holds the whole field: its sum, in one device's order, goes to every process.
  return link_ ? link_->all_gather(std::span(&sum, 1))[0][0] : sum;
}

}  // namespace hetflow::lbm
