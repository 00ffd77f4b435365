#pragma once
#include <array>
#include <span>
#include <vector>

#include "hetflow/fem/edge_data.hpp"
#include "hetflow/fem/edge_operators.hpp"

namespace hetflow::fem {

// A velocity gradient, row-major: G[3 k + l] = ∂u_k/∂x_l.
using Gradient = std::array<double, 9>;

// The nodal velocity gradient by lumped L² projection: G_I = π(u_k)_I / M_I per component k, with π the
// strong gradient of the edge data. It is exact for a linear field at every node, boundary nodes
// included, since π(φ)_I = M_I ∇φ there; for smooth fields it is first-order accurate at boundary nodes
// and second-order at interior nodes of a regular mesh. Throws core::Error for a field of the wrong size.
std::vector<Gradient> velocity_gradient(const EdgeData& data, std::span<const Vec3> u);

// ω = ∇ × u.
Vec3 vorticity(const Gradient& g);
// Q = ½ (‖Ω‖² − ‖S‖²) with S and Ω the symmetric and antisymmetric parts of G (Frobenius norms): positive
// where rotation dominates strain (Hunt, Wray & Moin 1988).
double q_criterion(const Gradient& g);
// ∇ · u, the trace of G.
double divergence(const Gradient& g);

// The nodal fields a snapshot shows beside velocity and pressure.
struct DerivedFields {
  std::vector<Vec3> vorticity;
  std::vector<double> q;
  std::vector<double> divergence;
};

DerivedFields derived_fields(const EdgeData& data, std::span<const Vec3> u);

}  // namespace hetflow::fem
