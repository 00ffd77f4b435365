#pragma once
#include <cstdint>
#include <span>
#include <vector>

#include "hetflow/fem/edge_data.hpp"
#include "hetflow/fem/mesh.hpp"
#include "hetflow/fem/momentum.hpp"

namespace hetflow::fem {

// The stress a no-slip wall feels, recovered at its patch's nodes from the reactions that hold them
// (docs/fem.md, Forces): a node's reaction is the traction's work on its shape function, ρ R_I = ∫ t N_I dΓ,
// so t_I = ρ R_I / ∫ N_I dΓ, the lumped surface mass (the consistent one, M_Γ t = ρR, amplifies the
// alternation that the cut of each wall quadrilateral into two triangles puts into the reactions). On a
// no-slip wall the normal viscous stress vanishes (∂u_n/∂n = 0 there because the tangential derivatives
// of u do and ∇·u = 0), so the wall pressure is the traction's component along the normal out of the
// fluid, p_w = t·n. Unlike the nodal pressure it carries no stabilisation layer at the wall. A rim node,
// shared with another patch, also carries the other patch's reaction on a strip one face wide: where
// that patch meets the wall at a right angle (a slip plane) it leaves p_w alone.
struct WallTraction {
  std::vector<std::uint32_t> nodes;  // the patch's nodes, sorted (patch_nodes)
  std::vector<Vec3> traction;        // t at each of them: the fluid's force on the wall per unit area
  std::vector<Vec3> normal;          // unit normal out of the fluid, area-weighted over the node's faces
  std::vector<double> pressure;      // p_w = t·n
};

// The wall traction of patch `patch` for velocity u and pressure p, with τ and Π from u and the time step
// dt as the momentum step takes them. Throws core::Error for fields of the wrong size, a patch without
// faces, or a patch face that is not on the mesh's exterior.
WallTraction wall_traction(const Mesh& mesh, const EdgeData& data, const MomentumParameters& parameters,
                           std::span<const Vec3> u, std::span<const double> p, double dt, std::uint32_t patch);

}  // namespace hetflow::fem
