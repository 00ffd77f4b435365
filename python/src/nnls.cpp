// hetflow._nnls: `hetflow nnls` on arrays, for hetflow.nnls (python/hetflow/nnls.py).
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <utility>
#include <vector>

#include "arrays.hpp"
#include "calls.hpp"
#include "hetflow/app/nnls/nnls_command.hpp"
#include "progress.hpp"

namespace hetflow::python {

namespace py = pybind11;
using FortranArray = py::array_t<double, py::array::f_style>;

namespace {

// The solvers' read-only view of a 2-D Fortran-ordered array: read where it lies, not copied.
nnls::MatrixView view(const FortranArray& a) {
  return {static_cast<std::size_t>(a.shape(0)), static_cast<std::size_t>(a.shape(1)), a.data()};
}

}  // namespace

void bind_nnls(py::module_& m) {
  m.def(
      "_nnls",
      [](const FortranArray& A, const FortranArray& B, bool vector, const app::NnlsRequest& request,
         const py::object& progress) {
        // TNT's outer iterations, counted over the right-hand sides (each solve counts from 0 again); the
        // host methods report nothing.
        CallProgress shown(request.method == "tnt" ? progress : py::bool_(false), 0, "nnls", "outer iterations");
        // TNT asks before each outer iteration with the iterations done; a count lower than the last starts
        // the next right-hand side, whose predecessor then did one more than it last said.
        std::int64_t earlier = 0, last = 0;
        app::NnlsRequest r = request;
        r.keep_going = [&](int iterations) {
          if (iterations < last) earlier += last + 1;
          last = iterations;
          return shown.update(earlier + last);
        };
        app::NnlsOutcome o = guarded([&] { return app::solve_nnls(r, view(A), view(B), vector); });
        std::int64_t iterations = 0;
        for (const auto& e : o.report["rhs"]) iterations += e["iterations"].get<std::int64_t>();
        shown.finish(iterations);
        const std::vector<py::ssize_t> shape(o.x.shape.begin(), o.x.shape.end());
        py::array_t<double> x = moved_array(std::move(o.x.values), shape, Order::fortran);
        return py::make_tuple(x, o.report.dump(), take_interrupt());
      },
      // noconvert: an array in another layout or dtype is refused, never copied here behind the caller's back.
      py::arg("A").noconvert(), py::arg("B").noconvert(), py::arg("vector"), py::arg("request"), py::arg("progress"),
      "Solves as `hetflow nnls` does, reading A and B in place; returns (x, report as JSON text). Use hetflow.nnls.");

  py::class_<app::NnlsRequest>(m, "_NnlsRequest")
      .def(py::init<>())
      .def_readwrite("method", &app::NnlsRequest::method)
      .def_readwrite("device", &app::NnlsRequest::device)
      .def_readwrite("fp32", &app::NnlsRequest::fp32)
      .def_readwrite("reduction", &app::NnlsRequest::reduction)
      .def_readwrite("expansion", &app::NnlsRequest::expansion)
      .def_readwrite("early_reach", &app::NnlsRequest::early_reach)
      .def_readwrite("problem_class", &app::NnlsRequest::problem_class)
      .def_readwrite("tolerance", &app::NnlsRequest::tolerance)
      .def_readwrite("max_iterations", &app::NnlsRequest::max_iterations)
      .def_readwrite("no_tune", &app::NnlsRequest::no_tune);
}

}  // namespace hetflow::python
