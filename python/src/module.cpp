// hetflow._hetflow: the extension under the Python package (python/hetflow/__init__.py is its face).
#include <pybind11/pybind11.h>

#include "calls.hpp"
#include "hetflow/commit.hpp"
#include "hetflow/version.hpp"

PYBIND11_MODULE(_hetflow, m) {
  m.doc() = "hetflow's solvers on OpenCL devices; use the package hetflow, not this module";
  m.attr("__version__") = hetflow::version;
  m.attr("__commit__") = hetflow::git_commit();  // the build's git commit, as manifests record it
  hetflow::python::bind_errors(m);
  hetflow::python::bind_devices(m);
  hetflow::python::bind_run(m);
  hetflow::python::bind_nnls(m);
  hetflow::python::bind_chem(m);
  hetflow::python::bind_ignition(m);
  hetflow::python::bind_ftle(m);
  hetflow::python::bind_lbm(m);
  hetflow::python::bind_karst(m);
  hetflow::python::bind_ode(m);
  hetflow::python::bind_svc(m);
  hetflow::python::bind_tune(m);
}
