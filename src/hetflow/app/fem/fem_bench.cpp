#include "hetflow/app/fem/fem_bench.hpp"

#include <algorithm>
#include <functional>
#include <iostream>
#include <memory>
#include <numeric>
#include <optional>
#include <string>
#include <vector>

#include "hetflow/app/bench/reference.hpp"
#include "hetflow/app/bench/timing.hpp"
#include "hetflow/app/fem/fem_bench_cavity.hpp"
#include "hetflow/app/fem/fem_bench_model.hpp"
#include "hetflow/app/fem/fem_tunable.hpp"
#include "hetflow/core/number_text.hpp"
#include "hetflow/fem/box_mesh.hpp"
#include "hetflow/fem/device_edge_data.hpp"
#include "hetflow/fem/momentum_step.hpp"
#include "hetflow/fem/pressure_step.hpp"
#include "hetflow/fem/step_diagnostics.hpp"

namespace hetflow::app {
namespace {

// The paper's cavity run (its Kratos set-up): Courant number 0.9, Δt at most 0.01, from rest to t = 1.
constexpr double courant = 0.9;
constexpr double max_dt = 0.01;
constexpr double end_time = 1.0;
// The cells of the paper's run; it stops at this wall time and extrapolates to t = 1, so that the case with
// its set-up fits a 10-minute device call.
constexpr int paper_cells = 56;
constexpr double paper_budget_s = 480;
// Steps that the "step" cases run before timing: the first steps from rest start the flow.
constexpr int warmup_steps = 3;
// The time step of the kernel cases' stabilisation and assembly.
constexpr double kernel_dt = 1e-3;
// A kernel case enqueues about this many bytes per timed repeat (at least one launch, at most 20), so that
// the gaps between launches of a small mesh's kernels weigh little.
constexpr double bytes_per_repeat = 64e6;
// The cells per side of each device's share in the weak-scaling cases: over 4M nodes on a GPU.
constexpr int weak_cells_gpu = 160;
constexpr int weak_cells_cpu = 14;

// The pressure CG's preconditioners the step cases compare: the paper's Jacobi and the run's default AMG.
const std::pair<const char*, fem::Preconditioner> preconditioners[] = {{"jacobi", fem::Preconditioner::jacobi},
                                                                       {"amg", fem::Preconditioner::amg}};
constexpr double fp32_cg_tolerance = 1e-6;
// The pressure CG's precisions the step cases compare (solver.cg_precision), by their names' suffixes.
const std::pair<const char*, core::Precision> cg_precisions[] = {{"", core::Precision::f64},
                                                                 {" fp32", core::Precision::f32}};

const char* const kernel_case_names[] = {"spmv paper",        "spmv tuned",        "convective projection",
                                         "momentum residual", "pressure assembly", "diagnostics"};
std::string size_name(int cells) { return std::to_string(cells) + "^3"; }

// The paper's run to t = 1, with our Courant-limited steps (0) and with the paper's 5,400 equal steps.
constexpr int paper_step_counts[] = {0, 5400};

std::string paper_case_name(int steps) {
  return size_name(paper_cells) + " cavity " + (steps > 0 ? std::to_string(steps) + " steps " : "") + "to t=1";
}

// A line to stderr at most once a second.
class Ticker {
 public:
  template <class Text>
  void tick(Text&& text) {
    if (since_.seconds() < 1) return;
    std::cerr << "  " << text() << "\n";
    since_.restart();
  }

