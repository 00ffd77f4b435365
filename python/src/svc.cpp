// hetflow.svc: test matrices with prescribed singular values (SVC, nnls/svc.hpp), on the host or a device.
#include "hetflow/nnls/svc.hpp"

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <optional>

#include "arrays.hpp"
#include "calls.hpp"
#include "hetflow/core/device_set.hpp"
#include "hetflow/core/error.hpp"
#include "hetflow/nnls/svc_device.hpp"

namespace hetflow::python {

namespace py = pybind11;

namespace {

nnls::SvcMode mode_named(const std::string& name) {
  for (const nnls::SvcMode m : {nnls::SvcMode::one_large, nnls::SvcMode::one_small, nnls::SvcMode::geometric,
                                nnls::SvcMode::arithmetic, nnls::SvcMode::random, nnls::SvcMode::user})
    if (name == nnls::to_string(m)) return m;
  throw ArgumentError("mode = '" + name + "': expected one_large, one_small, geometric, arithmetic, random or user");
}

// A checked spec: ArgumentError (hetflow.InputError) naming the field.
nnls::SvcSpec spec_of(std::size_t rows, std::size_t cols, double kappa, const std::string& mode, std::uint64_t seed,
                      std::vector<double> singular_values) {
  nnls::SvcSpec spec{rows, cols, kappa, mode_named(mode), seed, std::move(singular_values)};
  try {
    nnls::validate(spec);
  } catch (const core::Error& e) {
    throw ArgumentError(e.what());
  }
  return spec;
}

}  // namespace

void bind_svc(py::module_& m) {
  m.def(
      "svc",
      [](std::size_t rows, std::size_t cols, double kappa, const std::string& mode, std::uint64_t seed,
         std::vector<double> singular_values, std::optional<std::string> device) {
        const nnls::SvcSpec spec = spec_of(rows, cols, kappa, mode, seed, std::move(singular_values));
        nnls::Matrix a = guarded([&] {
          if (!device) return nnls::svc_host(spec);
          return nnls::svc_device(core::DeviceSet::select(*device), spec);
        });
        return moved_array(std::move(a.data), {static_cast<py::ssize_t>(rows), static_cast<py::ssize_t>(cols)},
                           Order::fortran);
      },
      py::arg("rows"), py::arg("cols"), py::kw_only(), py::arg("kappa") = 1e4, py::arg("mode") = "geometric",
      py::arg("seed") = 0, py::arg("singular_values") = std::vector<double>{}, py::arg("device") = py::none(),
      R"(A rows x cols float64 matrix (Fortran order) with exactly prescribed singular values: SVC, singular
value composition (Myre 2013, Sec. 5.3; docs/nnls.md), built from the values by random plane rotations.

kappa: the condition number, the largest value 1 and the smallest 1/kappa; mode: how the others lie
(one_large, one_small, geometric, arithmetic, random), or "user" with `singular_values` (min(rows, cols)
of them); seed: the same seed gives the same matrix bit for bit, on the host (device=None, the
reference) and on every device ("gpu:0", "cpu:0", ...). Malformed specs raise hetflow.InputError.)");
  m.def(
      "svc_singular_values",
      [](std::size_t rows, std::size_t cols, double kappa, const std::string& mode, std::uint64_t seed,
         std::vector<double> singular_values) {
        return nnls::svc_singular_values(spec_of(rows, cols, kappa, mode, seed, std::move(singular_values)));
      },
      py::arg("rows"), py::arg("cols"), py::kw_only(), py::arg("kappa") = 1e4, py::arg("mode") = "geometric",
      py::arg("seed") = 0, py::arg("singular_values") = std::vector<double>{},
      "The singular values hetflow.svc places, in the order it places them on the diagonal.");
}

}  // namespace hetflow::python
