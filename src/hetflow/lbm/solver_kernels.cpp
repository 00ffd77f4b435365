// The arguments of lbm.cl's kernels, bound in the order of their parameter lists. A block of parameters
// that several kernels share has one binder, named in its comment after what it mirrors in lbm.cl.
#include "hetflow/core/program.hpp"
#include "hetflow/lbm/solver.hpp"

namespace hetflow::lbm {

core::KernelArgs Solver::node_args(core::Kernel& kernel) const {
  return core::KernelArgs(kernel, real(), region_arg + 1);
}

// nx, ny, nz: the part's local extent, halos included.
void Solver::bind_dims(core::KernelArgs& args, const Part& p) const {
  for (int d = 0; d < 3; ++d) args.add(p.local[d]);
}

// FLAG_ARGS: flags, wall_bits.
void Solver::bind_flags(core::KernelArgs& args, const Part& p) const { args.add(p.flags).add(p.wall_bits); }

// BOUNDARY_ARGS: in_ux, in_uy, in_uz, out_rho (the Zou-He inlet velocity and outlet density), jump_low,
// jump_high, jump_drho (the pressure jump across the periodic z boundary).
void Solver::bind_boundaries(core::KernelArgs& args, const Part& p) const {
  args.reals(config_.inlet_velocity).real(config_.outlet_density);
  args.add(p.jump_low).add(p.jump_high).real(3 * config_.pressure_drop);
}

// PHYSICS_ARGS: nx, ny, nz, omega, omega_minus, fx, fy, fz, psi, sc_g, BOUNDARY_ARGS, and with two
// components MIX_ARG (other). Only TRT kernels read omega_minus.
void Solver::bind_physics(core::KernelArgs& args, const Part& p, double omega, double g, int other) const {
  bind_dims(args, p);
  const double omega_minus =
      config_.collision == Collision::trt ? 1.0 / trt_tau_minus(config_.tau, config_.magic) : omega;
  args.real(omega).real(omega_minus).reals(config_.force).add(p.psi).real(g);
  bind_boundaries(args, p);
  if (config_.two_component) args.add(other);
}

// tx, ty, tz: the Lagrangian shift of the current step.
void Solver::bind_shift(core::KernelArgs& args) const {
  for (int d = 0; d < 3; ++d) args.add(static_cast<int>(step_ % dims_[d]));
}

// layout, tx, ty, tz: how lbm_fields, lbm_psi and lbm_mix read the current state.
void Solver::bind_state(core::KernelArgs& args) const {
  args.add(layout());
  bind_shift(args);
}

void Solver::bind_kernels(Part& p, const core::Program& program, bool vectors) const {
  const double g = config_.shan_chen ? config_.shan_chen->g : config_.two_component ? config_.two_component->g : 0.0;
  for (std::size_t c = 0; c < component_count(); ++c) {
    Part::Kernels& kc = p.component[c];
    const double omega = 1.0 / (c == 0 ? config_.tau : config_.two_component->tau_b);
    // With two components a collision and lbm_fields also take the index of the other component.
    const auto other = static_cast<int>(1 - c);
    // AB_PARAMS: fout, fin, FLAG_ARGS, PHYSICS_ARGS.
    for (int parity = 0; parity < 2; ++parity) {
      if (config_.pattern == Pattern::ab) {
        kc.ab[parity] = program.kernel(vectors ? "lbm_ab_vec" : "lbm_ab");
        core::KernelArgs args = node_args(kc.ab[parity]);
        args.add(p.f[c][1 - parity]).add(p.f[c][parity]);
        bind_flags(args, p);
        bind_physics(args, p, omega, g, other);
      }
    }
    // AA_PARAMS: fbuf, FLAG_ARGS, PHYSICS_ARGS.
    if (config_.pattern == Pattern::aa) {
      kc.aa[0] = program.kernel(vectors ? "lbm_aa_even_vec" : "lbm_aa_even");
      kc.aa[1] = program.kernel(vectors ? "lbm_aa_odd_vec" : "lbm_aa_odd");
      for (core::Kernel& kernel : kc.aa) {
        core::KernelArgs args = node_args(kernel);
        args.add(p.f[c][0]);
        bind_flags(args, p);
        bind_physics(args, p, omega, g, other);
      }
    }
    // LAG_PARAMS: fbuf, FLAG_ARGS, tx, ty, tz (set every step), PHYSICS_ARGS.
    if (config_.pattern == Pattern::lagrangian) {
      kc.lagrangian = program.kernel(vectors ? "lbm_lagrangian_vec" : "lbm_lagrangian");
      core::KernelArgs args = node_args(kc.lagrangian);
      args.add(p.f[c][0]);
      bind_flags(args, p);
      p.at.shift = args.next();
      args.skip(3);
      bind_physics(args, p, omega, g, other);
    }
    // lbm_fields: rho_out, u_out, components, fin (set per call), FLAG_ARGS, nx, ny, nz, the state (set
    // per call), fx, fy, fz, psi, sc_g, BOUNDARY_ARGS, MIX_ARG.
    kc.fields = program.kernel("lbm_fields");
    core::KernelArgs args = node_args(kc.fields);
    p.at.fields_out = args.next();
    args.skip(4);
    bind_flags(args, p);
    bind_dims(args, p);
    p.at.fields_state = args.next();
    args.skip(4);
    args.reals(config_.force).add(p.psi).real(g);
    bind_boundaries(args, p);
    if (config_.two_component) args.add(other);
  }
  p.init = program.kernel("lbm_init");  // bound by initialise()
  if (config_.shan_chen || config_.two_component) {
    // lbm_psi and lbm_mix begin alike: psi, fin (fa; set per pass), FLAG_ARGS, nx, ny, nz, the state
    // (set per pass).
    p.psi_pass = program.kernel(config_.two_component ? "lbm_mix" : "lbm_psi");
    core::KernelArgs args = node_args(p.psi_pass);
    args.add(p.psi);
    p.at.psi_in = args.next();
    args.skip();
    bind_flags(args, p);
    bind_dims(args, p);
    p.at.psi_state = args.next();
    args.skip(4);
    if (config_.two_component) {
      // lbm_mix: fb (set per pass), omega_a, omega_b, wall_a, wall_b.
      p.at.psi_in_b = args.next();
      args.skip();
      args.real(1.0 / config_.tau).real(1.0 / config_.two_component->tau_b).reals(config_.two_component->wall_density);
    } else {
      args.real(config_.shan_chen->psi0).real(config_.shan_chen->rho0);  // lbm_psi: psi0, rho0
    }
    bind_boundaries(args, p);  // both: BOUNDARY_ARGS
  }
}

}  // namespace hetflow::lbm
