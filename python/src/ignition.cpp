// hetflow._ignition_delays: ignition delays of reactor states, found as `type: ignition` finds them, for
// hetflow.ignition_delays (python/hetflow/chem.py).
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <cstring>
#include <memory>

#include "calls.hpp"
#include "hetflow/app/case_type.hpp"
#include "hetflow/app/chem/chem_case_setup.hpp"
#include "hetflow/app/chem/ignition_keys.hpp"
#include "hetflow/casefile/case.hpp"
#include "hetflow/chem/reactor_source.hpp"
#include "hetflow/core/device_set.hpp"
#include "progress.hpp"
#include "reactor_states.hpp"

namespace hetflow::python {

namespace py = pybind11;

void bind_ignition(py::module_& m) {
  m.def(
      "_ignition_delays",
      [](std::shared_ptr<const chem::Mechanism> mech, const CArray& Y, const CArray& T, const CArray& pressures,
         const std::string& case_text, const std::string& device, const py::object& progress) {
        // The keys go through the ignition case's own declarations, so defaults and errors are a case file's.
        casefile::Schema schema("ignition_delays", "hetflow.ignition_delays's keyword arguments");
        app::declare_solver_keys(schema);
        app::declare_ignition_keys(schema.section("ignition", "how the ignition is found"));
        const casefile::Case c = casefile::parse_case(case_text, schema, {}, "<hetflow.ignition_delays>");
        std::vector<std::string> problems;
        app::check_ignition_keys(c, problems);
        app::throw_problems(c, std::move(problems));
        const chem::ReactorKind kind = app::case_reactor(c, "ignition.reactor");
        const std::size_t n = mech->species.size() + 1, systems = static_cast<std::size_t>(pressures.shape(0));
        const std::vector<double> y0 = reactor_states(Y, T);
        std::vector<std::vector<double>> states;
        std::vector<double> params;
        for (std::size_t i = 0; i < systems; ++i) {
          states.emplace_back(y0.data() + i * n, y0.data() + (i + 1) * n);
          params.push_back(app::reactor_parameter(*mech, kind, states.back(), pressures.data()[i]));
        }
        CallProgress shown(progress, 0, "ignition", "launches");
        const app::IgnitionSweep sweep = guarded([&] {
          const core::DeviceSet devices = core::DeviceSet::select(device);
          const ode::Radau5 solver(devices, chem::reactor_system(*mech, app::case_jacobian(c), kind),
                                   app::case_solver_options(c));
          solver.prepare(systems);
          return app::find_ignition(solver, *mech, kind, states, params, app::ignition_settings(c),
                                    [&](long done, long planned) {
                                      shown.set_total(planned);
                                      return shown.update(done) && !io::interrupted();
                                    });
        });
        if (!sweep.stopped) shown.set_total(sweep.launches);  // the plan counted refinements a search may not need
        shown.finish(sweep.launches);
        py::array_t<double> delay(systems), final_t(systems);
        CArray temperature({systems, sweep.times.size()});
        std::vector<std::string> status, reasons;
        for (std::size_t i = 0; i < systems; ++i) {
          const app::IgnitionRun& r = sweep.runs[i];
          delay.mutable_data()[i] = r.delay;
          final_t.mutable_data()[i] = r.final_temperature;
          std::memcpy(temperature.mutable_data() + i * sweep.times.size(), r.temperature.data(),
                      sweep.times.size() * sizeof(double));
          status.push_back(r.status);
          reasons.push_back(r.reason);
        }
        return py::make_tuple(delay, status, final_t, reasons, py::array(py::cast(sweep.times)), temperature,
                              sweep.launches, take_interrupt() || sweep.stopped);
      },
      py::arg("mechanism"), py::arg("Y"), py::arg("T"), py::arg("pressures"), py::arg("case_text"), py::arg("device"),
      py::arg("progress"), "Finds ignition delays; use hetflow.ignition_delays.");
}

}  // namespace hetflow::python
