// hetflow._ftle: one FTLE field of a `type: ftle` case's flow and seeds, for hetflow.ftle
// (python/hetflow/ftle.py); gridded velocity from files as the case says, or from an array.
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <optional>

#include "arrays.hpp"
#include "calls.hpp"
#include "hetflow/app/case_type.hpp"
#include "hetflow/app/ftle/ftle_case_setup.hpp"
#include "hetflow/app/ftle/ftle_nan_seeds.hpp"
#include "hetflow/casefile/error.hpp"
#include "hetflow/core/device_set.hpp"
#include "hetflow/core/error.hpp"
#include "hetflow/ftle/body.hpp"
#include "progress.hpp"

namespace hetflow::python {

namespace py = pybind11;

namespace {

using Velocity = py::array_t<double, py::array::c_style>;

// Snapshots (snapshots, nz, ny, nx, dimension) with their grid, as VelocityGrid::check wants them (errors
// become hetflow.InputError naming the snapshot, node and component).
std::shared_ptr<const ftle::VelocityGrid> velocity_grid(const Velocity& u, const std::vector<double>& origin,
                                                        const std::vector<double>& spacing,
                                                        const std::vector<double>& times) {
  ftle::VelocityGrid g;
  g.dimension = static_cast<int>(u.shape(4));
  g.dims = {static_cast<std::size_t>(u.shape(3)), static_cast<std::size_t>(u.shape(2)),
            static_cast<std::size_t>(u.shape(1))};
  std::copy(origin.begin(), origin.end(), g.origin.begin());
  std::copy(spacing.begin(), spacing.end(), g.spacing.begin());
  g.times = times;
  // The snapshots view the array, which the grid keeps (released under the GIL, wherever the last copy of
  // the grid goes).
  const std::size_t per_snapshot = g.nodes() * static_cast<std::size_t>(g.dimension);
  for (py::ssize_t k = 0; k < u.shape(0); ++k)
    g.snapshots.emplace_back(u.data() + static_cast<std::size_t>(k) * per_snapshot, per_snapshot);
  g.storage = std::shared_ptr<const void>(new py::object(u), [](const py::object* held) {
    py::gil_scoped_acquire gil;
    delete held;
  });
  try {
    g.check("velocity");
  } catch (const core::Error& e) {
    throw ArgumentError(e.what());
  }
  return std::make_shared<const ftle::VelocityGrid>(std::move(g));
}

// `values` (per_seed per seed, x fastest) as a C-ordered array of shape (nz,) ny, nx (, per_seed).
py::array_t<double> seed_array(std::vector<double>&& values, const ftle::SeedGrid& seeds, std::size_t per_seed) {
  std::vector<py::ssize_t> shape;
  if (seeds.dimension == 3) shape.push_back(static_cast<py::ssize_t>(seeds.counts[2]));
  shape.push_back(static_cast<py::ssize_t>(seeds.counts[1]));
  shape.push_back(static_cast<py::ssize_t>(seeds.counts[0]));
  if (per_seed > 1) shape.push_back(static_cast<py::ssize_t>(per_seed));
  return moved_array(std::move(values), shape);
}

}  // namespace

void bind_ftle(py::module_& m) {
  m.def(
      "_ftle",
      [](const std::string& case_text, const std::string& device, bool want_flow_map, const py::object& progress,
         const std::optional<Velocity>& velocity, const std::vector<double>& grid_origin,
         const std::vector<double>& spacing, const std::vector<double>& times) {
        const casefile::Case c = casefile::parse_case(case_text, app::case_registry(), {}, "<hetflow.ftle>");
        const auto given = velocity ? velocity_grid(*velocity, grid_origin, spacing, times) : nullptr;
        std::vector<std::string> problems;
        app::check_ftle_case(c, problems, given);
        app::throw_problems(c, std::move(problems));
        const app::FtleSetup setup = app::make_ftle_setup(c, given);
        if (setup.sequence.fields > 1)
          throw casefile::CaseError("hetflow.ftle computes one field: run a sequence with hetflow.run");
        const ftle::Config& config = setup.config;
        std::vector<double> field, flow_map;
        long done = 0;
        CallProgress shown(progress, config.steps, "ftle", "steps");
        guarded([&] {
          const core::DeviceSet devices = core::DeviceSet::select(device);
          std::optional<ftle::Solver> solver;
          if (const auto* analytic = std::get_if<ftle::AnalyticFlow>(&setup.flow))
            solver.emplace(devices, *analytic, setup.seeds, config);
          else
            solver.emplace(devices, *std::get<std::shared_ptr<const ftle::VelocityGrid>>(setup.flow), setup.seeds,
                           config);
          // Chunks of a 32nd, so that a Ctrl-C stops the integration soon; at least one step, which an
          // FTLE needs.
          const long chunk = std::max(1L, config.steps / 32);
          while (done < config.steps && (done == 0 || (shown.update(done) && !io::interrupted()))) {
            const long n = std::min(chunk, config.steps - done);
            solver->advance(n);
            solver->finish();
            done += n;
          }
          field = solver->ftle();
          if (want_flow_map) flow_map = solver->flow_map();
        });
        shown.finish(done);
        const app::NanSeeds nan = app::nan_seeds(setup);
        if (!nan.mask.empty()) ftle::mask_seeds(nan.mask, field);
        const auto dim = static_cast<std::size_t>(setup.seeds.dimension);
        py::dict out;
        out["ftle"] = seed_array(std::move(field), setup.seeds, 1);
        if (want_flow_map) out["flow_map"] = seed_array(std::move(flow_map), setup.seeds, dim);
        py::list axes;
        for (std::size_t a = 0; a < dim; ++a) {
          py::array_t<double> x(static_cast<py::ssize_t>(setup.seeds.counts[a]));
          for (std::size_t i = 0; i < setup.seeds.counts[a]; ++i)
            x.mutable_data()[i] = setup.seeds.position(static_cast<int>(a), i);
          axes.append(x);
        }
        out["axes"] = axes;
        out["dt"] = config.duration / static_cast<double>(config.steps);
        out["steps"] = done;  // all configured steps unless interrupted
        out["interrupted"] = take_interrupt();
        out["info"] = py::str(setup.info.dump());
        return out;
      },
      py::arg("case_text"), py::arg("device"), py::arg("flow_map"), py::arg("progress"),
      py::arg("velocity").noconvert() = std::nullopt, py::arg("grid_origin") = std::vector<double>{},
      py::arg("spacing") = std::vector<double>{}, py::arg("times") = std::vector<double>{},
      "One FTLE field of a `type: ftle` case given as text; use hetflow.ftle.");
}

}  // namespace hetflow::python
