#include "hetflow/app/solvers.hpp"

#include "hetflow/app/chem/chem_solver.hpp"
#include "hetflow/app/compressible/compressible_solver.hpp"
#include "hetflow/app/fem/fem_solver.hpp"
#include "hetflow/app/ftle/ftle_solver.hpp"
#include "hetflow/app/karst/karst_solver.hpp"
#include "hetflow/app/lbm/lbm_solver.hpp"
#include "hetflow/app/nnls/nnls_solver.hpp"
#include "hetflow/app/probe/probe_solver.hpp"
#include "hetflow/app/selftest/selftest_solver.hpp"

namespace hetflow::app {

// The one list: a solver's folder under app/ describes it in one function, and its line here makes
// `run`, `cases`, `bench`, `tune` and their help show it.
const std::vector<Solver>& solvers() {
  static const std::vector<Solver> all = [] {
    std::vector<Solver> v;
    v.push_back(probe_solver());
    v.push_back(selftest_solver());
    v.push_back(lbm_solver());
    v.push_back(ftle_solver());
    v.push_back(chem_solver());
    v.push_back(nnls_solver());
    v.push_back(karst_solver());
    v.push_back(fem_solver());
    v.push_back(compressible_solver());
    return v;
  }();
  return all;
}

}  // namespace hetflow::app