 private:
  core::WallTimer since_;
};

nlohmann::json shape_json(const fem::SpmvShape& s) { return nlohmann::json::array({s.wg_bits, s.row_bits}); }

nlohmann::json mesh_params(const CavityMesh& m) {
  return {{"cells", m.cells}, {"nodes", m.data.node_count()}, {"directed_edges", m.data.edge_count()}};
}

// The kernels of one step on one mesh, bound to the cavity's state at rest with the lid moving.
struct KernelSet {
  KernelSet(const core::DeviceSet& devices, const CavityMesh& m, const fem::FlowParameters& parameters,
            const fem::BoundaryConstraints& bc)
      : edge_data(devices, 0, m.data),
        constraints(devices, 0, bc, m.data.node_count()),
        momentum(devices, 0, edge_data, parameters.momentum, constraints),
        pressure(devices, 0, m.data, edge_data, bc.pressure_nodes, parameters.cg, parameters.spmv),
        diagnostics(devices, 0, edge_data, parameters.momentum.viscosity),
        assembly{kernel_dt, parameters.momentum.density, parameters.theta} {
    const core::Context& context = devices.context(0);
    const core::Queue& queue = devices.compute(0);
    const std::size_t n = m.data.node_count();
    std::vector<fem::Vec3> lid(n, fem::Vec3{0, 0, 0});
    fem::apply_constraints(bc, 0, lid);
    std::vector<double> velocity;
    for (const fem::Vec3& v : lid) velocity.insert(velocity.end(), v.begin(), v.end());
    for (core::Buffer<double>* v : {&u, &u_hat, &xi, &out}) *v = core::Buffer<double>(context, 3 * n);
    for (core::Buffer<double>* v : {&p, &x, &y}) *v = core::Buffer<double>(context, n);
    u.write(queue, velocity);
    u_hat.write(queue, velocity);
    xi.fill(queue, 0.0);
    p.fill(queue, 0.0);
    x.fill(queue, 1.0);
    momentum.stabilisation(u, kernel_dt);
    momentum.convective_projection(u);
    assemble();
    queue.finish();
  }

  void assemble() { pressure.assemble(assembly, momentum.tau(), u_hat, u, xi, p); }

  fem::DeviceEdgeData edge_data;
  fem::VelocityConstraints constraints;
  fem::MomentumStep momentum;
  fem::PressureStep pressure;
  fem::StepDiagnostics diagnostics;
  fem::PressureParameters assembly;
  core::Buffer<double> u, u_hat, xi, out, p, x, y;
};

class FemBench {
 public:
  FemBench(const core::DeviceSet& devices, const BenchOptions& options)
      : devices_(devices),
        options_(options),
        report_{"fem", devices.device(0).info, reference_bandwidth(devices.compute(0)).copy.median, {}} {
    tuned_ = tuned_spmv_shape(devices, tuning_);
    spmv_ = tuned_.value_or(fem::SpmvShape{});
  }

  BenchReport run() {
    const bool gpu = report_.device.kind == core::DeviceKind::gpu;
    const std::vector<int> sizes = gpu ? std::vector<int>{14, 28, 56, 160} : std::vector<int>{14, 28, 56};
    for (int cells : sizes) {
      const std::string size = size_name(cells);
      bool kernels = false;
      for (const char* name : kernel_case_names) kernels = kernels || options_.wants(size + " " + name);
      bool step = false;
      for (const auto& [label, preconditioner] : preconditioners)
        for (const auto& [suffix, precision] : cg_precisions)
          step = step || options_.wants(size + " step " + label + suffix);
      bool paper = false;
      for (int steps : paper_step_counts)
        paper = paper || (gpu && cells == paper_cells && options_.wants(paper_case_name(steps)));
      if (!kernels && !step && !paper) continue;
      const CavityMesh m = cavity_mesh(cells);
      const fem::BoundaryConstraints bc = cavity_constraints(m.mesh);
      if (kernels) kernel_cases(m, bc);
      if (step)
        for (const auto& [suffix, precision] : cg_precisions)
          for (const auto& [label, preconditioner] : preconditioners)
            step_case(m, bc, label + std::string(suffix), preconditioner, precision);
      if (paper)
        for (int steps : paper_step_counts)
          if (options_.wants(paper_case_name(steps))) paper_case(m, bc, steps);
    }
    if (devices_.size() > 1) {
      const int cells = gpu ? weak_cells_gpu : weak_cells_cpu;
      for (const auto& [label, preconditioner] : preconditioners) weak_case(cells, label, preconditioner);
    }
    return std::move(report_);
  }

