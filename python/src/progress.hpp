#pragma once
// The feedback of a long call from Python, chosen by its `progress` argument: True shows the CLI's progress
// display on sys.stderr once the call has taken a second (a bar on a terminal; plain lines in a notebook or a
// log), False shows nothing, and a callable is called as progress(done, total) after each chunk of work.
#include <pybind11/iostream.h>
#include <pybind11/pybind11.h>

#include <cstdint>
#include <exception>
#include <memory>
#include <optional>
#include <ostream>
#include <string>

#include "hetflow/display/progress.hpp"

namespace hetflow::python {

class CallProgress {
 public:
  // Built with the GIL held; label and unit as the CLI shows them ("reactor_batch", "systems").
  CallProgress(const pybind11::object& progress, std::int64_t total, std::string label, std::string unit);

  // After `done` of the total, with or without the GIL. False once the callable raised: the work stops
  // there, and finish() raises the callable's exception.
  bool update(std::int64_t done);
  // For work whose size is known only as it runs (an ignition search's launches): the total the callable
  // is given from now on.
  void set_total(std::int64_t total) { total_ = total; }

  // Reports the final count and ends the display (its summary line, for a call that outlasted the quiet
  // second), or raises what the callable raised. With the GIL held.
  void finish(std::int64_t done);

 private:
  std::int64_t total_;
  pybind11::object callable_;
  std::exception_ptr raised_;
  std::unique_ptr<pybind11::detail::pythonbuf> buffer_;
  std::unique_ptr<std::ostream> stream_;
  std::optional<display::Progress> display_;
};

}  // namespace hetflow::python
