#include "hetflow/app/selftest/selftest_solver.hpp"

#include "hetflow/app/selftest/selftest_case.hpp"

namespace hetflow::app {

Solver selftest_solver() {
  return {.name = "selftest", .case_types = {std::make_shared<SelftestCase>()}};
}

}  // namespace hetflow::app
