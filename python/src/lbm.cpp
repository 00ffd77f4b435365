// hetflow._Lbm: a lattice-Boltzmann flow (one phase, Shan-Chen or two components) through a voxel mask the
// caller gives, stepped on demand, for hetflow.Lbm (python/hetflow/lbm.py).
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <cstring>
#include <memory>
#include <optional>

#include "arrays.hpp"
#include "calls.hpp"
#include "hetflow/app/case_type.hpp"
#include "hetflow/app/lbm/lbm_case.hpp"
#include "hetflow/app/lbm/lbm_case_multiphase.hpp"
#include "hetflow/app/lbm/lbm_case_outputs.hpp"
#include "hetflow/casefile/case.hpp"
#include "hetflow/core/device_set.hpp"
#include "hetflow/lbm/references.hpp"
#include "progress.hpp"

namespace hetflow::python {

namespace py = pybind11;

namespace {

using Mask = py::array_t<std::uint8_t, py::array::c_style>;
using CArray = py::array_t<double, py::array::c_style>;

// The devices, the mask and the solver, which keeps references to the first two.
struct LbmFlow {
  std::optional<core::DeviceSet> devices;
  lbm::Geometry geometry;
  std::unique_ptr<lbm::Solver> solver;
  std::array<double, 3> drive{};
  std::optional<int> axis;
  int components = 1;

  // The fields, checked: a non-finite value raises naming the step and the cell.
  std::pair<lbm::Fields, app::LbmDiagnostics> read() const {
    lbm::Fields f = guarded([&] { return solver->fields(); });
    const app::LbmDiagnostics d = app::diagnose(f, solver->step());
    return {std::move(f), d};
  }
};

// mask (nz, ny, nx): the node codes (0 fluid, 1 wall).
lbm::Geometry geometry_of(const Mask& mask) {
  lbm::Geometry g(static_cast<std::size_t>(mask.shape(2)), static_cast<std::size_t>(mask.shape(1)),
                  static_cast<std::size_t>(mask.shape(0)));
  std::memcpy(g.codes().data(), mask.data(), g.size());
  if (!g.any_fluid()) throw ArgumentError("mask: every node is a wall; the flow needs fluid nodes");
  return g;
}

py::array_t<double> node_array(std::vector<double>&& values, const std::array<int, 3>& dims, int per_node) {
  std::vector<py::ssize_t> shape{dims[2], dims[1], dims[0]};
  if (per_node > 1) shape.push_back(per_node);
  return moved_array(std::move(values), shape);
}

}  // namespace

void bind_lbm(py::module_& m) {
  py::class_<LbmFlow>(m, "_Lbm")
      .def(py::init([](const Mask& mask, const std::string& case_text, const std::string& device) {
             // The `lbm:` keys go through the case's own declarations: the same defaults and errors.
             const casefile::Case c = casefile::parse_case(case_text, app::case_registry(), {}, "<hetflow.Lbm>");
             std::vector<std::string> problems;
             app::check_multiphase(c, problems);
             if (!problems.empty()) throw ArgumentError(problems.front());
             auto flow = std::make_unique<LbmFlow>();
             flow->geometry = geometry_of(mask);
             const lbm::Config config = app::lbm_solver_config(c);
             flow->components = config.two_component ? 2 : 1;
             guarded([&] {
               flow->devices.emplace(core::DeviceSet::select(device));
               flow->solver = std::make_unique<lbm::Solver>(*flow->devices, flow->geometry, config);
               // The case's `initial:` densities (uniform density 1 at rest unless given).
               app::initialise_multiphase(c, flow->geometry, *flow->solver);
             });
             flow->drive = app::driving_force(config, flow->solver->dims());
             flow->axis = app::flow_axis(flow->drive);
             return flow;
           }),
           py::arg("mask"), py::arg("case_text"), py::arg("device"))
      .def(
          "initialise",
          [](LbmFlow& f, const CArray& rho, const CArray& u) {
            const std::size_t n = f.geometry.size();
            std::vector<std::array<double, 3>> velocity(n);
            std::memcpy(velocity.data(), u.data(), n * 3 * sizeof(double));
            guarded([&] { f.solver->initialise(std::span<const double>(rho.data(), n), velocity); });
          },
          py::arg("rho"), py::arg("u"))
      .def(
          "initialise_components",
          [](LbmFlow& f, const CArray& rho_a, const CArray& rho_b, const std::array<double, 3>& u) {
            const std::size_t n = f.geometry.size();
            guarded([&] {
              f.solver->initialise(std::span<const double>(rho_a.data(), n), std::span<const double>(rho_b.data(), n),
                                   u);
            });
          },
          py::arg("rho_a"), py::arg("rho_b"), py::arg("u"))
      .def(
          "advance",
          [](LbmFlow& f, long steps, const py::object& progress) {
            CallProgress shown(progress, steps, "lbm", "steps");
            const long chunk = std::max(1L, steps / 32);
            long done = 0;
            guarded([&] {
              while (done < steps && (done == 0 || (shown.update(done) && !io::interrupted()))) {
                const long n = std::min(chunk, steps - done);
                f.solver->advance(n);
                f.solver->finish();
                done += n;
              }
            });
            shown.finish(done);
            return py::make_tuple(done, take_interrupt());
          },
          py::arg("steps"), py::arg("progress"))
      .def("fields",
           [](const LbmFlow& f) {
             auto [fields, d] = f.read();
             py::object a = py::none(), b = py::none();
             if (!fields.rho_a.empty()) {
               a = node_array(std::move(fields.rho_a), fields.dims, 1);
               b = node_array(std::move(fields.rho_b), fields.dims, 1);
             }
             return py::make_tuple(node_array(std::move(fields.rho), fields.dims, 1),
                                   node_array(std::move(fields.u), fields.dims, 3), a, b);
           })
      .def("diagnostics",
           [](const LbmFlow& f) {
             const auto [fields, d] = f.read();
             py::dict out;
             out["mass"] = d.mass;
             out["max_u"] = d.max_speed;
             out["max_cell"] = d.max_cell;
             out["mean_u"] = d.mean_u;
             out["density_range"] = d.rho_range;
             out["component_a_range"] = f.components == 2 ? py::cast(d.rho_a_range) : py::none();
             const double nu = f.solver->viscosity();
             out["permeability"] =
                 f.axis ? py::cast(lbm::darcy_permeability(d.mean_u[static_cast<std::size_t>(*f.axis)], nu,
                                                           f.drive[static_cast<std::size_t>(*f.axis)]))
                        : py::none();
             return out;
           })
      .def_property_readonly("step", [](const LbmFlow& f) { return f.solver->step(); })
      .def_property_readonly("viscosity", [](const LbmFlow& f) { return f.solver->viscosity(); })
      .def_property_readonly("components", [](const LbmFlow& f) { return f.components; })
      .def_property_readonly("porosity", [](const LbmFlow& f) { return f.geometry.porosity(); });
}

}  // namespace hetflow::python
