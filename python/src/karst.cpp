// hetflow._karst_outlets and hetflow._karst_inversion: batched forward runs of the karst-conduit model and
// the inversion of (Pe, St, Theta), as `type: karst` and `type: karst_inversion` run them, for
// hetflow.karst_outlets and hetflow.karst_inversion (python/hetflow/karst.py).
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <cstring>
#include <optional>
#include <utility>

#include "calls.hpp"
#include "hetflow/app/karst/karst_batches.hpp"
#include "hetflow/app/karst/karst_case_setup.hpp"
#include "hetflow/app/karst/karst_inversion_setup.hpp"
#include "hetflow/app/karst/karst_tunable.hpp"
#include "hetflow/casefile/case.hpp"
#include "hetflow/core/device_set.hpp"
#include "hetflow/core/error.hpp"
#include "hetflow/core/event.hpp"
#include "hetflow/karst/inversion.hpp"
#include "progress.hpp"

namespace hetflow::python {

namespace py = pybind11;

void bind_karst(py::module_& m) {
  m.def(
      "_karst_outlets",
      [](const std::vector<double>& inlet_t, const std::vector<double>& inlet_value,
         const std::vector<double>& velocity_t, const std::vector<double>& velocity_value,
         const std::vector<double>& times, const std::vector<std::array<double, 5>>& groups, const std::string& model,
         const std::string& case_text, const std::string& device, const py::object& progress) {
        // The grid keys go through the karst case's own declarations: the same defaults and errors.
        casefile::Schema schema("karst_outlets", "hetflow.karst_outlets's keyword arguments");
        app::declare_grid_keys(schema);
        const casefile::Case c = casefile::parse_case(case_text, schema, {}, "<hetflow.karst_outlets>");
        const karst::Series inlet{inlet_t, inlet_value}, velocity{velocity_t, velocity_value};
        karst::Grid grid = app::case_grid(c);
        grid.model = model == "solute" ? karst::Model::solute : karst::Model::heat;
        grid.times = times;
        std::vector<karst::KarstParameters> sets;
        for (const auto& g : groups) sets.push_back({g[0], g[1], g[2], g[3], g[4]});
        try {
          karst::step_forcing(inlet, velocity, grid);
          karst::check_parameters(sets, grid.model);
        } catch (const core::Error& e) {
          throw ArgumentError(e.what());
        }
        CallProgress shown(progress, static_cast<std::int64_t>(sets.size()), "karst", "runs");
        const std::vector<karst::Series> outlets = guarded([&] {
          const core::DeviceSet devices = core::DeviceSet::select(device);
          nlohmann::json tuning;
          karst::KarstDevice solver(devices, 0, app::karst_tuned_work_group(devices, tuning));
          return app::run_karst_batches(solver, inlet, velocity, sets, grid, [&](std::size_t done, std::size_t) {
            return shown.update(static_cast<std::int64_t>(done)) && !io::interrupted();
          });
        });
        shown.finish(static_cast<std::int64_t>(outlets.size()));
        py::array_t<double> out({outlets.size(), times.size()});
        for (std::size_t p = 0; p < outlets.size(); ++p)
          std::memcpy(out.mutable_data() + p * times.size(), outlets[p].value.data(), times.size() * sizeof(double));
        return py::make_tuple(out, take_interrupt());
      },
      py::arg("inlet_t"), py::arg("inlet_value"), py::arg("velocity_t"), py::arg("velocity_value"), py::arg("times"),
      py::arg("groups"), py::arg("model"), py::arg("case_text"), py::arg("device"), py::arg("progress"),
      "Outlet series of parameter sets; use hetflow.karst_outlets.");

  m.def(
      "_karst_inversion",
      [](const std::vector<double>& inlet_t, const std::vector<double>& inlet_value,
         const std::vector<double>& velocity_t, const std::vector<double>& velocity_value,
         const std::vector<double>& observed_t, const std::vector<double>& observed_value, std::size_t substeps,
         const std::string& case_text, const std::string& device, const py::object& progress) {
        // The grid and inversion keys go through the karst_inversion case's own declarations and checks.
        casefile::Schema schema("karst_inversion", "hetflow.karst_inversion's keyword arguments");
        app::declare_grid_keys(schema);
        app::declare_inversion_keys(schema);
        const casefile::Case c = casefile::parse_case(case_text, schema, {}, "<hetflow.karst_inversion>");
        std::vector<std::string> problems;
        app::check_inversion_keys(c, problems);
        if (!problems.empty()) throw ArgumentError(problems.front());
        const karst::MisfitProblem problem{{inlet_t, inlet_value},       {velocity_t, velocity_value},
                                           {observed_t, observed_value}, app::case_grid(c),
                                           substeps,                     c.get<double>("inversion.psi")};
        karst::InversionOptions options = app::inversion_options(c, nullptr);
        CallProgress shown(progress, static_cast<std::int64_t>(options.run.max_evaluations), "karst inversion",
                           "evaluations");
        options.run.keep_going = [&](std::size_t evaluations) {
          return shown.update(static_cast<std::int64_t>(evaluations));
        };
        const auto [summary, fit] = guarded([&] {
          const core::DeviceSet devices = core::DeviceSet::select(device);
          nlohmann::json tuning;
          karst::KarstDevice solver(devices, 0, app::karst_tuned_work_group(devices, tuning));
          std::optional<karst::KarstMisfit> misfit;
          try {
            misfit.emplace(solver, problem, app::inversion_box(c));
          } catch (const core::Error& e) {
            throw ArgumentError(e.what());
          }
          const core::WallTimer timer;
          const karst::InversionResult r = karst::invert(*misfit, options);
          return std::pair{app::inversion_summary(c, r, timer.seconds()), r.fit};
        });
        shown.finish(static_cast<std::int64_t>(summary.at("evaluations").get<std::size_t>()));
        return py::make_tuple(summary.dump(), fit.t, fit.value, take_interrupt());
      },
      py::arg("inlet_t"), py::arg("inlet_value"), py::arg("velocity_t"), py::arg("velocity_value"),
      py::arg("observed_t"), py::arg("observed_value"), py::arg("substeps"), py::arg("case_text"), py::arg("device"),
      py::arg("progress"), "(Pe, St, Theta) from an observed outlet; use hetflow.karst_inversion.");
}

}  // namespace hetflow::python
