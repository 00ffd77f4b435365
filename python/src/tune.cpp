// hetflow._tune and hetflow._tunables: `hetflow tune` for hetflow.tune (python/hetflow/tune.py), through the
// CLI's own TuningRun, so both check, measure and store alike.
#include <pybind11/stl.h>

#include <cmath>
#include <memory>

#include "calls.hpp"
#include "hetflow/app/solver.hpp"
#include "hetflow/app/tuning_run.hpp"
#include "hetflow/tune/tuning_space.hpp"
#include "progress.hpp"

namespace hetflow::python {
namespace {

namespace py = pybind11;

// Thrown by the trial observer to end a search that Ctrl-C or a raising progress callable stopped.
struct Stopped {};

py::dict setting_dict(const tune::Setting& s) {
  py::dict d;
  for (const auto& [name, value] : s) d[py::str(name)] = value;
  return d;
}

py::list trial_list(const std::vector<tune::Trial>& trials) {
  py::list list;
  for (const tune::Trial& t : trials)
    list.append(
        py::dict(py::arg("setting") = setting_dict(t.setting),
                 py::arg("cost") = t.failure.empty() ? py::object(py::float_(t.seconds)) : py::object(py::none()),
                 py::arg("failure") = t.failure));
  return list;
}

}  // namespace

void bind_tune(py::module_& m) {
  py::class_<app::TuneRequest>(m, "_TuneRequest")
      .def(py::init<>())
      .def_readwrite("name", &app::TuneRequest::name)
      .def_readwrite("device", &app::TuneRequest::device)
      .def_readwrite("search", &app::TuneRequest::search)
      .def_readwrite("budget", &app::TuneRequest::budget)
      .def_readwrite("db", &app::TuneRequest::db)
      .def_readwrite("size", &app::TuneRequest::size)
      .def_readwrite("storage", &app::TuneRequest::storage)
      .def_readwrite("case_file", &app::TuneRequest::case_file)
      .def_readwrite("repeats", &app::TuneRequest::repeats)
      .def_readwrite("seed", &app::TuneRequest::seed)
      .def_readwrite("problem_class", &app::TuneRequest::problem_class)
      .def_readwrite("kappas", &app::TuneRequest::kappas)
      .def_readwrite("active", &app::TuneRequest::active)
      .def_readwrite("problems", &app::TuneRequest::problems)
      .def_readwrite("objective", &app::TuneRequest::objective);

  m.def(
      "_tunables",
      [] {
        py::list list;
        for (const app::TuneTarget* t : app::tune_targets())
          list.append(py::dict(py::arg("name") = t->name, py::arg("help") = t->help, py::arg("size") = t->size_help,
                               py::arg("storage") = t->storage_help, py::arg("fp16") = t->fp16,
                               py::arg("case") = t->case_help, py::arg("every_device") = t->every_device_help,
                               py::arg("chooses_devices") = t->chooses_devices));
        return list;
      },
      "What `hetflow tune` can tune; use hetflow.tunables.");

  m.def(
      "_tune",
      [](const app::TuneRequest& request, const py::object& progress) -> py::tuple {
        // Selecting devices and making the tunable may build kernels: without the GIL too.
        const std::unique_ptr<app::TuningRun> run = guarded([&] { return std::make_unique<app::TuningRun>(request); });
        const tune::Tunable& t = run->tunable();
        CallProgress shown(progress, static_cast<std::int64_t>(run->planned_trials()), "tune " + t.name, "settings");
        std::vector<tune::Trial> trials;
        tune::TuneResult result;
        bool stopped = false;
        try {
          result = guarded([&] {
            return run->search([&](const tune::Trial& trial) {
              trials.push_back(trial);
              if (!shown.update(static_cast<std::int64_t>(trials.size())) || io::interrupted()) throw Stopped{};
            });
          });
        } catch (const Stopped&) {
          stopped = true;
        }
        shown.finish(static_cast<std::int64_t>(trials.size()));
        if (take_interrupt() || stopped) return py::make_tuple(py::none(), trial_list(trials), true);
        py::dict out(py::arg("name") = t.name, py::arg("problem") = t.problem, py::arg("devices") = run->devices_text(),
                     py::arg("search") = tune::to_string(result.search), py::arg("space_size") = result.space_size,
                     py::arg("best") = setting_dict(result.best), py::arg("best_cost") = result.best_seconds,
                     py::arg("defaults") = setting_dict(t.defaults),
                     py::arg("cost_unit") = t.cost_unit.empty() ? std::string("s") : t.cost_unit,
                     py::arg("rate_unit") = t.rate ? t.unit : std::string(),
                     py::arg("best_rate") = t.rate ? py::object(py::float_(t.rate(result.best_seconds))) : py::none(),
                     py::arg("best_over_mean") = result.best_over_mean(),
                     py::arg("best_over_worst") = result.best_over_worst());
        out["database"] = guarded([&] { return run->store(result).string(); });
        return py::make_tuple(out, trial_list(result.trials), false);
      },
      py::arg("request"), py::arg("progress"), "Tunes one tunable and stores the best; use hetflow.tune.");
}

}  // namespace hetflow::python