 private:
  void kernel_cases(const CavityMesh& m, const fem::BoundaryConstraints& bc) {
    const std::string size = size_name(m.cells);
    const fem::FlowParameters parameters = cavity_parameters(spmv_, fem::Preconditioner::jacobi);
    const auto set = with_progress(size + " kernels' set-up",
                                   [&] { return std::make_unique<KernelSet>(devices_, m, parameters, bc); });
    const FemBytes bytes(m.data.node_count(), m.data.edge_count());
    const core::Queue& queue = devices_.compute(0);
    auto spmv_case = [&](const std::string& name, const fem::SpmvShape& shape, const fem::DeviceCsr<double>& a) {
      const fem::DeviceSpmv<double> spmv(devices_.context(0), shape);
      kernel_case(m, name, bytes.spmv, {{"spmv_shape", shape_json(shape)}, {"slice_rows", 1 << a.slice_bits}},
                  [&] { spmv(queue, a, set->x, set->y); });
    };
    // The paper's vector CSR, and the solver's sliced matrix with the tuned shape.
    spmv_case("spmv paper", fem::SpmvShape{}, fem::DeviceCsr<double>(queue, stiffness_matrix(m.data)));
    if (tuned_) spmv_case("spmv tuned", *tuned_, set->pressure.matrix());
    kernel_case(m, "convective projection", bytes.convective_projection, {},
                [&] { set->momentum.convective_projection(set->u); });
    kernel_case(m, "momentum residual", bytes.momentum_residual, {},
                [&] { set->momentum.residual(set->u, set->p, set->out); });
    kernel_case(m, "pressure assembly", bytes.pressure_assembly, {}, [&] { set->assemble(); });
    kernel_case(m, "diagnostics", bytes.diagnostics,
                {{"includes", "both kernels; the step's blocking read of the six totals is timed with the step"}},
                [&] { set->diagnostics.enqueue(set->u, set->p); });
  }

  void kernel_case(const CavityMesh& m, const std::string& kernel, double bytes, nlohmann::json params,
                   const std::function<void()>& enqueue) {
    const std::string name = size_name(m.cells) + " " + kernel;
    if (!options_.wants(name)) return;
    const int launches = std::clamp(static_cast<int>(bytes_per_repeat / bytes), 1, 20);
    const std::vector<double> seconds =
        launch_seconds(devices_.compute(0), stamp(), options_.repeats, launches, enqueue);
    std::vector<double> rates;
    for (double s : seconds) rates.push_back(bytes / s * 1e-9);
    const core::Summary rate = core::summarize(rates);
    params.update(mesh_params(m));
    params["bytes_model"] =
        "the record slots the kernel reads (8 B each) + column 4 B per directed edge; node vectors once per node";
    params["median_us"] = core::summarize(seconds).median * 1e6;
    params["launches_per_repeat"] = launches;
    std::cerr << "  " << name << ": " << core::number_text(rate.median, 4) << " GB/s\n";
    report_.add({name, "GB/s", rate, bytes, rate.median / report_.reference_bandwidth_GBs, params});
  }

  void step_case(const CavityMesh& m, const fem::BoundaryConstraints& bc, const std::string& label,
                 fem::Preconditioner preconditioner, core::Precision precision) {
    const std::string name = size_name(m.cells) + " step " + label;
    if (!options_.wants(name)) return;
    const TimedSteps t = timed_steps(name, *make_solver(m, bc, preconditioner, precision));
    const core::Summary ms = core::summarize(t.ms);
    const double its = core::summarize(t.iterations).median;
    const FemBytes bytes(m.data.node_count(), m.data.edge_count(), precision == core::Precision::f32 ? 4 : 8);
    const double limit_ms = bytes.step(its) / (report_.reference_bandwidth_GBs * 1e9) * 1e3;
    nlohmann::json params = mesh_params(m);
    params.update({{"cg_tolerance", precision == core::Precision::f32 ? fp32_cg_tolerance : fem::CgOptions{}.tolerance},
                   {"cg_iterations_median", its},
                   {"cg_iterations_mean", std::accumulate(t.iterations.begin(), t.iterations.end(), 0.0) /
                                              static_cast<double>(t.iterations.size())},
                   {"ms_per_million_nodes", ms.median / (static_cast<double>(m.data.node_count()) * 1e-6)},
                   {"step_fixed_bytes", bytes.step_fixed},
                   {"cg_iteration_bytes", bytes.cg_iteration},
                   {"limit_ms", limit_ms},
                   {"measured_over_limit", ms.median / limit_ms},
                   {"warmup_steps", warmup_steps},
                   {"last_dt", t.last_dt},
                   {"courant", courant},
                   {"spmv_shape", shape_json(spmv_)},
                   {"tuning", tuning_}});
    std::cerr << "  " << name << ": " << core::number_text(ms.median, 4) << " ms, " << its << " CG iterations\n";
    report_.add({name, "ms/step", ms, bytes.step(its), limit_ms / ms.median, params});
  }

