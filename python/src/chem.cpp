// hetflow.Mechanism and hetflow._reactor_batch: a batch of adiabatic reactors integrated by RADAU5 on a
// device, for hetflow.reactor_batch (python/hetflow/chem.py).
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <memory>
#include <optional>

#include "arrays.hpp"
#include "calls.hpp"
#include "hetflow/app/chem/chem_case_setup.hpp"
#include "hetflow/app/chem/reactor_batch_case.hpp"
#include "hetflow/casefile/case.hpp"
#include "hetflow/chem/mechanism_file.hpp"
#include "hetflow/chem/reactor_source.hpp"
#include "hetflow/core/device_set.hpp"
#include "hetflow/core/event.hpp"
#include "hetflow/ode/radau5.hpp"
#include "hetflow/ode/statistics.hpp"
#include "progress.hpp"
#include "reactor_states.hpp"

namespace hetflow::python {

namespace py = pybind11;

void bind_chem(py::module_& m) {
  py::class_<chem::Mechanism, std::shared_ptr<chem::Mechanism>>(m, "Mechanism", R"(A reaction mechanism.

Mechanism(file, thermo="", phase=""): Cantera YAML (.yaml, .yml; `phase` picks one of its phases) or
Chemkin (`thermo` its thermo file unless the mechanism holds THERMO). Malformed files raise
hetflow.InputError naming the file and line.)")
      .def(py::init([](const std::string& file, const std::string& thermo, const std::string& phase) {
             return std::make_shared<chem::Mechanism>(chem::read_mechanism(file, thermo, phase));
           }),
           py::arg("file"), py::arg("thermo") = "", py::arg("phase") = "")
      .def_property_readonly(
          "species",
          [](const chem::Mechanism& mech) {
            std::vector<std::string> names;
            for (const auto& s : mech.species) names.push_back(s.name);
            return names;
          },
          "The species' names, in the mechanism's order (the columns of mass-fraction arrays).")
      .def_property_readonly(
          "molecular_weights",
          [](const chem::Mechanism& mech) { return py::array(py::cast(mech.molecular_weights())); },
          "The species' molecular weights [kg/mol] (Cantera's are in kg/kmol: 1000 times these).")
      .def_property_readonly(
          "reactions", [](const chem::Mechanism& mech) { return mech.reactions.size(); }, "The number of reactions.")
      .def("species_index", &chem::Mechanism::species_index, py::arg("name"),
           "The species' column, -1 when the mechanism lacks it.")
      .def("__repr__", [](const chem::Mechanism& mech) {
        return "<hetflow.Mechanism: " + std::to_string(mech.species.size()) + " species, " +
               std::to_string(mech.reactions.size()) + " reactions>";
      });

  m.def(
      "_reactor_batch",
      [](std::shared_ptr<const chem::Mechanism> mech, const CArray& Y, const CArray& T, const CArray& pressures,
         double dt, const std::string& case_text, const std::string& device, const py::object& progress) {
        const core::WallTimer setup_timer;  // the set-up counts from here: building the batch is set-up too
        // The solver keys go through reactor_batch's own declarations, so defaults and errors are a case file's.
        casefile::Schema schema("reactor_batch", "hetflow.reactor_batch's keyword arguments");
        app::declare_solver_keys(schema);
        app::declare_reactor_key(schema.section("batch", "the reactor"));
        const casefile::Case c = casefile::parse_case(case_text, schema, {}, "<hetflow.reactor_batch>");
        const chem::ReactorKind kind = app::case_reactor(c, "batch.reactor");
        const std::size_t n = mech->species.size() + 1, systems = static_cast<std::size_t>(pressures.shape(0));
        ode::Batch batch;
        batch.y0 = reactor_states(Y, T);
        for (std::size_t i = 0; i < systems; ++i)
          batch.params.push_back(app::reactor_parameter(
              *mech, kind, std::span<const double>(batch.y0).subspan(i * n, n), pressures.data()[i]));
        batch.t_end = {dt};
        double seconds = 0, setup_seconds = 0, release_seconds = 0;
        CallProgress shown(progress, static_cast<std::int64_t>(systems), "reactor_batch", "systems");
        ode::Result result = guarded([&] {
          std::optional<core::WallTimer> release;
          ode::Result r;
          {
            const core::DeviceSet devices = core::DeviceSet::select(device);
            const ode::System system = chem::reactor_system(*mech, app::case_jacobian(c), kind);
            ode::Options options = app::case_solver_options(c);
            // The CLI's chunks, so that a Ctrl-C stops the batch as soon.
            options.chunk_systems = app::progress_chunk_systems(devices, system, systems);
            const ode::Radau5 solver(devices, system, options);
            solver.prepare(systems);
            setup_seconds = setup_timer.seconds();
            // Timed as a reactor_batch case times it (integration_seconds): the integration alone.
            const core::WallTimer timer;
            r = solver.integrate(batch, [&](std::size_t done, std::size_t) {
              return shown.update(static_cast<std::int64_t>(done)) && !io::interrupted();
            });
            seconds = timer.seconds();
            release.emplace();
          }  // the solver's buffers and the devices' context are released here
          release_seconds = release->seconds();
          return r;
        });
        shown.finish(static_cast<std::int64_t>(result.started()));
        const py::array_t<double> y =
            moved_array(std::move(result.y), {static_cast<py::ssize_t>(systems), static_cast<py::ssize_t>(n)});
        py::array_t<int> status(systems);
        py::array_t<long> steps(systems);
        py::dict failures;  // the failed systems' reasons by index: most systems have none
        for (std::size_t i = 0; i < systems; ++i) {
          const ode::Statistics& st = result.statistics[i];
          status.mutable_data()[i] = static_cast<int>(st.status);
          steps.mutable_data()[i] = st.nstep;
          if (!st.ok()) failures[py::int_(i)] = ode::describe(st, result.nmax);
        }
        return py::make_tuple(y, status, steps, failures, seconds, setup_seconds, release_seconds, take_interrupt());
      },
      py::arg("mechanism"), py::arg("Y"), py::arg("T"), py::arg("pressures"), py::arg("dt"), py::arg("case_text"),
      py::arg("device"), py::arg("progress"), "Integrates reactor states; use hetflow.reactor_batch.");
}

}  // namespace hetflow::python
