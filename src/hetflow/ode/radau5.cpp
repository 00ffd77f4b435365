#include "hetflow/ode/radau5.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <future>
#include <optional>

#include "hetflow/core/buffer.hpp"
#include "hetflow/core/build_options.hpp"
#include "hetflow/core/error.hpp"
#include "hetflow/core/kernel.hpp"
#include "hetflow/core/number_text.hpp"
#include "hetflow/core/parallel.hpp"
#include "hetflow/core/partition.hpp"
#include "hetflow/core/program.hpp"
#include "hetflow/core/registry.hpp"

namespace hetflow::ode {
namespace {

using core::number_text;

// radau5.cl's S_* settings and C_* counters.
enum Setting : std::size_t {
  s_uround, s_safe, s_thet, s_fnewt, s_quot1, s_quot2, s_facl, s_facr, s_h0, s_hmax,
  s_u1, s_alph, s_beta, s_c1, s_c2, s_c1m1, s_c2m1, s_c1mc2, s_dd1, s_dd2, s_dd3, setting_count
};
constexpr std::size_t counter_count = 8;

// phased_state.cl's layout per system: the record (19 scalars, then f(x, y) and the three divided
// differences), the matrices J, E1, E2 (real and imaginary) and the two pivot vectors.
std::size_t phased_state_doubles(std::size_t n) { return 19 + 4 * n; }
std::size_t phased_matrix_doubles(std::size_t n) { return 4 * n * n; }
std::size_t phased_pivots(std::size_t n) { return 2 * n; }
// What the phased mapping holds per system beside the batch's own data: the record, the matrices, the
// pivots and the system's place in each of the three lists of the passes.
std::size_t phased_bytes(std::size_t n) {
  return sizeof(double) * (phased_state_doubles(n) + phased_matrix_doubles(n)) +
         sizeof(cl_int) * phased_pivots(n) + 3 * sizeof(cl_uint);
}

// Mapping 1 keeps J, E1 and the complex E2 (4 n^2 doubles) in one work-item's private memory.
constexpr int max_private_n = 64;
// Mapping 2 keeps them in global scratch, but the user's jac still fills a private n x n array in one
// work-item, and every work-item's frame is sized for it: 128 KiB at n = 128.
constexpr int max_group_n = 128;
// Up to here mapping 1 once a batch can fill the GPUs, and below that too unless the system has a
// cooperative rhs_group: at n = 16 its private matrices already take 8 KiB per work-item, which
// spills from registers and cache on GPUs, but the GPU hides that once enough systems run at once.
constexpr int automatic_group_above = 16;
// For such a small system with rhs_group, mapping 2 below this many systems per compute unit: one
// work-item integrating a system alone is slow (an H2/O2 reactor, n = 11, took 10 ms for 100 systems),
// and a small batch leaves the GPU's other warps nothing to hide that behind. H200 (132 units), the
// chem benchmark's H2/O2 states in order of temperature, both mappings at 64 registers
// (default_max_registers): at 4,096 systems mapping 2 ran 401,400 systems/s at dt 1e-6 s against
// mapping 1's 346,500, and 98,540 against 94,880 at 1e-4 s; at 1e4 mapping 1 led (420,300 against
// 349,400; 131,400 against 93,090). Interpolated in log-log, the lines cross near 6,100 and 4,500
// systems, 46 and 34 per unit. Uncapped, mapping 2 had led only up to 21 and 15 per unit (5ff6d1c).
constexpr std::size_t small_work_items_per_unit = 40;
// Above that n, the phased mapping once a batch has this many systems per compute unit of the GPUs,
// mapping 2 below. Below the GPU's capacity the phased mapping's rate grows with the batch, mapping 2's
// stays near its plateau: GRI-Mech 3.0 (n = 54) on an H100 (132 units), chem benchmark, dt 1e-6 s:
// mapping 2 118,400 systems/s at 4,096 and 102,300 at 1e4, the phased mapping 64,750 and 121,900. The
// lines cross near 8,200 systems, 62 per unit.
constexpr std::size_t phased_per_unit = 64;

// radau5.cl's W_DOUBLES: mapping 2's scratch per work-group (14 vectors, 4 matrices), then the system's
// own (System::group_work).
std::size_t group_doubles(const System& s) {
  const auto n = static_cast<std::size_t>(s.n);
  return 14 * n + 4 * n * n + (s.group_rhs ? s.group_work : 0);
}

// The compute units of all the devices together.
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
// barriers; measured on 2 cores: unfinished after 13 min by default, 5 min with
// POCL_WORK_GROUP_METHOD=cbs), a CPU has no group to spread over, and the phased mapping's passes only
// add work there. Where a GPU has enough systems to fill it, the phased mapping: mapping 1 spent about
// 55 % of its time decomposing matrices that live in off-chip private memory, one latency per update,
// and a work-group per system decomposes them in local memory. Against mapping 1, H100, chem benchmark:
// GRI-Mech 3.0 at 1e5 systems 249,600 against 171,600 systems/s (dt 1e-6 s) and 46,490 against 31,650
// (1e-4 s); H2/O2 at 1e5 1,372,000 against 848,000 and 334,000 against 260,100, at 1e4 569,900 against
// 487,400 and 125,800 against 107,800, but at 4,096 301,300 against 317,300 and 65,910 against 84,160.
Mapping resolve(Mapping m, const System& system, const core::DeviceSet& devices, std::size_t systems) {
  if (m != Mapping::automatic) return m;
  const int n = system.n;
  const std::size_t units = compute_units(devices);
  if (!all_gpus(devices)) return Mapping::work_item;
  if (n > max_private_n) return Mapping::work_group;
  if (n <= automatic_group_above) {
    if (systems >= small_work_items_per_unit * units) return Mapping::phased;
    return system.group_rhs ? Mapping::work_group : Mapping::work_item;
  }
  return systems >= phased_per_unit * units ? Mapping::phased : Mapping::work_group;
}

// The method's constants, computed as radau5.f computes them (host pow and sqrt are glibc's, as the
// Fortran's; nothing here can be contracted into an FMA: the host build does not target FMA).
void method_constants(std::vector<double>& s) {
  const double sq6 = std::sqrt(6.0);
  s[s_c1] = (4.0 - sq6) / 10.0;
  s[s_c2] = (4.0 + sq6) / 10.0;
  s[s_c1m1] = s[s_c1] - 1.0;
  s[s_c2m1] = s[s_c2] - 1.0;
  s[s_c1mc2] = s[s_c1] - s[s_c2];
  s[s_dd1] = -(13.0 + 7.0 * sq6) / 3.0;
  s[s_dd2] = (-13.0 + 7.0 * sq6) / 3.0;
  s[s_dd3] = -1.0 / 3.0;
  const double cbrt81 = std::pow(81.0, 1.0 / 3.0), cbrt9 = std::pow(9.0, 1.0 / 3.0);
  const double u1 = (6.0 + cbrt81 - cbrt9) / 30.0;
  double alph = (12.0 - cbrt81 + cbrt9) / 60.0;
  double beta = (cbrt81 + cbrt9) * std::sqrt(3.0) / 60.0;
  const double cno = alph * alph + beta * beta;
  s[s_u1] = 1.0 / u1;
  s[s_alph] = alph / cno;
  s[s_beta] = beta / cno;
}

void check_system(const System& sys, Mapping mapping) {
  const bool group = mapping == Mapping::work_group;
  const int limit = group ? max_group_n : max_private_n;
  if (sys.n <= 0 || sys.n > limit)
    throw core::Error("ODE system size n = " + std::to_string(sys.n) + ": expected 1 .. " + std::to_string(limit) +
                      (group ? " (one work-group per system; jac fills n^2 private doubles)"
                             : " (one work-item per system keeps 4 n^2 doubles; the work_group mapping takes more)"));
  if (sys.source.find("rhs") == std::string::npos)
    throw core::Error("ODE system source: expected OpenCL C defining void rhs(double t, const double* y, "
                      "double* f, __global const double* p)");
  if (sys.analytic_jacobian && sys.source.find("jac") == std::string::npos)
    throw core::Error("ODE system source: analytic_jacobian is set but no jac(double t, const double* y, "
                      "double* dfdy, __global const double* p) is defined");
}

// The host's checks, packing and unpacking of a batch run on all cores in ranges of at least this many
// values (2 MB): each costs milliseconds per run at 1e5 GRI-Mech 3.0 systems on one core, while the GPU
// waits.
constexpr std::size_t parallel_grain = std::size_t{1} << 18;

void check_finite(const std::vector<double>& v, const char* name, std::size_t per_system) {
  std::atomic<std::size_t> first_bad{v.size()};  // the error names the first, as a serial scan would
  core::parallel_ranges(v.size(), parallel_grain, [&](std::size_t first, std::size_t last) {
    for (std::size_t i = first; i < last; ++i)
      if (!std::isfinite(v[i])) {
        std::size_t seen = first_bad.load();
        while (i < seen && !first_bad.compare_exchange_weak(seen, i)) {
        }
        return;
      }
  });
  if (const std::size_t i = first_bad.load(); i < v.size())
    throw core::Error(std::string("batch ") + name + " of system " + std::to_string(i / per_system) +
                        ", component " + std::to_string(i % per_system) + " = " + number_text(v[i]) +
                        ": expected a finite value");
}

void check_times(const Batch& b, std::size_t count) {
  for (const auto* list : {&b.t0, &b.t_end})
    if (list->size() != 1 && list->size() != count)
      throw core::Error(std::string("batch ") + (list == &b.t0 ? "t0" : "t_end") + " has " +
                        std::to_string(list->size()) + " values: expected 1 or one per system (" +
                        std::to_string(count) + ")");
  check_finite(b.t0, "t0", 1);
  check_finite(b.t_end, "t_end", 1);
  const bool shared = b.t0.size() == 1 && b.t_end.size() == 1;
  for (std::size_t s = 0; s < (shared ? 1 : count); ++s) {
    const double t0 = b.t0[b.t0.size() == 1 ? 0 : s], t1 = b.t_end[b.t_end.size() == 1 ? 0 : s];
    if (t0 == t1)
      throw core::Error("batch t_end = t0 = " + number_text(t0) + " for system " + std::to_string(s) +
                        ": expected an interval of non-zero length");
  }
}

// Per device: global size fixed by the device, the mapping and the options alone (one launch width per
// kernel: core/kernel.hpp says why PoCL needs it); the kernel strides over its share of systems. On a
// GPU both mappings run groups of 32, mapping 2 32 of them per compute unit: with the reactor's
// rhs_group and jac_group, GRI-Mech 3.0 batches of 4,096 and 1e4 (H100, `hetflow run` at 05d250c,
// T 1000-1400 K) ran 5-12 % faster than in groups of 64, 8 per unit, at dt 1e-6 s, and 12-22 % at
// 1e-4 s; 64 x 16 and 32 x 16 fell between, groups of 128 were slowest. On PoCL a group runs in one
// thread anyway, and 4 work-items make every one own several columns. Options::work_group and
// groups_per_unit (`hetflow tune radau5`) replace these defaults.
core::NDRange local_range(const core::Device& d, const Options& o) {
  return core::NDRange(o.work_group ? o.work_group : d.info.kind == core::DeviceKind::gpu ? 32 : 4);
}
std::size_t group_count(const core::Device& d, Mapping m, const Options& o) {
  const bool gpu = d.info.kind == core::DeviceKind::gpu;
  const std::size_t per_unit =
      o.groups_per_unit ? o.groups_per_unit : m == Mapping::work_group ? (gpu ? 32u : 4u) : (gpu ? 64u : 16u);
  return per_unit * std::max(d.info.compute_units, 1u);
}

// Registers per work-item on NVIDIA GPUs unless Options::max_registers says otherwise, for every batch
// but mapping 2's smallest (uncapped_groups_per_unit). Uncapped, the compiler gave the H2/O2 reactor's
// kernels 255 (mapping 1) and 206 (mapping 2) registers, so 8 and 9 warps fit a multiprocessor; at 64
// it fits 32, and the spills this costs stay in cache. H200, chem benchmark, sorted states, dt 1e-6 /
// 1e-4 s, uncapped against 128 / 64 registers in one call: H2/O2 mapping 1 at 1e6 systems 636,500
// against 842,600 / 1,030,000 systems/s and 214,500 against 307,600 / 413,400 (40 and 32 registers, in
// the next call: 888,800 and 827,300 at 1e-6 s); mapping 2 at 4,096 systems 273,900 against 333,900 /
// 401,400 and 58,520 against 80,580 / 98,540 (96: 358,800).
// GRI-Mech 3.0 (n = 54) at 64 registers, against the uncapped record of another H200: mapping 1 at
// 1e5 systems 139,800 against 126,940 and 27,190 against 26,460; mapping 2 at 4,096 119,500 against
// 105,490 and 16,510 against 17,630 (bench/results/nvidia-h200/experiments-2026-11-26). The phased
// mapping at 48, 96 and 128 registers against 64 (87c247c, one call): GRI-Mech 3.0 at 1e5 systems and
// 1e-6 s 409,900 / 393,000 / 397,400 against 414,900 systems/s; H2/O2 at 1e6 1,856,000 / 1,821,000 /
// 1,728,000 against 1,987,000.
constexpr std::size_t default_max_registers = 64;
// Mapping 2 keeps the compiler's registers below this many systems per compute unit: as many groups as
// that fit a multiprocessor uncapped, and the budget's spills only slow them. H2/O2 on the H200,
// uncapped against 64 registers: 1,000 systems 255,700 against 233,200 systems/s (1e-6 s) and 46,630
// against 43,150 (1e-4 s) in one call; 100 systems 43,370 and 44,780 (two calls) against 38,710.
constexpr std::size_t uncapped_groups_per_unit = 8;

// Where the passes' solves sweep in the final row order (final_rows, below) they hold 8 complex sums in
// registers, and a larger budget pays: GRI-Mech 3.0 at 1e5 systems, H100, three rounds in one call, 80
// registers 433,800 / 430,700 / 430,900 systems/s at dt 1e-6 s against 428,600 / 423,100 / 422,600 at 64,
// 71,090 / 71,200 / 71,130 against 69,680 / 69,620 / 69,680 at 1e-4 s; in the call before, 96 gave
// 421,100 and 69,740, 48 407,900 and 66,460.
constexpr std::size_t final_rows_max_registers = 80;

bool final_rows(const core::Device& d, std::size_t n, Mapping m);

// The register budget of the kernel a batch of `systems` of size n in mapping m runs on device k; 0:
// the compiler's choice (as on every device but NVIDIA's).
std::size_t register_budget(const core::DeviceSet& devices, std::size_t k, const Options& o, Mapping m,
                            std::size_t systems, std::size_t n) {
  const core::Device& d = devices.device(k);
  if (!core::takes_register_budget(d.info)) return 0;
  if (o.max_registers) return o.max_registers;
  if (m == Mapping::work_group && systems < uncapped_groups_per_unit * compute_units(devices)) return 0;
  return final_rows(d, n, m) ? final_rows_max_registers : default_max_registers;
}

// The panel width of the LU decompositions on device d (dense_lu.cl's ODE_LU_PANEL; 0: none).
// Options::lu_panel, else 4 for mapping 1 on GPUs, where the decompositions took about 55 % of mapping 1's time:
// GRI-Mech 3.0 at 1e5 systems ran 92,960 systems/s at 1e-6 s and 18,460 at 1e-4 s with each done
// twice, against 143,800 and 27,910 (H200, one call). Panels of 4 against none, H100, one call: GRI-Mech
// 3.0 at 1e5 systems 132,200 against 113,100 (1e-6 s) and 26,880 against 22,820 (1e-4 s); panels of 6
// 121,800 and 24,860. H2/O2 in the next call: 812,600 against 690,400 and 347,600 against 328,100 at
// 1e6 systems, but 801,900 against 829,700 and 284,300 against 300,300 at 1e5. CPUs keep DEC's column
// order: on 2 PoCL cores a reactor_batch run of 3,000 GRI-Mech 3.0 systems (dt 1e-4 s) took 8.5 s of
// wall clock with panels of 4 against 3.8 s without. An H200 gains less from the traffic saved (one call:
// GRI-Mech 3.0 at 1e5 systems 141,500 against 138,800 and 26,890 against 27,700; H2/O2 at 1e6 950,500
// against 996,100 and 367,500 against 414,600), so `hetflow tune radau5` searches the width. Mapping 2
// takes none by default: its matrices are in local memory or in its group's slice of global scratch,
// and panels of 2 / 4 / 8 against none, H100, one call, ran GRI-Mech 3.0 at 4,096 systems 131,300 /
// 130,000 and 133,500 / 132,400 against 120,200 and 117,600 (1e-6 s) but 15,880 / 15,810 and 15,820 /
// 15,200 against 16,550 and 16,430 (1e-4 s), and H2/O2 at 100 and 1,000 systems 5-13 % slower.
int lu_panel(const core::Device& d, const Options& o, Mapping m) {
  if (o.lu_panel >= 0) return o.lu_panel;
  return d.info.kind == core::DeviceKind::gpu && m == Mapping::work_item ? 4 : 0;
}

// Whether the kernel calls the system's jac() (see Jacobian).
bool analytic(Jacobian choice, const System& system) {
  if (choice == Jacobian::analytic && !system.analytic_jacobian)
    throw core::Error("ODE options: jacobian is analytic but the system has no jac() (analytic_jacobian is not set)");
  if (choice == Jacobian::automatic) return system.analytic_jacobian;
  return choice == Jacobian::analytic;
}

// Whether mapping 2 keeps a group's matrices, vectors, pivots and system work in local memory
// (radau5.cl's ODE_LOCAL_SCRATCH) on device d: on GPUs where they fit, since every phase of a step reads
// what other work-items wrote just before, and from global scratch each such read waits for the L2
// cache. Not on CPUs: PoCL 3.1 built that kernel but failed RADAU5's Van der Pol reference statistics
// with it (docs/ode.md), and a CPU's local memory is ordinary memory anyway.
bool local_scratch(const core::Device& d, const System& s) {
  const auto n = static_cast<std::size_t>(s.n);
  return d.info.kind == core::DeviceKind::gpu &&
         sizeof(double) * group_doubles(s) + sizeof(cl_int) * 2 * n <= d.info.local_mem;
}

// Whether the phased mapping's decompositions work in local memory on device d (radau5_decompose.cl's
// ODE_LOCAL_SCRATCH): on GPUs where E2 and a pivot vector fit, as for GRI-Mech 3.0 (n = 54: 46,872 of
// NVIDIA's 49,152 bytes). Not on CPUs, for the reason local_scratch gives.
bool decompose_local(const core::Device& d, std::size_t n) {
  return d.info.kind == core::DeviceKind::gpu && sizeof(double) * 2 * n * n + sizeof(cl_int) * n <= d.info.local_mem;
}
// Whether they keep each matrix in its group's registers instead (register_lu.cl): on GPUs up to
// n = 16. H200, chem benchmark, one call: with H2/O2 (n = 11) at 1e6 systems a run's decompositions took
// 156 / 717 ms at dt 1e-6 / 1e-4 s against 249 / 1,146 ms with the group LU in local memory, but
// GRI-Mech 3.0 (n = 54) at 1e5 systems fell from 301,200 to 174,400 (4 parts) and 201,000 (8 parts)
// systems/s: every work-item walks all its rows at every step, where the group LU's work shrinks.
constexpr std::size_t max_register_lu_n = 16;
bool decompose_in_registers(const core::Device& d, std::size_t n) {
  return d.info.kind == core::DeviceKind::gpu && n <= max_register_lu_n;
}
// The parts the rows of each column are dealt to in register_lu.cl (ODE_RL_PARTS): with 4, H2/O2 above
// took 227 / 1,045 ms.
constexpr std::size_t register_lu_parts = 2;
// Whether the decompositions leave the multipliers in the rows of the final order and the solves of one
// work-item sweep blocks of rows in registers (dense_lu.cl's ODE_FINAL_ROWS): in the phased mapping's
// passes where its decompositions are the group LU's. H100, chem benchmark, against SOL's sweeps, one
// call: GRI-Mech 3.0 (n = 54) at 1e5 systems 430,100 / 422,300 against 373,500 / 373,600 systems/s at
// dt 1e-6 s. With the register LU (n <= 16) and in mapping 2 it cost: H2/O2 (n = 11) at 1e6 systems
// 1,664,000 / 1,677,000 against 1,745,000 / 1,796,000 systems/s at dt 1e-6 s, GRI-Mech 3.0 at 4,096
// (mapping 2) 117,300 / 115,700 against 123,600 / 123,900.
bool final_rows(const core::Device& d, std::size_t n, Mapping m) {
  return m == Mapping::phased && !decompose_in_registers(d, n);
}
// Whether the group LU's warps find each pivot by shuffles (dense_lu.cl's ODE_WARP_PIVOT): on NVIDIA,
// whose OpenCL takes the PTX, in groups of whole warps (the decompositions' groups always are).
bool warp_pivot(const core::Device& d, std::size_t group_size) {
  return core::takes_inline_ptx(d.info) && group_size % 32 == 0;
}
// The phased mapping's decomposition kernels (radau5_decompose.cl) in launch order, each with its
// group size, 8 groups per compute unit on GPUs. In registers, one kernel for E1 and E2, in groups of
// register_lu_parts times the columns in whole warps. Else E1's kernel, then E2's: on GPUs a group per
// system, of 64 work-items for E1 and 128 for E2; on CPUs a work-item per system in groups of 4, 4 groups
// per unit. The group LU's rate is bound by the latency of its elimination steps, so by how many groups
// fit beside each other's local memory (4 per unit with E2 for n = 54 on an H200: GRI-Mech 3.0's first
// decomposition at 1e5 systems took 126 / 69 / 50 / 42 / 42 ms with 1 / 2 / 3 / 4 / 8 groups launched per
// unit, one kernel for both matrices). The same kernel alone, 2e4 random n = 54 systems on an H200, took
// 42.3 ms per 1e5 systems in groups of 128; E1 alone in E1's local memory 10.9 / 14.7 / 23.4 ms in groups
// of 64 / 128 / 256, E2 alone (after forming and storing E1) 32.2 / 27.4 / 37.5 ms. Groups of 32 / 64 /
// 128 / 256 for both, H100, chem benchmark, GRI-Mech 3.0 at 1e5 systems: 257,600 / 290,900 / 299,800 /
// 251,800 systems/s at dt 1e-6 s; in global memory instead of local, 217,400.
struct DecomposeKernel {
  const char* name;
  std::size_t local;
};
std::vector<DecomposeKernel> decompose_kernels(const core::Device& d, std::size_t n) {
  if (decompose_in_registers(d, n)) return {{"radau5_decompose", register_lu_parts * ((n + 31) / 32 * 32)}};
  const bool gpu = d.info.kind == core::DeviceKind::gpu;
  return {{"radau5_decompose_real", gpu ? 64u : 4u}, {"radau5_decompose_complex", gpu ? 128u : 4u}};
}
std::size_t decompose_groups(const core::Device& d) {
  return (d.info.kind == core::DeviceKind::gpu ? 8u : 4u) * std::max(d.info.compute_units, 1u);
}

// Mapping 2's per-group scratch on device d, none where local_scratch: the matrices and vectors, then
// the pivots.
std::size_t group_scratch_doubles(const core::Device& d, const System& s, const Options& o) {
  return local_scratch(d, s) ? 0 : group_count(d, Mapping::work_group, o) * group_doubles(s);
}
std::size_t group_scratch_pivots(const core::Device& d, const System& s, const Options& o) {
  return local_scratch(d, s) ? 0 : group_count(d, Mapping::work_group, o) * 2 * static_cast<std::size_t>(s.n);
}

// One chunk's device buffers and their pinned host staging. With two slots in rotation, one chunk
// integrates while the other slot's results come down and its next inputs go up.
struct Slot {
  Slot(const core::Context& ctx, const core::Queue& transfer, std::size_t systems, std::size_t n, std::size_t np,
       std::size_t times, bool with_phased)
      : capacity(systems),
        per_system_times(times != 0),
        phased(with_phased),
        y(ctx, systems * n),
        params(ctx, std::max<std::size_t>(systems * np, 1)),  // the kernel needs a buffer even without parameters
        t0(ctx, times),
        t_end(ctx, times),
        reached(ctx, systems * 2),
        counters(ctx, systems * counter_count),
        host_y(transfer, systems * n),
        host_params(transfer, systems * np),
        host_t0(transfer, times),
        host_t_end(transfer, times),
        host_reached(transfer, systems * 2),
        host_counters(transfer, systems * counter_count),
        state(ctx, with_phased ? systems * phased_state_doubles(n) : 1),
        matrices(ctx, with_phased ? systems * phased_matrix_doubles(n) : 1),
        matrix_pivots(ctx, with_phased ? systems * phased_pivots(n) : 1),
        lists{core::Buffer<cl_uint>(ctx, with_phased ? systems : 1),
              core::Buffer<cl_uint>(ctx, with_phased ? systems : 1)},
        jacobians(ctx, with_phased ? systems : 1),
        pending(ctx, 2),
        host_pending(transfer, 2) {}

