#include "progress.hpp"

#include <utility>

namespace hetflow::python {

namespace py = pybind11;

CallProgress::CallProgress(const py::object& progress, std::int64_t total, std::string label, std::string unit)
    : total_(total) {
  if (PyCallable_Check(progress.ptr())) {
    callable_ = progress;
    return;
  }
  if (!progress.cast<bool>()) return;
  const py::object err = py::module_::import("sys").attr("stderr");
  const bool tty = py::hasattr(err, "isatty") && err.attr("isatty")().cast<bool>();
  buffer_ = std::make_unique<py::detail::pythonbuf>(err);
  stream_ = std::make_unique<std::ostream>(buffer_.get());
  display_.emplace(total, std::move(label), display::Verbosity::normal, *stream_,
                   tty ? display::Terminal::yes : display::Terminal::no);
  display_->count(std::move(unit));
  display_->quiet_for(1.0);
}

bool CallProgress::update(std::int64_t done) {
  if (display_) display_->update(done);
  if (!callable_ || raised_) return !raised_;
  const py::gil_scoped_acquire gil;
  try {
    callable_(done, total_);
  } catch (const py::error_already_set&) {
    raised_ = std::current_exception();
  }
  return !raised_;
}

void CallProgress::finish(std::int64_t done) {
  if (!raised_) update(done);
  if (display_) display_->finish();
  if (raised_) std::rethrow_exception(std::exchange(raised_, nullptr));
}

}  // namespace hetflow::python
