#include "hetflow/app/fem/fem_bench_model.hpp"

namespace hetflow::app {
namespace {

constexpr double slot = 8;  // one double of a directed edge's record
constexpr double column = 4;
constexpr double scalar = 8;
constexpr double vector = 24;

}  // namespace

FemBytes::FemBytes(std::size_t nodes, std::size_t edges, double cg_value) {
  const auto n = static_cast<double>(nodes);
  const auto e = static_cast<double>(edges);
  // An edge loop that reads `slots` slots of each record and the edge's column.
  const auto edge_loop = [&](double slots) { return e * (slots * slot + column); };
  spmv = (e + n) * (cg_value + column) + n * 2 * cg_value;
  convective_projection = edge_loop(3) + n * (2 * vector + scalar);  // d
  momentum_residual = edge_loop(9) + n * (3 * vector + 3 * scalar);  // Λ's diagonal and pairs, d
  // Reads tr Λ, d and g of the records, the fixed flags, τ, û, ξ and p; writes H, 1/H_ii and b.
  pressure_assembly = edge_loop(9) + (e + n) * cg_value + n * (1 + 2 * vector + 2 * scalar + 2 * cg_value);
  diagnostics = edge_loop(3) + n * (vector + 3 * scalar);
  const double tau = n * (vector + 2 * scalar);
  const double copy = n * 2 * vector;
  // Stages 1-3 read R, 1/M, uⁿ and W and write W and U; the last reads R, 1/M and W and writes W.
  const double stages = 3 * n * (5 * vector + scalar) + n * (3 * vector + scalar);
  const double cg_start = n * 5 * cg_value;  // reads b, 1/H_ii; writes x, r, u
  const double correct =
      edge_loop(3) + n * (scalar + cg_value + vector + vector + 2 * scalar);  // 1/M, δ, û, u, p in and out
  const double projection_xi = edge_loop(3) + n * (2 * scalar + vector);    // 1/M, p; writes ξ
  step_fixed = tau + convective_projection + copy + 4 * momentum_residual + stages + pressure_assembly + cg_start +
               correct + projection_xi + diagnostics;
  // The product w = A u also reads r; the update reads 1/H_ii, u, r, p, w, s and x and writes p, s, x, r
  // and u.
  cg_iteration = spmv + n * cg_value * (1 + 12);
}

}  // namespace hetflow::app
