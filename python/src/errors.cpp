// hetflow's C++ errors as Python exceptions: what() becomes the message unchanged, so Python shows the
// CLI's text (file, line, key, value); each class also derives from the builtin a caller would catch.
#include <Python.h>

#include <stdexcept>

#include "calls.hpp"
#include "hetflow/casefile/error.hpp"
#include "hetflow/core/error.hpp"
#include "hetflow/io/error.hpp"

namespace hetflow::python {
namespace {

namespace py = pybind11;

// A new exception class hetflow.<name> deriving from `bases`, kept alive by the module.
PyObject* exception_class(py::module_& m, const char* name, const char* doc, py::tuple bases) {
  const std::string qualified = std::string("hetflow.") + name;
  PyObject* type = PyErr_NewExceptionWithDoc(qualified.c_str(), doc, bases.ptr(), nullptr);
  if (!type) throw py::error_already_set();
  m.add_object(name, py::handle(type));
  return type;
}

}  // namespace

bool take_interrupt() {
  const bool stopped = io::interrupted();
  io::clear_interrupt();
  return stopped;
}

void bind_errors(py::module_& m) {
  static PyObject* base = exception_class(m, "HetflowError", "Base of every error hetflow raises.",
                                          py::make_tuple(py::handle(PyExc_RuntimeError)));
  static PyObject* input =
      exception_class(m, "InputError", "Malformed input: a case, a mechanism, a mesh, a device selection or an array.",
                      py::make_tuple(py::handle(base), py::handle(PyExc_ValueError)));
  static PyObject* file = exception_class(m, "FileError", "A file that cannot be read or written.",
                                          py::make_tuple(py::handle(base), py::handle(PyExc_OSError)));
  static PyObject* no_device =
      exception_class(m, "NoDeviceError", "No OpenCL device matches the selection.", py::make_tuple(py::handle(base)));
  static PyObject* build =
      exception_class(m, "KernelBuildError", "A kernel failed to compile; the message holds its log.",
                      py::make_tuple(py::handle(base)));
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const ArgumentError& e) {
      PyErr_SetString(input, e.what());
    } catch (const casefile::CaseError& e) {
      PyErr_SetString(input, e.what());
    } catch (const io::FormatError& e) {
      PyErr_SetString(input, e.what());
    } catch (const io::IoError& e) {
      PyErr_SetString(file, e.what());
    } catch (const core::SelectionError& e) {
      PyErr_SetString(input, e.what());
    } catch (const core::NoDeviceError& e) {
      PyErr_SetString(no_device, e.what());
    } catch (const core::NoPlatformError& e) {
      PyErr_SetString(no_device, e.what());
    } catch (const core::KernelBuildError& e) {
      PyErr_SetString(build, e.what());
    } catch (const core::Error& e) {
      PyErr_SetString(base, e.what());
    }
  });
}

}  // namespace hetflow::python