  // Weak scaling over the P devices of the selection (docs/fem.md, "Several devices"): the cavity of
  // cells³ on the first device, then stretched to cells x cells x P·cells cells on all P; the speed-up is
  // the ratio of node-iterations of the pressure CG per second (the stretched cavity's CG takes other
  // iteration counts than the cube's), the efficiency that over P.
  void weak_case(int cells, const std::string& label, fem::Preconditioner preconditioner) {
    const auto parts = static_cast<int>(devices_.size());
    const std::string name = size_name(cells) + " per device on " + std::to_string(parts) + " step " + label;
    if (!options_.wants(name)) return;
    const auto c = static_cast<std::uint32_t>(cells);
    const auto one = [&] {
      const CavityMesh m = cavity_mesh(cells);
      const std::unique_ptr<fem::FlowSolver> solver = make_solver(m, cavity_constraints(m.mesh), preconditioner);
      return StepRate(m, timed_steps(name + " on one device", *solver));
    }();
    CavityMesh stretched;
    stretched.cells = cells;
    stretched.mesh = with_progress(name + " mesh", [&] {
      return fem::box_mesh(c, c, c * static_cast<std::uint32_t>(parts), {0, 0, 0}, {1, 1, double(parts)});
    });
    stretched.data = with_progress(name + " edge data", [&] { return fem::build_edge_data(stretched.mesh); });
    const auto all = [&] {
      const fem::BoundaryConstraints bc = cavity_constraints(stretched.mesh);
      auto solver = with_progress(name + " solver set-up", [&] {
        return std::make_unique<fem::FlowSolver>(devices_, stretched.mesh, stretched.data,
                                                 cavity_parameters(spmv_, preconditioner), bc,
                                                 core::Distribution::uniform);
      });
      return StepRate(stretched, timed_steps(name, *solver));
    }();
    const double speedup = all.rate / one.rate;
    nlohmann::json params = mesh_params(stretched);
    params.update({{"devices", parts},
                   {"one_device_nodes", one.nodes},
                   {"one_device_ms_per_step", one.ms},
                   {"one_device_cg_iterations", one.iterations},
                   {"all_devices_ms_per_step", all.ms},
                   {"all_devices_cg_iterations", all.iterations},
                   {"measure", "speed-up in pressure-CG node-iterations per second over the first device alone"},
                   {"spmv_shape", shape_json(spmv_)}});
    std::cerr << "  " << name << ": " << core::number_text(speedup, 3) << "x one device\n";
    report_.add({name, "x", {speedup, speedup, speedup, 1}, 0, speedup / parts, params});
  }

  struct TimedSteps {
    std::vector<double> ms, iterations;  // per timed step
    double last_dt = 0;
  };

  // `repeats` steps after the warm-up, at Δt = min(0.01, 0.9 / rate).
  TimedSteps timed_steps(const std::string& name, fem::FlowSolver& solver) {
    TimedSteps t;
    Ticker ticker;
    for (int k = 0; k < warmup_steps + options_.repeats; ++k) {
      t.last_dt = std::min(max_dt, solver.stable_dt(courant));
      const core::WallTimer timer;
      const fem::StepReport r = solver.advance(t.last_dt);
      if (k >= warmup_steps) {
        t.ms.push_back(timer.seconds() * 1e3);
        t.iterations.push_back(r.cg.iterations);
      }
      ticker.tick([&] {
        return name + ": step " + std::to_string(r.step) + ", " + std::to_string(r.cg.iterations) + " CG iterations";
      });
    }
    return t;
  }

  // The median step time and CG iterations of a mesh's timed steps, and its CG node-iterations per second.
  struct StepRate {
    StepRate(const CavityMesh& m, const TimedSteps& t)
        : nodes(static_cast<double>(m.data.node_count())),
          ms(core::summarize(t.ms).median),
          iterations(core::summarize(t.iterations).median),
          rate(nodes * iterations / (ms * 1e-3)) {}
    double nodes, ms, iterations, rate;
  };

