#include "hetflow/fem/pressure_stiffness.hpp"

#include <vector>

#include "hetflow/fem/pressure_system.hpp"

namespace hetflow::fem {

CsrMatrix pressure_stiffness(const EdgeData& data, std::span<const std::uint8_t> fixed) {
  const std::vector<double> no_tau(data.node_count(), 0.0);
  PressureParameters unit;
  unit.dt = 1;
  unit.theta = 1;
  return pressure_matrix(data, no_tau, unit, fixed);
}

std::unique_ptr<AmgHierarchy> pressure_hierarchy(const EdgeData& data, std::span<const std::uint32_t> fixed_pressure,
                                                 const CgOptions& options) {
  if (options.preconditioner != Preconditioner::amg) return nullptr;
  return std::make_unique<AmgHierarchy>(
      pressure_stiffness(data, fixed_node_mask(data.node_count(), fixed_pressure, "fixed pressure")));
}

}  // namespace hetflow::fem
