// hetflow._nnls: `hetflow nnls` on arrays, for hetflow.nnls (python/hetflow/nnls.py).
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <cstring>

#include "calls.hpp"
#include "hetflow/app/nnls/nnls_command.hpp"

namespace hetflow::python {

namespace py = pybind11;
using FortranArray = py::array_t<double, py::array::f_style>;

namespace {

// The column-major matrix the solvers take, from a 2-D Fortran-ordered array (one copy).
nnls::Matrix matrix(const FortranArray& a) {
  nnls::Matrix m(static_cast<std::size_t>(a.shape(0)), static_cast<std::size_t>(a.shape(1)));
  if (!m.data.empty()) std::memcpy(m.data.data(), a.data(), m.data.size() * sizeof(double));
  return m;
}

}  // namespace

void bind_nnls(py::module_& m) {
  m.def(
      "_nnls",
      [](const FortranArray& A, const FortranArray& B, bool vector, const app::NnlsRequest& request) {
        const app::NnlsRhs rhs{matrix(B), vector};
        const nnls::Matrix a = matrix(A);
        const app::NnlsOutcome o = guarded([&] { return app::solve_nnls(request, a, rhs); });
        FortranArray x(o.x.shape);
        std::memcpy(x.mutable_data(), o.x.values.data(), o.x.values.size() * sizeof(double));
        return py::make_tuple(x, o.report.dump(), take_interrupt());
      },
      py::arg("A"), py::arg("B"), py::arg("vector"), py::arg("request"),
      "Solves as `hetflow nnls` does; returns (x, report as JSON text). Use hetflow.nnls.");

  py::class_<app::NnlsRequest>(m, "_NnlsRequest")
      .def(py::init<>())
      .def_readwrite("method", &app::NnlsRequest::method)
      .def_readwrite("device", &app::NnlsRequest::device)
      .def_readwrite("fp32", &app::NnlsRequest::fp32)
      .def_readwrite("reduction", &app::NnlsRequest::reduction)
      .def_readwrite("expansion", &app::NnlsRequest::expansion)
      .def_readwrite("problem_class", &app::NnlsRequest::problem_class)
      .def_readwrite("tolerance", &app::NnlsRequest::tolerance)
      .def_readwrite("max_iterations", &app::NnlsRequest::max_iterations)
      .def_readwrite("no_tune", &app::NnlsRequest::no_tune);
}

}  // namespace hetflow::python
