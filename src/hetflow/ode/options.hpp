#pragma once
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hetflow::ode {

// How the next step size is chosen after an accepted step (RADAU5's IWORK(8)).
enum class Controller {
  gustafsson,  // predictive controller of Gustafsson (default)
  classical    // h_new from the current error alone
};

// How systems map onto work-items (Sewerin & Rigopoulos 2015, section 5; docs/ode.md, Mappings).
enum class Mapping {
  // Mapping 1: one work-item per system, everything private (see private_matrix_limit); n <= 64, or any
  // n for a System::group_only system, whose matrices are global.
  work_item,
  // Mapping 2: one work-group per system, matrices in per-group global scratch; n <= 128, or any n for a
  // group_only system.
  work_group,
  // Mapping 1's steps with the decompositions apart: each pass runs every unfinished system up to its
  // next decomposition, then a work-group per system factorises (radau5_decompose.cl); J and the
  // factors stay in global memory between passes; n <= 64.
  phased,
  // On CPUs work_item. On GPUs work_group for n > 64; for 16 < n <= 64 work_group below 64 systems per
  // compute unit, phased from there; for n <= 16 phased from 40 systems per unit, below that
  // work_group when the system has rhs_group, else work_item (docs/ode.md).
  automatic
};

// Not RADAU5's: the order in which a batch without Batch::sort_key runs (radau5.hpp), which changes no
// result. Work-items side by side on a GPU run their systems in step, so a system that needs more steps
// or iterations holds its neighbours back.
enum class Order {
  automatic,  // initial_rate where every device is a GPU, else batch (default)
  // Mapping 1 first evaluates every system's rhs at (t0, y0) and runs them in order of its norm scaled
  // by the error tolerances: systems that change fast for their tolerances take more steps.
  initial_rate,
  batch  // in batch order
};

// Which Jacobian RADAU5 uses (not RADAU5's option: its IJAC follows from the system).
enum class Jacobian {
  analytic,           // the system's jac(); an error when it has none
  finite_difference,  // RADAU5's forward differences of rhs(), one column per evaluation
  // The system's jac() when it has one, else differences: the same in every mapping, so a system's
  // result does not depend on the batch size it comes in.
  automatic
};

// RADAU5's parameters, with the defaults of Hairer & Wanner's code; the names in comments are theirs.
struct Options {
  // Relative and absolute tolerances: one value for every component, or one per component (ITOL = 1).
  // Like RADAU5, the integrator works with rtol' = 0.1 rtol^(2/3) and atol' = rtol' atol / rtol.
  std::vector<double> rtol{1e-6};
  std::vector<double> atol{1e-6};
  double h0 = 0.0;    // initial step size; 0 (or |h0| <= 10 uround) means 1e-6
  double h_max = 0.0;  // largest step size; 0 means |t_end - t0| (WORK(7))
  long nmax = 100000;  // most steps before IDID = -2 (IWORK(2))
  int nit = 7;         // most Newton iterations per step (IWORK(3))
  bool zero_start = false;  // Newton starts from zero instead of the extrapolated polynomial (IWORK(4))
  Controller controller = Controller::gustafsson;  // IWORK(8)
  double uround = 1e-16;   // unit roundoff (WORK(1))
  double safe = 0.9;       // safety factor of the step-size proposal (WORK(2))
  double thet = 0.001;     // Jacobian reuse threshold on the Newton contraction; < 0: new J every step (WORK(3))
  double fnewt = 0.0;      // Newton stopping tolerance; 0 means max(10 uround / rtol', min(0.03, rtol'^0.5)) (WORK(4))
  double quot1 = 1.0;      // h is kept when quot1 <= h_new / h <= quot2 (WORK(5), WORK(6))
  double quot2 = 1.2;
  double min_step_ratio = 0.2;  // h_new / h >= this (WORK(8); RADAU5's facl = 1 / this)
  double max_step_ratio = 8.0;  // h_new / h <= this (WORK(9); RADAU5's facr = 1 / this)
  Mapping mapping = Mapping::automatic;  // not RADAU5's: the GPU mapping, same results either way
  Jacobian jacobian = Jacobian::automatic;
  Order order = Order::automatic;
  // Not RADAU5's: device memory (bytes) one integrate() may hold per device; a larger share of the batch
  // runs in chunks whose transfers overlap the integration (docs/ode.md). 0: a quarter of the device's
  // global memory. Same results at any budget.
  std::size_t memory_budget = 0;
  // Not RADAU5's: device memory (bytes) mapping 1's matrices may take in private memory, which a GPU's
  // driver reserves for every work-item the device holds at once, whatever the batch (radau5_launch.cpp,
  // private_matrix_bytes). Above it mapping 1 keeps each system's matrices in global memory beside its
  // chunk, as the phased mapping does, so they grow with the batch and fit memory_budget's chunks.
  // 0: an eighth of a GPU's global memory; no limit on CPUs. Same results either way.
  std::size_t private_matrix_limit = 0;
  // Not RADAU5's: most systems per chunk on a device; 0: as many as memory_budget allows. Smaller chunks
  // let integrate()'s keep_going report progress and stop a run sooner, at the cost of a launch's start
  // and tail per chunk. Same results at any value.
  std::size_t chunk_systems = 0;
  // Not RADAU5's: the launch shape of the mapping a batch runs in, work-items per work-group and
  // work-groups per compute unit (`hetflow tune radau5` measures them); 0: the mapping's defaults
  // (radau5_launch.cpp, local_range). Same results in any shape.
  std::size_t work_group = 0;
  std::size_t groups_per_unit = 0;
  // Not RADAU5's: registers per work-item on NVIDIA GPUs (-cl-nv-maxrregcount), 0: 64 (80 for the
  // phased mapping past n = 16), or the compiler's choice for mapping 2's smallest batches
  // (radau5_launch.cpp, register_budget); other devices ignore it. Fewer registers let more systems share
  // a multiprocessor; same results at any value.
  std::size_t max_registers = 0;
  // Not RADAU5's: the LU decompositions work in panels of this many columns (dense_lu.cl,
  // ODE_LU_PANEL); -1: panels of 4 for mapping 1 on GPUs, where it cuts the traffic of matrices in
  // off-chip private memory; for mapping 2 panels of 16 above n = 256 (matrices in global scratch) and
  // none below, where panels shorten a lone system's decompositions but cost throughput on a full
  // device (docs/chem.md); none on CPUs, where PoCL vectorises DEC's column order better; 0: none. Same
  // results at any value.
  int lu_panel = -1;
};

// Throws core::Error naming the first option out of range and its value; n is the system size.
void validate(const Options& options, int n);

// The names case files, the tuner and Python give the mappings ("work_item", "work_group", "phased",
// "automatic") and the Jacobians ("analytic", "finite_difference", "automatic"); nullopt for another name.
const char* to_string(Mapping mapping);
const char* to_string(Jacobian jacobian);
std::optional<Mapping> mapping_named(std::string_view name);
std::optional<Jacobian> jacobian_named(std::string_view name);

// The tolerances RADAU5 works with, per component: rtol' = 0.1 rtol^(2/3), atol' = rtol' (atol / rtol).
struct Tolerances {
  std::vector<double> rtol;
  std::vector<double> atol;
};
Tolerances transformed_tolerances(const Options& options, int n);

// The Newton stopping tolerance the integrator uses: options.fnewt, or its default from rtol'_1.
double newton_tolerance(const Options& options, const Tolerances& transformed);

}  // namespace hetflow::ode
