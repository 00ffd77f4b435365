// hetflow._radau5: a batch of user ODE systems (rhs, optionally jac, in OpenCL C) integrated by RADAU5,
// for hetflow.radau5 (python/hetflow/ode.py).
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <span>

#include "arrays.hpp"
#include "calls.hpp"
#include "hetflow/core/device_set.hpp"
#include "hetflow/core/error.hpp"
#include "hetflow/ode/radau5.hpp"
#include "hetflow/ode/statistics.hpp"
#include "progress.hpp"

namespace hetflow::python {

namespace py = pybind11;
using CArray = py::array_t<double, py::array::c_style>;

namespace {

std::vector<double> values(const CArray& a) { return {a.data(), a.data() + a.size()}; }

// The array read where it lies.
std::span<const double> in_place(const CArray& a) { return {a.data(), static_cast<std::size_t>(a.size())}; }

}  // namespace

void bind_ode(py::module_& m) {
  m.def(
      "_radau5",
      [](const std::string& source, int n, std::size_t parameters, bool has_jac, const CArray& y0, const CArray& params,
         const CArray& t0, const CArray& t_end, const CArray& samples, const CArray& rtol, const CArray& atol,
         const py::dict& settings, const std::string& device, const py::object& progress) {
        ode::System system{n, source, has_jac, parameters};
        ode::Options o;
        o.rtol = values(rtol);
        o.atol = values(atol);
        o.h0 = settings["h0"].cast<double>();
        o.h_max = settings["h_max"].cast<double>();
        o.nmax = settings["max_steps"].cast<long>();
        o.nit = settings["nit"].cast<int>();
        o.thet = settings["thet"].cast<double>();
        o.fnewt = settings["fnewt"].cast<double>();
        o.quot1 = settings["quot1"].cast<double>();
        o.quot2 = settings["quot2"].cast<double>();
        o.safe = settings["safe"].cast<double>();
        const auto jacobian = settings["jacobian"].cast<std::string>();
        const auto mapping = settings["mapping"].cast<std::string>();
        const std::optional<ode::Jacobian> j = ode::jacobian_named(jacobian);
        const std::optional<ode::Mapping> mp = ode::mapping_named(mapping);
        if (!j) throw ArgumentError("jacobian = '" + jacobian + "': expected analytic, finite_difference or automatic");
        if (!mp)
          throw ArgumentError("mapping = '" + mapping + "': expected work_item, work_group, phased or automatic");
        o.jacobian = *j;
        o.mapping = *mp;
        try {
          ode::validate(o, n);
        } catch (const core::Error& e) {
          throw ArgumentError(e.what());
        }
        ode::BatchView batch;
        batch.y0 = in_place(y0);
        batch.params = in_place(params);
        batch.t0 = in_place(t0);
        batch.t_end = in_place(t_end);
        batch.samples = in_place(samples);
        const std::size_t systems = static_cast<std::size_t>(y0.shape(0));
        // Chunks of a 32nd of the batch, so that a Ctrl-C stops it after the chunk in flight.
        o.chunk_systems = std::max<std::size_t>(1, systems / 32);
        CallProgress shown(progress, static_cast<std::int64_t>(systems), "radau5", "systems");
        ode::Result r = guarded([&] {
          const core::DeviceSet devices = core::DeviceSet::select(device);
          const ode::Radau5 solver(devices, system, o);
          return solver.integrate(batch, [&](std::size_t done, std::size_t) {
            return shown.update(static_cast<std::int64_t>(done)) && !io::interrupted();
          });
        });
        shown.finish(static_cast<std::int64_t>(r.started()));
        const auto count = [](std::size_t c) { return static_cast<py::ssize_t>(c); };
        const py::array_t<double> y = moved_array(std::move(r.y), {count(systems), count(n)});
        r.samples.resize(systems * r.sample_count * n);  // empty without samples
        const py::array_t<double> sampled =
            moved_array(std::move(r.samples), {count(systems), count(r.sample_count), count(n)});
        py::dict counters;
        const auto column = [&](auto member) {
          py::array_t<long> c(systems);
          for (std::size_t i = 0; i < systems; ++i) c.mutable_data()[i] = static_cast<long>(r.statistics[i].*member);
          return c;
        };
        counters["idid"] = column(&ode::Statistics::status);
        counters["nfcn"] = column(&ode::Statistics::nfcn);
        counters["njac"] = column(&ode::Statistics::njac);
        counters["nstep"] = column(&ode::Statistics::nstep);
        counters["naccpt"] = column(&ode::Statistics::naccpt);
        counters["nrejct"] = column(&ode::Statistics::nrejct);
        counters["ndec"] = column(&ode::Statistics::ndec);
        counters["nsol"] = column(&ode::Statistics::nsol);
        std::vector<std::string> reasons;
        for (const ode::Statistics& st : r.statistics) reasons.push_back(st.ok() ? "" : ode::describe(st, r.nmax));
        return py::make_tuple(y, sampled, counters, reasons, take_interrupt());
      },
      py::arg("source"), py::arg("n"), py::arg("parameters"), py::arg("has_jac"), py::arg("y0"), py::arg("params"),
      py::arg("t0"), py::arg("t_end"), py::arg("samples"), py::arg("rtol"), py::arg("atol"), py::arg("settings"),
      py::arg("device"), py::arg("progress"), "Integrates a batch of ODE systems; use hetflow.radau5.");
}

}  // namespace hetflow::python