  std::size_t capacity;   // systems it holds
  bool per_system_times;  // whether it holds a time interval per system
  bool phased;            // whether it holds the phased mapping's buffers
  core::Buffer<double> y, params, t0, t_end, reached;
  core::Buffer<std::int64_t> counters;
  core::PinnedBuffer<double> host_y, host_params, host_t0, host_t_end, host_reached;
  core::PinnedBuffer<std::int64_t> host_counters;
  // The phased mapping's: each system's record and matrices between passes, the systems a pass left
  // for decomposition (lists[0] and [1] in turn), those of them that need a new J, and how many of each.
  core::Buffer<double> state, matrices;
  core::Buffer<cl_int> matrix_pivots;
  core::Buffer<cl_uint> lists[2], jacobians, pending;
  core::PinnedBuffer<cl_uint> host_pending;
  std::size_t first = 0, count = 0;  // the chunk in flight (run positions); count 0: none
  std::vector<core::Event> downloads;
};

}  // namespace

// Per device, what integrate() keeps from one call to the next: the tolerances and settings, the shared
// time interval, and the chunk slots, which grow to the largest chunk seen. Allocated afresh in every
// call (pinned host memory above all), they left 1.5-1.9 ms between one run's kernel and the next's for
// 100 to 4,096 H2/O2 systems on an H200 whose kernels ran 10-14 ms, and 0.09-0.46 ms once kept
// (docs/chem.md): small batches, as an operator-split flow solver integrates every time step, paid it
// every call.
struct Radau5::Pipeline {
  core::Buffer<double> tol, settings, t0, t_end;  // t0, t_end: shared times only
  std::vector<Slot> slots;
};

struct Radau5::Device {
  core::Program program;
  core::Kernel kernel;
  // Mapping 2's per-group matrices, vectors and pivots in global memory; one element each where the
  // kernel ignores them (mapping 1, local scratch).
  core::Buffer<double> scratch;
  core::Buffer<cl_int> scratch_pivots;
  core::Buffer<double> tables;  // System::tables (one element when it has none)
  core::Buffer<cl_uint> no_list;  // the kernel's list arguments where it ignores them (all but phased)
  // The phased mapping's decompositions (radau5_decompose.cl) with their group sizes, in launch order,
  // and its Jacobians (radau5_jacobian); empty for the other mappings.
  std::optional<core::Program> decompose_program;
  std::vector<std::pair<core::Kernel, std::size_t>> decompose;
  core::Kernel jacobian;
};

std::size_t Result::failures() const {
  std::size_t n = 0;
  for (const Statistics& s : statistics) n += s.ok() ? 0 : 1;
  return n;
}

std::string Result::report() const {
  std::string text;
  for (std::size_t k = 0; k < statistics.size(); ++k)
    if (!statistics[k].ok()) text += "system " + std::to_string(k) + ": " + describe(statistics[k], nmax) + "\n";
  return text;
}

Radau5::Radau5(const core::DeviceSet& devices, System system, Options options)
    : devices_(&devices),
      system_(std::move(system)),
      options_(std::move(options)),
      analytic_jacobian_(analytic(options_.jacobian, system_)),
      parts_(devices.size()),
      pipes_(devices.size()) {
  // A batch of one takes mapping 2 wherever any batch may (n > 64 on GPUs), so this checks n for all.
  check_system(system_, mapping(1));
  validate(options_, system_.n);
  const Tolerances tol = transformed_tolerances(options_, system_.n);
  tolerances_ = tol.rtol;
  tolerances_.insert(tolerances_.end(), tol.atol.begin(), tol.atol.end());

  settings_.assign(setting_count, 0.0);
  settings_[s_uround] = options_.uround;
  settings_[s_safe] = options_.safe;
  settings_[s_thet] = options_.thet;
  settings_[s_fnewt] = newton_tolerance(options_, tol);
  settings_[s_quot1] = options_.quot1;
  settings_[s_quot2] = options_.quot2;
  settings_[s_facl] = 1.0 / options_.min_step_ratio;
  settings_[s_facr] = 1.0 / options_.max_step_ratio;
  settings_[s_h0] = options_.h0;
  settings_[s_hmax] = options_.h_max;
  method_constants(settings_);

  for (std::size_t k = 0; k < devices.size(); ++k) {
    const core::DeviceInfo& info = devices.device(k).info;
    if (!info.fp64)
      throw core::Error("RADAU5 needs double precision (cl_khr_fp64), which " + devices.device(k).label() + " lacks");
    if (options_.work_group > info.max_work_group)
      throw core::Error("ODE options: work_group = " + std::to_string(options_.work_group) + ": " +
                        devices.device(k).label() + " takes at most " + std::to_string(info.max_work_group));
  }
}

Mapping Radau5::mapping(std::size_t systems) const {
  return resolve(options_.mapping, system_, *devices_, systems);
}

Radau5::LaunchShape Radau5::launch_shape(std::size_t systems, std::size_t k) const {
  const Mapping m = mapping(systems);
  const core::Device& d = devices_->device(k);
  return {m, local_range(d, options_).size[0], group_count(d, m, options_) / std::max(d.info.compute_units, 1u),
          register_budget(*devices_, k, options_, m, systems, static_cast<std::size_t>(system_.n)),
          lu_panel(d, options_, m)};
}

void Radau5::prepare(std::size_t systems) const {
  for (std::size_t k = 0; k < parts_.size(); ++k) part(k, launch_shape(systems, k));
}

// Built on first use: a batch size may never need the other mapping, and a large system's kernel takes
// minutes to compile on NVIDIA (GRI-Mech 3.0: about 250 s for mapping 2, 430 s for mapping 1).
Radau5::Device& Radau5::part(std::size_t k, const LaunchShape& shape) const {
  const bool group = shape.mapping == Mapping::work_group, phased = shape.mapping == Mapping::phased;
  std::unique_ptr<Device>& part = parts_[k][2 * (group ? 1 : phased ? 2 : 0) + (shape.max_registers ? 1 : 0)];
  if (part) return *part;
  check_system(system_, shape.mapping);
  const std::string source =
      core::kernel_source("ode/radau5.cl") + "\n#line 1 \"ode system\"\n" + system_.source + "\n";
  const core::Device& d = devices_->device(k);
  core::BuildOptions build;
  build.define("ODE_N", system_.n)
      .define("ODE_LU_BY_COLUMN", !group && d.info.kind == core::DeviceKind::cpu ? 1 : 0)
      .define("ODE_LU_PANEL", phased ? 0 : shape.lu_panel)
      .define("ODE_ANALYTIC_JACOBIAN", analytic_jacobian_ ? 1 : 0)
      .define("ODE_GROUP", group ? 1 : 0)
      .define("ODE_PHASED", phased ? 1 : 0)
      .define("ODE_GROUP_RHS", group && system_.group_rhs ? 1 : 0)
      .define("ODE_GROUP_JAC", group && system_.group_rhs && system_.group_jac && analytic_jacobian_ ? 1 : 0)
      .define("ODE_GROUP_WORK", system_.group_rhs ? system_.group_work : 0)
      .define("ODE_LOCAL_SCRATCH", group && local_scratch(d, system_) ? 1 : 0)
      .define("ODE_FINAL_ROWS", final_rows(d, static_cast<std::size_t>(system_.n), shape.mapping) ? 1 : 0)
      .define("ODE_WARP_PIVOT", group && warp_pivot(d, shape.work_group) ? 1 : 0)
      .define("ODE_OUTLINE_USER", d.info.kind == core::DeviceKind::gpu ? 1 : 0);
  if (shape.max_registers) build.raw("-cl-nv-maxrregcount=" + std::to_string(shape.max_registers));
  const core::Context& ctx = devices_->context(k);
  // The kernel takes a buffer even where it ignores it.
  part = std::make_unique<Device>(
      Device{core::build_program(ctx, "ode/radau5.cl", source, build.str()), {},
             core::Buffer<double>(ctx, std::max<std::size_t>(group ? group_scratch_doubles(d, system_, options_) : 0, 1)),
             core::Buffer<cl_int>(ctx, std::max<std::size_t>(group ? group_scratch_pivots(d, system_, options_) : 0, 1)),
             core::Buffer<double>(ctx, std::max<std::size_t>(system_.tables.size(), 1)),
             core::Buffer<cl_uint>(ctx, 1), std::nullopt, {}, {}});
  if (!system_.tables.empty()) part->tables.write(devices_->compute(k), system_.tables);
  part->kernel = part->program.kernel("radau5_integrate");
  if (phased) {
    part->jacobian = part->program.kernel("radau5_jacobian");
    const auto n = static_cast<std::size_t>(system_.n);
    const bool gpu = d.info.kind == core::DeviceKind::gpu;
    core::BuildOptions lu;
    lu.define("ODE_N", system_.n)
        .define("ODE_GROUP", gpu ? 1 : 0)
        .define("ODE_PHASED", gpu ? 0 : 1)
        .define("ODE_LU_BY_COLUMN", gpu ? 0 : 1)
        .define("ODE_LU_PANEL", shape.lu_panel)
        .define("ODE_LOCAL_SCRATCH", decompose_local(d, n) ? 1 : 0)
        .define("ODE_REGISTER_LU", decompose_in_registers(d, n) ? 1 : 0)
        .define("ODE_FINAL_ROWS", final_rows(d, n, Mapping::phased) ? 1 : 0)
        .define("ODE_WARP_PIVOT", gpu && warp_pivot(d, decompose_kernels(d, n).front().local) ? 1 : 0)
        .define("ODE_RL_PARTS", register_lu_parts);
    part->decompose_program = core::build_program(ctx, "ode/radau5_decompose.cl",
                                                  core::kernel_source("ode/radau5_decompose.cl"), lu.str());
    for (const DecomposeKernel& dk : decompose_kernels(d, n))
      part->decompose.emplace_back(part->decompose_program->kernel(dk.name), dk.local);
  }
  return *part;
}

Radau5::Radau5(Radau5&&) noexcept = default;
Radau5& Radau5::operator=(Radau5&&) noexcept = default;
Radau5::~Radau5() = default;

namespace {

// Copies the `per` values each of the systems at run positions first .. first + count - 1 from
// `from` (batch order) into the start of `to`.
template <class T>
void gather(const std::vector<T>& from, const std::vector<std::size_t>& order, std::size_t first, std::size_t count,
            std::size_t per, T* to) {
  core::parallel_ranges(count, parallel_grain / std::max<std::size_t>(per, 1), [&](std::size_t a, std::size_t b) {
    for (std::size_t i = a; i < b; ++i)
      std::copy_n(from.begin() + static_cast<std::ptrdiff_t>(order[first + i] * per), per, to + i * per);
  });
}

std::vector<std::size_t> batch_order(std::size_t count) {
  std::vector<std::size_t> order(count);
  for (std::size_t i = 0; i < count; ++i) order[i] = i;
  return order;
}

}  // namespace

std::vector<double> Radau5::rates(const Batch& batch, std::size_t count) const {
  const Result r = run(batch, batch_order(count), true);
  std::vector<double> key(count);
  for (std::size_t i = 0; i < count; ++i) key[i] = r.statistics[i].t;
  return key;
}

std::vector<double> Radau5::initial_rates(const Batch& batch) const { return rates(batch, checked_count(batch)); }

// Ties in batch order. Only mapping 1 sorts: a group of mapping 2 runs one system alone, and the phased
// mapping's passes leave only the unfinished systems side by side. Sorted against batch order, H100,
// chem benchmark, phased mapping, one call: GRI-Mech 3.0 at 1e5 systems 269,900 against 257,100
// systems/s (dt 1e-6 s) and 48,980 against 46,810 (1e-4 s), but H2/O2 at 1e6 897,000 and 803,400
// against 1,206,000 and 1,230,000 (1e-6 s) and 336,200 and 315,200 against 352,000 and 355,100. Again on
// an H200 at 87c247c, sorted ascending / descending against batch order: GRI-Mech 3.0 410,300 / 411,200
// against 419,300 (1e-6 s) and 70,960 / 71,050 against 69,160 (1e-4 s); H2/O2 1,475,000 / 1,494,000
// against 1,996,000 and 479,800 / 476,600 against 500,800.
std::vector<std::size_t> Radau5::run_order(const Batch& batch, std::size_t count) const {
  std::vector<std::size_t> order = batch_order(count);
  std::vector<double> key = batch.sort_key;
  // Sorting by the work each system took (known only afterwards) ran GRI-Mech 3.0 at 1e5 systems 60 %
  // faster than by initial temperature on an H200; this key, known beforehand, 35 %, and H2/O2 at 1e4
  // to 1e6 systems 12-55 % faster than batch order (docs/chem.md).
  // CPUs gain nothing and pay the pass: on 2 PoCL cores 1,000 GRI-Mech 3.0 systems ran 4,674-4,760
  // systems/s in this order against 4,917-4,935 in batch order (dt 1e-6 s, runs taken in turn).
  const bool by_rate =
      options_.order == Order::initial_rate || (options_.order == Order::automatic && all_gpus(*devices_));
  if (key.empty() && by_rate && mapping(count) == Mapping::work_item) key = rates(batch, count);
  if (!key.empty())
    std::stable_sort(order.begin(), order.end(), [&](std::size_t i, std::size_t j) { return key[i] < key[j]; });
  return order;
}

std::vector<ChunkPlan> Radau5::plan(std::size_t systems, bool per_system_times) const {
  const auto n = static_cast<std::size_t>(system_.n);
  const std::size_t np = system_.parameters;
  const std::size_t times = per_system_times ? 2 : 0;
  // Per system in a chunk: y, parameters, its times, the reached t and h, and the counters.
  const bool phased = mapping(systems) == Mapping::phased;
  const std::size_t per_system = sizeof(double) * (n + np + times + 2) + sizeof(std::int64_t) * counter_count +
                                 (phased ? phased_bytes(n) : 0);
  const std::size_t largest =
      std::max({n, np, counter_count, phased ? phased_matrix_doubles(n) : 0}) * sizeof(double);
  const core::Partition split(systems, 1, core::distribution_weights(core::Distribution::uniform, *devices_));
  const bool group = mapping(systems) == Mapping::work_group;
  std::vector<ChunkPlan> plans(parts_.size());
  for (std::size_t k = 0; k < parts_.size(); ++k) {
    const core::Device& d = devices_->device(k);
    ChunkPlan& p = plans[k];
    p.first = split.share(k).offset;
    p.systems = split.share(k).count;
    p.system_bytes = per_system;
    p.budget = options_.memory_budget ? options_.memory_budget : static_cast<std::size_t>(d.info.global_mem / 4);
    // Held whatever the chunking: mapping 2's scratch, the tolerances and settings, shared times.
    const std::size_t scratch = group ? sizeof(double) * group_scratch_doubles(d, system_, options_) +
                                            sizeof(cl_int) * group_scratch_pivots(d, system_, options_)
                                      : sizeof(double) + sizeof(cl_int);
    const std::size_t fixed =
        scratch + sizeof(double) * (system_.tables.size() + tolerances_.size() + settings_.size() + (per_system_times ? 0 : 2));
    if (p.systems == 0) continue;
    std::size_t chunk = p.systems;
    if (fixed + p.systems * per_system > p.budget) {
      // Two chunk buffers in rotation share what the per-device data leaves.
      chunk = p.budget > fixed ? (p.budget - fixed) / (2 * per_system) : 0;
      if (chunk == 0)
        throw core::Error("ODE memory_budget = " + std::to_string(p.budget) + " bytes on " + d.label() +
                          " cannot hold one system: each of the two chunk buffers needs " +
                          std::to_string(per_system) + " bytes per system, beside " + std::to_string(fixed) +
                          " bytes of per-device data (at least " + std::to_string(fixed + 2 * per_system) +
                          " bytes)");
    }
    // No single buffer may pass the device's allocation limit.
    if (d.info.max_alloc)
      chunk = std::max<std::size_t>(1, std::min<std::size_t>(chunk, d.info.max_alloc / largest));
    p.chunks = (p.systems + chunk - 1) / chunk;
    // Even chunks rather than a short last one: the launches take similar times, so the overlap holds.
    p.chunk_systems = (p.systems + p.chunks - 1) / p.chunks;
    p.device_bytes = fixed + std::min<std::size_t>(p.chunks, 2) * p.chunk_systems * per_system;
  }
  return plans;
}

// Device k's pipeline for a run planned as p, made or grown here and kept for later runs.
Radau5::Pipeline& Radau5::pipeline(std::size_t k, const ChunkPlan& p, bool per_system_times, bool phased) const {
  std::unique_ptr<Pipeline>& pipe = pipes_[k];
  const core::Context& ctx = devices_->context(k);
  const core::Queue& tq = devices_->transfer(k);
  if (!pipe) {
    pipe = std::make_unique<Pipeline>();
    pipe->tol = core::Buffer<double>(ctx, tolerances_.size());
    pipe->tol.write(tq, tolerances_, 0, core::Blocking::no);
    pipe->settings = core::Buffer<double>(ctx, settings_.size());
    pipe->settings.write(tq, settings_, 0, core::Blocking::no);
    pipe->t0 = core::Buffer<double>(ctx, 1);
    pipe->t_end = core::Buffer<double>(ctx, 1);
  }
  // A run that threw may have left transfers and kernels in flight that use the slots.
  for (Slot& s : pipe->slots)
    if (s.count != 0) {
      devices_->compute(k).finish();
      tq.finish();
      s.count = 0;
    }
  const std::size_t slot_count = std::min<std::size_t>(p.chunks, 2);
  std::size_t capacity = p.chunk_systems;
  bool times = per_system_times, with_phased = phased, fits = pipe->slots.size() >= slot_count;
  for (const Slot& s : pipe->slots) {
    fits = fits && s.capacity >= p.chunk_systems && (s.per_system_times || !per_system_times) &&
           (s.phased || !phased);
    capacity = std::max(capacity, s.capacity);
    times = times || s.per_system_times;
    with_phased = with_phased || s.phased;
  }
  if (!fits) {
    // Released before the larger ones are allocated.
    pipe->slots.clear();
    pipe->slots.reserve(slot_count);
    for (std::size_t i = 0; i < slot_count; ++i)
      pipe->slots.emplace_back(ctx, tq, capacity, static_cast<std::size_t>(system_.n), system_.parameters,
                               times ? capacity : 0, with_phased);
  }
  return *pipe;
}

std::size_t Radau5::checked_count(const Batch& batch) const {
  const auto n = static_cast<std::size_t>(system_.n);
  if (batch.y0.empty() || batch.y0.size() % n != 0)
    throw core::Error("batch y0 has " + std::to_string(batch.y0.size()) + " values: expected a positive multiple of n = " +
                      std::to_string(n));
  const std::size_t count = batch.y0.size() / n;
  const std::size_t np = system_.parameters;
  if (batch.params.size() != count * np)
    throw core::Error("batch params has " + std::to_string(batch.params.size()) + " values: expected " +
                      std::to_string(np) + " per system x " + std::to_string(count) + " systems");
  check_finite(batch.y0, "y0", n);
  check_finite(batch.params, "params", std::max<std::size_t>(np, 1));
  check_times(batch, count);
  if (!batch.sort_key.empty() && batch.sort_key.size() != count)
    throw core::Error("batch sort_key has " + std::to_string(batch.sort_key.size()) + " values: expected none or " +
                      std::to_string(count) + " (one per system)");
  check_finite(batch.sort_key, "sort_key", 1);
  return count;
}

Result Radau5::integrate(const Batch& batch) const {
  const std::size_t count = checked_count(batch);
  return run(batch, run_order(batch, count), false);
}

Result Radau5::run(const Batch& batch, const std::vector<std::size_t>& order, bool rates_only) const {
  const auto n = static_cast<std::size_t>(system_.n);
  const std::size_t count = order.size();
  const std::size_t np = system_.parameters;
  const cl_uint time_stride = batch.t0.size() == 1 && batch.t_end.size() == 1 ? 0u : 1u;
  Result result;
  result.nmax = options_.nmax;
  result.chunking = plan(count, time_stride != 0);
  const Mapping batch_mapping = mapping(count);
  // The results' host arrays are allocated on a thread of their own, so that their first touch (55 MB at
  // 1e5 systems of GRI-Mech 3.0, 168 MB at 1e6 of H2/O2) overlaps the packing and the kernels; the first
  // collect() of a filled slot waits for it. H200 traces of the chem benchmark: allocated on this thread
  // before the first launch, the host's time between one run's last download and the next run's first
  // upload was about 60 ms at 1e5 GRI-Mech 3.0 systems; after the first launch 26-30 ms, but then the
  // first pass's successor waited for it (3.4 ms at 1e5 GRI-Mech 3.0 systems, 90 ms at 1e6 H2/O2). When
  // collect() of the first, empty slot still waited for it, the packing began only after it: 34.5 ms
  // from a run's first upload to its states' at 1e5 GRI-Mech 3.0 systems, 2.5 ms now, and GRI-Mech 3.0 at
  // 1e5 systems runs 12 % faster at dt 1e-6 s, H2/O2 at 1e6 16 % (docs/chem.md, stop 37).
  std::future<void> allocated = std::async(std::launch::async, [&] {
    if (!rates_only) result.y.resize(batch.y0.size());
    result.statistics.resize(count);
  });

  // A per-system time list may pair with a shared one: the shared one is expanded.
  std::vector<double> t0 = batch.t0, t_end = batch.t_end;
  if (time_stride) {
    if (t0.size() == 1) t0.assign(count, batch.t0[0]);
    if (t_end.size() == 1) t_end.assign(count, batch.t_end[0]);
  }

  std::vector<Pipeline*> pipes(parts_.size(), nullptr);
  for (std::size_t k = 0; k < parts_.size(); ++k) {
    const ChunkPlan& p = result.chunking[k];
    if (p.chunks == 0) continue;
    Pipeline& pipe = pipeline(k, p, time_stride != 0, batch_mapping == Mapping::phased);
    // On the in-order transfer queue before any chunk's inputs, so every launch that waits for its
    // chunk's uploads finds them in place.
    if (!time_stride) {
      pipe.t0.write(devices_->transfer(k), t0, 0, core::Blocking::no);
      pipe.t_end.write(devices_->transfer(k), t_end, 0, core::Blocking::no);
    }
    pipes[k] = &pipe;
  }

  // Waits for a slot's chunk to come down and files its results under each system's batch index. An
  // empty slot does not wait for the allocation: the first chunks are packed meanwhile.
  const auto collect = [&](Slot& s) {
    if (s.count == 0) return;
    if (allocated.valid()) allocated.get();
    core::wait_all(s.downloads);
    core::parallel_ranges(s.count, parallel_grain / (n + counter_count), [&](std::size_t first, std::size_t last) {
      for (std::size_t i = first; i < last; ++i) {
        const std::size_t system = order[s.first + i];
        if (!rates_only)
          std::copy_n(s.host_y.data() + i * n, n, result.y.begin() + static_cast<std::ptrdiff_t>(system * n));
        const std::int64_t* c = s.host_counters.data() + i * counter_count;
        Statistics& st = result.statistics[system];
        st.status = static_cast<Status>(c[0]);
        st.nfcn = c[1];
        st.njac = c[2];
        st.nstep = c[3];
        st.naccpt = c[4];
        st.nrejct = c[5];
        st.ndec = c[6];
        st.nsol = c[7];
        st.t = s.host_reached[2 * i];
        st.h = s.host_reached[2 * i + 1];
      }
    });
    s.count = 0;
  };

  // One chunk's kernels on device k. The phased mapping integrates in passes: `list` is the slot's
  // list that names the systems left for decomposition after the last pass, `last` that pass's read of
  // their count; otherwise `last` is the kernel.
  struct Launch {
    std::size_t k;
    Slot* slot;
    Device* part;
    Pipeline* pipe;
    core::Event last;
    int list = 0;
    bool done = false;
  };
  const bool phased = batch_mapping == Mapping::phased;
  // A pass over the whole chunk (resume false), or over the `listed` systems decomposed since the last.
  const auto integrate_pass = [&](Launch& l, bool resume, cl_uint listed, std::span<const core::Event> wait) {
    Slot& s = *l.slot;
    Device& part = *l.part;
    const core::Device& d = devices_->device(l.k);
    const core::Queue& cq = devices_->compute(l.k);
    if (phased) s.pending.fill(cq, 0);
    part.kernel.args(s.y, s.params, static_cast<cl_uint>(np), time_stride ? s.t0 : l.pipe->t0,
                     time_stride ? s.t_end : l.pipe->t_end, time_stride, l.pipe->tol, l.pipe->settings,
                     static_cast<cl_long>(options_.nmax), static_cast<cl_int>(options_.nit),
                     static_cast<cl_int>(options_.controller == Controller::gustafsson ? 1 : 0),
                     static_cast<cl_int>(options_.zero_start ? 1 : 0), static_cast<cl_int>(rates_only ? 1 : 0),
                     s.counters, s.reached, static_cast<cl_ulong>(resume ? listed : s.count), part.scratch,
                     part.scratch_pivots, part.tables, phased ? s.matrices : part.scratch,
                     phased ? s.matrix_pivots : part.scratch_pivots, phased ? s.state : part.scratch,
                     static_cast<cl_int>(resume ? 1 : 0), phased ? s.lists[l.list] : part.no_list,
                     phased ? s.lists[1 - l.list] : part.no_list, phased ? s.jacobians : part.no_list,
                     phased ? s.pending : part.no_list);
    const core::NDRange local = local_range(d, options_);
    l.last = part.kernel.launch(cq, core::NDRange(local.size[0] * group_count(d, batch_mapping, options_)), local, wait);
    if (phased) {
      l.list = 1 - l.list;
      l.last = s.pending.read(cq, s.host_pending.span(), 0, core::Blocking::no);
    }
    cq.flush();
  };
  // The phased mapping's passes until no system is left: each waits for the last pass's counts, then
  // evaluates J where the systems it left asked for one, decomposes them and runs them on.
  const auto finish_passes = [&](std::vector<Launch>& launches) {
    for (bool running = true; running;) {
      running = false;
      for (Launch& l : launches) {
        if (l.done) continue;
        l.last.wait();
        const cl_uint listed = l.slot->host_pending[0], jacobians = l.slot->host_pending[1];
        l.done = listed == 0;
        if (l.done) continue;
        const core::Device& d = devices_->device(l.k);
        Slot& s = *l.slot;
        if (jacobians) {
          l.part->jacobian.args(s.y, s.params, static_cast<cl_uint>(np), l.pipe->settings, l.part->tables, s.matrices,
                                s.state, s.jacobians, static_cast<cl_ulong>(jacobians));
          const core::NDRange local = local_range(d, options_);
          l.part->jacobian.launch(devices_->compute(l.k),
                                  core::NDRange(local.size[0] * group_count(d, batch_mapping, options_)), local);
        }
        for (auto& [kernel, local] : l.part->decompose) {
          kernel.args(l.slot->matrices, l.slot->matrix_pivots, l.slot->state, l.slot->lists[l.list], listed);
          kernel.launch(devices_->compute(l.k), core::NDRange(local * decompose_groups(d)), core::NDRange(local));
        }
        integrate_pass(l, true, listed, {});
        running = true;
      }
    }
  };

  // Chunk r of every device in turn, so all devices are fed. Reusing a slot first waits for its
  // previous chunk's download, which followed that chunk's kernel; so chunk r's upload and chunk r-2's
  // download run on the transfer queue while chunk r-1 integrates on the compute queue.
  std::size_t rounds = 0;
  for (const ChunkPlan& p : result.chunking) rounds = std::max(rounds, p.chunks);
  for (std::size_t r = 0; r < rounds; ++r) {
    std::vector<Launch> launches;
    for (std::size_t k = 0; k < parts_.size(); ++k) {
      const ChunkPlan& p = result.chunking[k];
      if (r >= p.chunks) continue;
      Pipeline& pipe = *pipes[k];
      Slot& s = pipe.slots[r % std::min<std::size_t>(p.chunks, 2)];
      collect(s);
      s.first = p.first + r * p.chunk_systems;
      s.count = std::min(p.chunk_systems, p.systems - r * p.chunk_systems);
      const core::Queue& tq = devices_->transfer(k);
      std::vector<core::Event> uploads;
      gather(batch.y0, order, s.first, s.count, n, s.host_y.data());
      uploads.push_back(s.y.write(tq, s.host_y.span().first(s.count * n), 0, core::Blocking::no));
      gather(batch.params, order, s.first, s.count, np, s.host_params.data());
      uploads.push_back(s.params.write(tq, s.host_params.span().first(s.count * np), 0, core::Blocking::no));
      if (time_stride) {
        gather(t0, order, s.first, s.count, 1, s.host_t0.data());
        uploads.push_back(s.t0.write(tq, s.host_t0.span().first(s.count), 0, core::Blocking::no));
        gather(t_end, order, s.first, s.count, 1, s.host_t_end.data());
        uploads.push_back(s.t_end.write(tq, s.host_t_end.span().first(s.count), 0, core::Blocking::no));
      }
      tq.flush();
      launches.push_back({k, &s, &this->part(k, launch_shape(count, k)), &pipe, core::Event(), 0, false});
      integrate_pass(launches.back(), false, 0, uploads);
    }
    if (phased) finish_passes(launches);
    for (Launch& l : launches) {
      Slot& s = *l.slot;
      const core::Queue& tq = devices_->transfer(l.k);
      const std::span<const core::Event> after(&l.last, 1);
      s.downloads.clear();
      if (!rates_only)
        s.downloads.push_back(s.y.read(tq, s.host_y.span().first(s.count * n), 0, core::Blocking::no, after));
      s.downloads.push_back(
          s.counters.read(tq, s.host_counters.span().first(s.count * counter_count), 0, core::Blocking::no, after));
      s.downloads.push_back(s.reached.read(tq, s.host_reached.span().first(s.count * 2), 0, core::Blocking::no, after));
      tq.flush();
    }
  }
  for (Pipeline* pipe : pipes)
    if (pipe)
      for (Slot& s : pipe->slots) collect(s);
  return result;
}

}  // namespace hetflow::ode