  // The paper's run: from rest to t = 1 with Δt = min(0.01, 0.9 / rate), the last step cut to end at t = 1,
  // or with Δt = 1 / steps for `steps` > 0; past the wall-time budget it stops and extrapolates the wall time
  // and steps by t.
  void paper_case(const CavityMesh& m, const fem::BoundaryConstraints& bc, int fixed_steps) {
    const std::string name = paper_case_name(fixed_steps);
    const std::unique_ptr<fem::FlowSolver> solver = make_solver(m, bc, fem::Preconditioner::amg);
    const FemBytes bytes(m.data.node_count(), m.data.edge_count());
    Ticker ticker;
    double moved = 0, iterations = 0;
    const core::WallTimer timer;
    const auto done = [&] {
      return fixed_steps > 0 ? solver->step() >= fixed_steps : solver->time() >= end_time * (1 - 1e-12);
    };
    while (!done() && timer.seconds() < paper_budget_s) {
      const double dt = fixed_steps > 0 ? end_time / fixed_steps
                                        : std::min({max_dt, solver->stable_dt(courant), end_time - solver->time()});
      const fem::StepReport r = solver->advance(dt);
      moved += bytes.step(r.cg.iterations);
      iterations += r.cg.iterations;
      ticker.tick([&] {
        return name + ": step " + std::to_string(r.step) + ", t = " + core::number_text(r.time, 4) +
               ", dt = " + core::number_text(dt, 3) + ", " + std::to_string(r.cg.iterations) + " CG iterations";
      });
    }
    const double wall = timer.seconds();
    const auto steps = static_cast<double>(solver->step());
    const bool finished = done();
    const double scale = finished ? 1.0 : end_time / solver->time();
    const double limit_s = moved / (report_.reference_bandwidth_GBs * 1e9);
    nlohmann::json params = mesh_params(m);
    params.update({{"steps", steps * scale},
                   {"extrapolated", !finished},
                   {"time_reached", solver->time()},
                   {"steps_run", solver->step()},
                   {"wall_s_run", wall},
                   {"seconds_per_step", wall / steps},
                   {"cg_iterations_per_step", iterations / steps},
                   {"limit_s_run", limit_s},
                   {"measured_over_limit", wall / limit_s},
                   {"max_dt", fixed_steps > 0 ? end_time / fixed_steps : max_dt},
                   {"courant", fixed_steps > 0 ? nlohmann::json() : nlohmann::json(courant)},
                   {"spmv_shape", shape_json(spmv_)},
                   {"tuning", tuning_}});
    if (!finished)
      params["extrapolation"] = "stopped after " + core::number_text(paper_budget_s, 4) +
                                " s of wall time; wall time and steps scaled by 1 / time_reached";
    std::cerr << "  " << name << ": " << core::number_text(wall * scale, 4) << " s, " << steps * scale << " steps"
              << (finished ? "" : " (extrapolated)") << "\n";
    const double total = wall * scale;
    report_.add({name, "s", {total, total, total, 1}, moved * scale, limit_s / wall, params});
  }

  std::unique_ptr<fem::FlowSolver> make_solver(const CavityMesh& m, const fem::BoundaryConstraints& bc,
                                               fem::Preconditioner preconditioner,
                                               core::Precision precision = core::Precision::f64) {
    fem::FlowParameters parameters = cavity_parameters(spmv_, preconditioner);
    parameters.cg_precision = precision;
    // An FP32 solve runs to the least tolerance a case may ask of it (docs/fem.md, Precision).
    if (precision == core::Precision::f32) parameters.cg.tolerance = fp32_cg_tolerance;
    return with_progress(size_name(m.cells) + " solver set-up", [&] {
      return std::make_unique<fem::FlowSolver>(devices_, 0, m.mesh, m.data, parameters, bc);
    });
  }

  core::Buffer<double>& stamp() {
    if (stamp_.size() == 0) stamp_ = core::Buffer<double>(devices_.context(0), 1);
    return stamp_;
  }

  const core::DeviceSet& devices_;
  const BenchOptions& options_;
  BenchReport report_;
  nlohmann::json tuning_;
  std::optional<fem::SpmvShape> tuned_;
  fem::SpmvShape spmv_;
  core::Buffer<double> stamp_;
};

}  // namespace

BenchReport fem_benchmark(const core::DeviceSet& devices, const BenchOptions& options) {
  return FemBench(devices, options).run();
}

}  // namespace hetflow::app
