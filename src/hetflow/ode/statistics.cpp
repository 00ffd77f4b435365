#include "hetflow/ode/statistics.hpp"

#include <cstdio>

namespace hetflow::ode {

std::string describe(const Statistics& s, long nmax) {
  char where[96];
  std::snprintf(where, sizeof where, " at t = %.17g with h = %.6g", s.t, s.h);
  const std::string code = "IDID = " + std::to_string(s.idid()) + ": ";
  switch (s.status) {
    case Status::success: return code + "reached t_end" + where;
    case Status::too_many_steps:
      return code + "more than nmax = " + std::to_string(nmax) + " steps; stopped" + where;
    case Status::step_too_small: return code + "step size too small (0.1 |h| <= |t| uround); stopped" + where;
    case Status::singular_matrix: return code + "iteration matrix repeatedly singular (5 times); stopped" + where;
    case Status::not_run: break;
  }
  return code + "not integrated";
}

}  // namespace hetflow::ode
