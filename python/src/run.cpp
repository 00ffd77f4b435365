// hetflow._run: `hetflow run` on a case file, for hetflow.run (python/hetflow/run.py).
#include <pybind11/stl.h>

#include "calls.hpp"
#include "hetflow/app/run_command.hpp"

namespace hetflow::python {

namespace py = pybind11;

void bind_run(py::module_& m) {
  m.def(
      "_run",
      [](const std::string& case_file, std::optional<std::string> case_yaml, std::optional<std::string> device,
         std::optional<std::string> output, std::vector<std::string> overrides, bool quiet) {
        app::RunRequest request;
        request.case_file = case_file;
        request.case_yaml = std::move(case_yaml);
        request.device = std::move(device);
        request.output = std::move(output);
        request.overrides = std::move(overrides);
        request.verbosity = quiet ? display::Verbosity::quiet : display::Verbosity::normal;
        request.command_line = "python: hetflow.run(" + (case_file.empty() ? "<case text>" : case_file) + ")";
        // run_command installs its own guard: a Ctrl-C stops the run after its current step, and the
        // final outputs are written before this returns.
        const app::RunReport report = [&] {
          const py::gil_scoped_release release;
          return app::run_command(request);
        }();
        return py::make_tuple(report.status, report.directory.string());
      },
      py::arg("case_file"), py::arg("case_yaml") = py::none(), py::arg("device") = py::none(),
      py::arg("output") = py::none(), py::arg("overrides") = std::vector<std::string>{}, py::arg("quiet") = true,
      "Runs a case file (or, with case_file empty, case_yaml) as `hetflow run` does; returns (status, run directory). "
      "Use hetflow.run.");
}

}  // namespace hetflow::python
