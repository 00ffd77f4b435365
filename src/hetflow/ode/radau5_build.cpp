// Radau5::part: the kernels a launch shape runs on a device, with their scratch, built on first use.
#include <algorithm>
#include <string>

#include "hetflow/core/build_options.hpp"
#include "hetflow/core/registry.hpp"
#include "hetflow/ode/radau5.hpp"
#include "hetflow/ode/radau5_buffers.hpp"
#include "hetflow/ode/radau5_launch.hpp"

namespace hetflow::ode {
namespace {

// CPUs evaluate the Newton stages in SIMD lanes where the system offers it (System::stage_lanes); a GPU
// work-item has no lanes, and mapping 2 spreads the stages over its work-items instead.
bool stage_lanes(const core::Device& d, const System& system, Mapping mapping) {
  return system.stage_lanes && d.info.kind == core::DeviceKind::cpu && mapping != Mapping::work_group;
}

// radau5.cl's build options for the system in the shape's mapping on device d.
core::BuildOptions integrator_options(const core::Device& d, const System& system, const SparseLu* sparse,
                                      bool analytic_jacobian, const Radau5::LaunchShape& shape, const Options& o) {
  const bool group = shape.mapping == Mapping::work_group, phased = shape.mapping == Mapping::phased;
  core::BuildOptions build;
  build.define("ODE_N", system.n)
      .define("ODE_LU_BY_COLUMN", !group && d.info.kind == core::DeviceKind::cpu ? 1 : 0)
      .define("ODE_LU_PANEL", phased ? 0 : shape.lu_panel)
      .define("ODE_ANALYTIC_JACOBIAN", analytic_jacobian ? 1 : 0)
      .define("ODE_GROUP", group ? 1 : 0)
      .define("ODE_PHASED", phased ? 1 : 0)
      .define("ODE_CLAIM", launch::claims_systems(d, shape.mapping) ? 1 : 0)
      .define("ODE_SYSTEM_MATRICES", launch::system_matrices(d, o, shape.mapping, system) ? 1 : 0)
      .define("ODE_MATRIX", launch::matrix_doubles(system))
      .define("ODE_SPARSE", sparse ? 1 : 0)
      .define("ODE_SPARSE_ENTRIES", sparse ? sparse->entries : 0)
      .define("ODE_LOW_RANK", sparse && system.jacobian_low_rank ? 1 : 0)
      .define("ODE_GROUP_ONLY", system.group_only ? 1 : 0)
      .define("ODE_GLOBAL_VECTORS", launch::global_vectors(system, shape.mapping) ? 1 : 0)
      .define("ODE_GROUP_RHS", (group || system.group_only) && system.group_rhs ? 1 : 0)
      .define("ODE_GROUP_JAC",
              (group || system.group_only) && system.group_rhs && system.group_jac && analytic_jacobian ? 1 : 0)
      .define("ODE_GROUP_WORK", system.group_rhs ? system.group_work : 0)
      .define("ODE_LOCAL_SCRATCH", group && launch::local_scratch(d, system) ? 1 : 0)
      .define("ODE_FINAL_ROWS", launch::final_rows(d, static_cast<std::size_t>(system.n), shape.mapping) ? 1 : 0)
      .define("ODE_WARP_PIVOT", group && launch::warp_pivot(d, shape.work_group) ? 1 : 0)
      .define("ODE_OUTLINE_USER", d.info.kind == core::DeviceKind::gpu ? 1 : 0)
      .define("ODE_STAGE_LANES", stage_lanes(d, system, shape.mapping) ? 1 : 0);
  if (shape.max_registers) build.raw("-cl-nv-maxrregcount=" + std::to_string(shape.max_registers));
  return build;
}

// radau5_decompose.cl's build options for the phased mapping's decompositions on device d.
core::BuildOptions decompose_options(const core::Device& d, int n, int lu_panel) {
  const auto size = static_cast<std::size_t>(n);
  const bool gpu = d.info.kind == core::DeviceKind::gpu;
  core::BuildOptions lu;
  lu.define("ODE_N", n)
      .define("ODE_GROUP", gpu ? 1 : 0)
      .define("ODE_PHASED", gpu ? 0 : 1)
      .define("ODE_LU_BY_COLUMN", gpu ? 0 : 1)
      .define("ODE_LU_PANEL", lu_panel)
      .define("ODE_LOCAL_SCRATCH", launch::decompose_local(d, size) ? 1 : 0)
      .define("ODE_REGISTER_LU", launch::decompose_in_registers(d, size) ? 1 : 0)
      .define("ODE_FINAL_ROWS", launch::final_rows(d, size, Mapping::phased) ? 1 : 0)
      .define("ODE_WARP_PIVOT", gpu && launch::warp_pivot(d, launch::decompose_kernels(d, size).front().local) ? 1 : 0)
      .define("ODE_RL_PARTS", launch::register_lu_parts);
  return lu;
}

}  // namespace

// Built on first use: a batch size may never need the other mapping, and a large system's kernel takes
// minutes to compile on NVIDIA.
Radau5::Device& Radau5::part(std::size_t k, const LaunchShape& shape) const {
  const bool group = shape.mapping == Mapping::work_group, phased = shape.mapping == Mapping::phased;
  std::unique_ptr<Device>& part = parts_[k][2 * (group ? 1 : phased ? 2 : 0) + (shape.max_registers ? 1 : 0)];
  if (part) return *part;
  launch::check_system(system_, shape.mapping);
  const std::string source =
      core::kernel_source("ode/radau5.cl") + "\n#line 1 \"ode system\"\n" + system_.source + "\n";
  const core::Device& d = devices_->device(k);
  const core::BuildOptions build =
      integrator_options(d, system_, sparse_ ? &*sparse_ : nullptr, analytic_jacobian_, shape, options_);
  const core::Context& ctx = devices_->context(k);
  // The kernel takes a buffer even where it ignores it.
  part = std::make_unique<Device>(
      Device{.program = core::build_program(ctx, "ode/radau5.cl", source, build.str()),
             .scratch = core::Buffer<double>(
                 ctx, std::max<std::size_t>(launch::scratch_doubles(d, system_, shape.mapping, options_), 1)),
             .scratch_pivots = core::Buffer<cl_int>(
                 ctx, std::max<std::size_t>(group ? launch::group_scratch_pivots(d, system_, options_) : 0, 1)),
             .tables = core::Buffer<double>(ctx, std::max<std::size_t>(system_.tables.size(), 1)),
             .sparse = core::Buffer<cl_int>(ctx, sparse_ ? sparse_->plan.size() : 1),
             .no_list = core::Buffer<cl_uint>(ctx, 1)});
  if (!system_.tables.empty()) part->tables.write(devices_->compute(k), system_.tables);
  if (sparse_) part->sparse.write(devices_->compute(k), sparse_->plan);
  part->kernel = part->program.kernel("radau5_integrate");
  if (phased) {
    part->jacobian = part->program.kernel("radau5_jacobian");
    part->decompose_program =
        core::build_program(ctx, "ode/radau5_decompose.cl", core::kernel_source("ode/radau5_decompose.cl"),
                            decompose_options(d, system_.n, shape.lu_panel).str());
    for (const launch::DecomposeKernel& dk : launch::decompose_kernels(d, static_cast<std::size_t>(system_.n)))
      part->decompose.emplace_back(part->decompose_program->kernel(dk.name), dk.local);
  }
  return *part;
}

}  // namespace hetflow::ode
