#include "hetflow/ode/radau5_launch.hpp"

#include <algorithm>
#include <limits>
#include <string>

#include "hetflow/core/error.hpp"

namespace hetflow::ode::launch {
namespace {

// Up to here mapping 1 once a batch can fill the GPUs, and below that too unless the system has a
// cooperative rhs_group: at n = 16 its private matrices already take 8 KiB per work-item, which
// spills from registers and cache on GPUs, but the GPU hides that once enough systems run at once.
constexpr int automatic_group_above = 16;
// For such a small system with rhs_group, mapping 2 below this many systems per compute unit: one
// work-item integrating a system alone is slow, and a small batch leaves the GPU's other warps nothing
// to hide that behind. The chem benchmark's H2/O2 reactor (n = 11), both mappings at
// default_max_registers, puts the crossing of the two mappings' rates here (docs/chem.md, Performance).
constexpr std::size_t small_work_items_per_unit = 40;
// Above that n, the phased mapping once a batch has this many systems per compute unit of the GPUs,
// mapping 2 below: below the GPU's capacity the phased mapping's rate grows with the batch while
// mapping 2's stays near its plateau, and GRI-Mech 3.0 (n = 54) puts their crossing here
// (docs/chem.md, Performance).
constexpr std::size_t phased_per_unit = 64;

// Registers per work-item on NVIDIA GPUs unless Options::max_registers says otherwise, for every batch
// but mapping 2's smallest (uncapped_groups_per_unit). Uncapped, the compiler gives the reactor's
// kernels so many registers that only a few warps fit a multiprocessor; at 64 four times as many fit,
// and the spills this costs stay in cache (docs/chem.md, Performance).
constexpr std::size_t default_max_registers = 64;
// Mapping 2 keeps the compiler's registers below this many systems per compute unit: as many groups as
// that fit a multiprocessor uncapped, and the budget's spills only slow them.
constexpr std::size_t uncapped_groups_per_unit = 8;
// Where the passes' solves sweep in the final row order (final_rows) they hold 8 complex sums in
// registers, and a larger budget than the default pays for them.
constexpr std::size_t final_rows_max_registers = 80;
// Up to this n the phased mapping's decompositions keep each matrix in registers (register_lu.cl):
// there they beat the group LU in local memory, while for larger n every work-item walking all its rows
// at every step costs more than the group LU, whose work shrinks as the elimination proceeds.
constexpr std::size_t max_register_lu_n = 16;

// The most work-items a multiprocessor of an NVIDIA GPU holds at once since Volta (H100, H200), and so
// how many work-items per compute unit the driver reserves private memory for.
constexpr std::size_t resident_per_unit = 2048;
// Without Options::private_matrix_limit, mapping 1's private matrices may take this share of a GPU's
// global memory: at n = 60 on an H200 they would take 30 GiB, and a few processes sharing the GPU
// exhaust it; at n = 16 (as the automatic choice runs mapping 1) 2.2 GiB.
constexpr std::size_t private_matrix_share = 8;
// The share of a device's memory that the global scratch of one kernel may take (group_count).
constexpr std::size_t scratch_share = 8;

std::string mib(std::size_t bytes) { return std::to_string((bytes + (std::size_t{1} << 20) - 1) >> 20) + " MiB"; }

}  // namespace

void check_system(const System& sys, Mapping m) {
  const bool group = m == Mapping::work_group;
  if (sys.group_only && (!sys.group_rhs || !sys.analytic_jacobian || !sys.group_jac))
    throw core::Error("ODE system: group_only needs group_rhs, analytic_jacobian and group_jac (it has no rhs() or "
                      "jac() of its own)");
  if (sys.group_only && m == Mapping::phased)
    throw core::Error("ODE system: the phased mapping takes no group_only system (its passes call rhs() and jac()); "
                      "use work_item or work_group");
  if (sys.n <= 0) throw core::Error("ODE system size n = " + std::to_string(sys.n) + ": expected at least 1");
  if (!sys.jacobian_pattern.empty() && !sys.analytic_jacobian)
    throw core::Error(
        "ODE system: a jacobian_pattern needs analytic_jacobian (the sparse decompositions read jac()'s "
        "entries at the pattern)");
  if (!sys.jacobian_pattern.empty() && m == Mapping::phased)
    throw core::Error(
        "ODE system: the phased mapping decomposes dense matrices only; a system with a "
        "jacobian_pattern runs in work_item or work_group");
  if (sys.jacobian_low_rank && (sys.jacobian_pattern.empty() || !sys.group_only))
    throw core::Error(
        "ODE system: jacobian_low_rank needs a jacobian_pattern and a group_only system (jac_group "
        "writes u and v after J)");
  const int limit = group ? max_group_n : max_private_n;
  if (!sys.group_only && sys.n > limit)
    throw core::Error("ODE system size n = " + std::to_string(sys.n) + ": expected 1 .. " + std::to_string(limit) +
                      (group ? " (one work-group per system; jac fills n^2 private doubles)"
                             : " (one work-item per system keeps 4 n^2 doubles; the work_group mapping takes more)") +
                      ", or a group_only system, which any mapping but the phased one takes at any n");
  if (sys.group_only) {
    if (sys.source.find("rhs_group") == std::string::npos || sys.source.find("jac_group") == std::string::npos)
      throw core::Error("ODE system source: a group_only system defines rhs_group and jac_group (radau5.hpp)");
    return;
  }
  if (sys.source.find("rhs") == std::string::npos)
    throw core::Error("ODE system source: expected OpenCL C defining void rhs(double t, const double* y, "
                      "double* f, __global const double* p)");
  if (sys.analytic_jacobian && sys.source.find("jac") == std::string::npos)
    throw core::Error("ODE system source: analytic_jacobian is set but no jac(double t, const double* y, "
                      "double* dfdy, __global const double* p) is defined");
}

std::size_t compute_units(const core::DeviceSet& devices) {
  std::size_t units = 0;
  for (std::size_t k = 0; k < devices.size(); ++k) units += std::max(devices.device(k).info.compute_units, 1u);
  return units;
}

bool all_gpus(const core::DeviceSet& devices) {
  bool gpus = true;
  for (std::size_t k = 0; k < devices.size(); ++k) gpus = gpus && devices.device(k).info.kind == core::DeviceKind::gpu;
  return gpus;
}

// Mapping 2 and the phased mapping only on GPUs: PoCL 3.1's work-group compiler does not finish
// mapping 2's kernel in usable time (its barrier-region passes grow with the kernel's conditional
// barriers; docs/ode.md, Mappings), a CPU has no group to spread over, and the phased mapping's passes
// only add work there. Where a GPU has enough systems to fill it, the phased mapping: mapping 1 spends
// much of its time decomposing matrices that live in off-chip private memory, one latency per update,
// and a work-group per system decomposes them in local memory.
Mapping resolve(Mapping m, const System& system, const core::DeviceSet& devices, std::size_t systems) {
  if (m != Mapping::automatic) return m;
  const int n = system.n;
  const std::size_t units = compute_units(devices);
  if (!all_gpus(devices)) return Mapping::work_item;
  if (n > max_private_n || system.group_only || !system.jacobian_pattern.empty()) return Mapping::work_group;
  if (n <= automatic_group_above) {
    if (systems >= small_work_items_per_unit * units) return Mapping::phased;
    return system.group_rhs ? Mapping::work_group : Mapping::work_item;
  }
  return systems >= phased_per_unit * units ? Mapping::phased : Mapping::work_group;
}

bool claims_systems(const core::Device& d, Mapping m) {
  return m == Mapping::work_item && d.info.kind != core::DeviceKind::gpu;
}

// Per device: global size fixed by the device, the mapping, the system's size and the options alone (one
// launch width per kernel: core/kernel.hpp says why PoCL needs it). On a GPU both mappings run groups of
// 32, mapping 2 32 of them per compute unit, which the reactor's rhs_group and jac_group run fastest in
// (wider groups and fewer per unit are slower); but above large_panel_n mapping 2's decompositions in
// global scratch take nearly all of a step, and 32 work-items leave a compute unit waiting on memory, so
// its groups there hold large_group. On PoCL a group runs in one thread anyway, and 4 work-items make
// every one own several columns. Options::work_group and groups_per_unit (`hetflow tune radau5`) replace
// these defaults.
core::NDRange local_range(const core::Device& d, const Options& o, Mapping m, int n) {
  if (o.work_group) return core::NDRange(o.work_group);
  if (d.info.kind != core::DeviceKind::gpu) return core::NDRange(4);
  return core::NDRange(m == Mapping::work_group && n > large_panel_n ? large_group : 32);
}
bool global_vectors(const System& s, Mapping m) {
  return m == Mapping::work_item && s.group_only && s.n > max_private_vector_n;
}

namespace {
// A mapping-1 work-item's global scratch for a group_only system: its vectors where they are global, and
// the system's work.
std::size_t item_scratch(const System& s, Mapping m) {
  return (global_vectors(s, m) ? 14 * static_cast<std::size_t>(s.n) : 0) + s.group_work;
}

std::size_t default_group_count(const core::Device& d, Mapping m, const Options& o) {
  const bool gpu = d.info.kind == core::DeviceKind::gpu;
  const std::size_t per_unit =
      o.groups_per_unit ? o.groups_per_unit : m == Mapping::work_group ? (gpu ? 32u : 4u) : (gpu ? 64u : 16u);
  return per_unit * std::max(d.info.compute_units, 1u);
}

// Global scratch per work-group of mapping m for system s on device d, in doubles.
std::size_t scratch_per_group(const core::Device& d, const System& s, Mapping m, const Options& o) {
  if (m == Mapping::work_group) return local_scratch(d, s) ? 0 : group_doubles(s) + 2 * static_cast<std::size_t>(s.n);
  if (m == Mapping::work_item && s.group_only) return local_range(d, o, m, s.n).size[0] * item_scratch(s, m);
  return 0;
}
}  // namespace

// The default groups, but no more than scratch_share of the device's memory holds: at n = 1269 one
// group's matrices take 52 MB, and an H200's 4224 default groups would need 218 GB. Fewer groups run
// fewer systems at once, not other steps.
std::size_t group_count(const core::Device& d, Mapping m, const Options& o, const System& s) {
  const std::size_t groups = default_group_count(d, m, o);
  const std::size_t per_group = sizeof(double) * scratch_per_group(d, s, m, o);
  if (o.groups_per_unit || per_group == 0) return groups;
  return std::clamp<std::size_t>(static_cast<std::size_t>(d.info.global_mem) / scratch_share / per_group, 1, groups);
}

std::size_t register_budget(const core::DeviceSet& devices, std::size_t k, const Options& o, Mapping m,
                            std::size_t systems, std::size_t n) {
  const core::Device& d = devices.device(k);
  if (!core::takes_register_budget(d.info)) return 0;
  if (o.max_registers) return o.max_registers;
  if (m == Mapping::work_group && systems < uncapped_groups_per_unit * compute_units(devices)) return 0;
  return final_rows(d, n, m) ? final_rows_max_registers : default_max_registers;
}

// Options::lu_panel, else 4 for mapping 1 on GPUs, where the decompositions take a large share of
// mapping 1's time and panels cut the traffic of its matrices in off-chip private memory. How much they
// gain differs between GPUs, so `hetflow tune radau5` searches the width. CPUs keep DEC's column order,
// which PoCL vectorises better. Mapping 2 takes panels of 16 above large_panel_n, where a system's
// matrices lie in global scratch far past the caches and the decompositions take nearly all of a step,
// and none below: there its matrices are in local memory or fit the caches, and panels that shorten a
// lone system's decompositions cost throughput on a full device (docs/chem.md, Performance).
int lu_panel(const core::Device& d, const Options& o, Mapping m, int n) {
  if (o.lu_panel >= 0) return o.lu_panel;
  if (d.info.kind != core::DeviceKind::gpu) return 0;
  if (m == Mapping::work_item) return 4;
  return m == Mapping::work_group && n > large_panel_n ? 16 : 0;
}

std::size_t matrix_doubles(const System& s) {
  const auto n = static_cast<std::size_t>(s.n);
  return s.jacobian_pattern.empty() ? n * n : n * n + 2 * n + 1;
}

std::size_t group_doubles(const System& s) {
  const auto n = static_cast<std::size_t>(s.n);
  return 14 * n + 4 * matrix_doubles(s) + (s.group_rhs ? s.group_work : 0);
}

// On GPUs where they fit, since every phase of a step reads what other work-items wrote just before,
// and from global scratch each such read waits for the L2 cache. Not on CPUs: PoCL 3.1 builds that
// kernel but fails RADAU5's Van der Pol reference statistics with it (docs/ode.md), and a CPU's local
// memory is ordinary memory anyway.
bool local_scratch(const core::Device& d, const System& s) {
  const auto n = static_cast<std::size_t>(s.n);
  return d.info.kind == core::DeviceKind::gpu &&
         sizeof(double) * group_doubles(s) + sizeof(cl_int) * 2 * n <= d.info.local_mem;
}

std::size_t group_scratch_doubles(const core::Device& d, const System& s, const Options& o) {
  return local_scratch(d, s) ? 0 : group_count(d, Mapping::work_group, o, s) * group_doubles(s);
}
std::size_t group_scratch_pivots(const core::Device& d, const System& s, const Options& o) {
  return local_scratch(d, s) ? 0 : group_count(d, Mapping::work_group, o, s) * 2 * static_cast<std::size_t>(s.n);
}
std::size_t scratch_doubles(const core::Device& d, const System& s, Mapping m, const Options& o) {
  if (m == Mapping::work_group) return group_scratch_doubles(d, s, o);
  if (m == Mapping::work_item && s.group_only)
    return group_count(d, m, o, s) * local_range(d, o, m, s.n).size[0] * item_scratch(s, m);
  return 0;
}

// On GPUs where E2 and a pivot vector fit, as for GRI-Mech 3.0 (n = 54: 46,872 of NVIDIA's 49,152
// bytes). Not on CPUs, for the reason local_scratch gives.
bool decompose_local(const core::Device& d, std::size_t n) {
  return d.info.kind == core::DeviceKind::gpu && sizeof(double) * 2 * n * n + sizeof(cl_int) * n <= d.info.local_mem;
}
bool decompose_in_registers(const core::Device& d, std::size_t n) {
  return d.info.kind == core::DeviceKind::gpu && n <= max_register_lu_n;
}

// In the phased mapping's passes where its decompositions are the group LU's, whose solves then read
// b once per block of rows rather than once per entry of the factors. With the register LU (n <= 16)
// and in mapping 2 the final row order costs more than it saves.
bool final_rows(const core::Device& d, std::size_t n, Mapping m) {
  return m == Mapping::phased && !decompose_in_registers(d, n);
}

// On NVIDIA, whose OpenCL takes the PTX, in groups of whole warps (the decompositions' groups always are).
bool warp_pivot(const core::Device& d, std::size_t group_size) {
  return core::takes_inline_ptx(d.info) && group_size % 32 == 0;
}

// In registers, one kernel for E1 and E2, in groups of register_lu_parts times the columns in whole
// warps. Else E1's kernel, then E2's: on GPUs a group per system, of 64 work-items for E1 and 128 for
// E2; on CPUs a work-item per system in groups of 4, 4 groups per unit. The group LU's rate is bound by
// the latency of its elimination steps, so by how many groups fit beside each other's local memory:
// 8 groups launched per compute unit on GPUs keep every unit as full as E2's local memory allows, and
// the group sizes are the fastest of 32 to 256 for each matrix (docs/ode.md, Mappings).
std::vector<DecomposeKernel> decompose_kernels(const core::Device& d, std::size_t n) {
  if (decompose_in_registers(d, n)) return {{"radau5_decompose", register_lu_parts * ((n + 31) / 32 * 32)}};
  const bool gpu = d.info.kind == core::DeviceKind::gpu;
  return {{"radau5_decompose_real", gpu ? 64u : 4u}, {"radau5_decompose_complex", gpu ? 128u : 4u}};
}
std::size_t decompose_groups(const core::Device& d) {
  return (d.info.kind == core::DeviceKind::gpu ? 8u : 4u) * std::max(d.info.compute_units, 1u);
}

std::size_t resident_work_items(const core::Device& d, const Options& o) {
  if (d.info.kind == core::DeviceKind::gpu) return resident_per_unit * std::max(d.info.compute_units, 1u);
  return local_range(d, o, Mapping::work_item, 0).size[0] * default_group_count(d, Mapping::work_item, o);
}

std::size_t private_matrix_bytes(const core::Device& d, const Options& o, std::size_t n) {
  return resident_work_items(d, o) * (sizeof(double) * 4 * n * n + sizeof(cl_int) * 2 * n);
}

bool system_matrices(const core::Device& d, const Options& o, Mapping m, const System& s) {
  if (m != Mapping::work_item) return false;
  const auto n = static_cast<std::size_t>(s.n);
  if (n > static_cast<std::size_t>(max_private_n) || !s.jacobian_pattern.empty()) return true;
  const std::size_t limit = o.private_matrix_limit ? o.private_matrix_limit
                            : d.info.kind == core::DeviceKind::gpu ? d.info.global_mem / private_matrix_share
                                                                   : std::numeric_limits<std::size_t>::max();
  return private_matrix_bytes(d, o, n) > limit;
}

std::string out_of_memory(const core::Device& d, const Options& o, Mapping m, std::size_t private_bytes,
                          std::size_t buffer_bytes, const std::string& reason) {
  const std::size_t items = resident_work_items(d, o), reserved = items * private_bytes;
  const char* name = m == Mapping::work_item ? "work_item" : m == Mapping::work_group ? "work_group" : "phased";
  return "RADAU5's " + std::string(name) + " mapping ran out of memory on " + d.label() + " (" + reason +
         "): it needs about " + mib(reserved + buffer_bytes) + ", " + mib(reserved) + " of private memory (" +
         std::to_string(private_bytes) + " bytes per work-item, reserved for each of the " + std::to_string(items) +
         " work-items the device holds at once) and " + mib(buffer_bytes) + " of buffers, and the device has " +
         mib(static_cast<std::size_t>(d.info.global_mem)) +
         ", shared with every process that uses it: run fewer processes on it at once, or lower the ODE "
         "options' memory_budget or private_matrix_limit";
}

}  // namespace hetflow::ode::launch
