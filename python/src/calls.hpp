#pragma once
// How a binding runs C++ work: without the GIL, with Ctrl-C turned into a stop request that the work
// polls (io::interrupted); the Python side reports the stop as KeyboardInterrupt carrying what the work
// computed.
#include <pybind11/pybind11.h>

#include <stdexcept>
#include <string>
#include <utility>

#include "hetflow/io/interrupt.hpp"

namespace hetflow::python {

// A malformed argument found on the C++ side (an option out of range, a malformed spec): becomes
// hetflow.InputError, a ValueError.
class ArgumentError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// Whether a signal arrived during the last guarded call (and forgets it): the binding then returns what
// was computed with the flag, and the Python side raises KeyboardInterrupt carrying it.
bool take_interrupt();

// Runs f() with the GIL released under an InterruptGuard (quiet: Python prints the interrupt itself).
template <class F>
auto guarded(F&& f) {
  const io::InterruptGuard guard(false);
  const pybind11::gil_scoped_release release;
  return std::forward<F>(f)();
}

// Registers hetflow's exception classes and their translation from C++ (errors.cpp).
void bind_errors(pybind11::module_& m);
void bind_devices(pybind11::module_& m);
void bind_run(pybind11::module_& m);
void bind_nnls(pybind11::module_& m);
void bind_chem(pybind11::module_& m);
void bind_ignition(pybind11::module_& m);
void bind_ftle(pybind11::module_& m);
void bind_lbm(pybind11::module_& m);
void bind_karst(pybind11::module_& m);
void bind_ode(pybind11::module_& m);
void bind_svc(pybind11::module_& m);
void bind_tune(pybind11::module_& m);

}  // namespace hetflow::python
