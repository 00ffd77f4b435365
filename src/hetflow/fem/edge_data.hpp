#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "hetflow/fem/mesh.hpp"

namespace hetflow::fem {

// Slots of the 16-double host record of a directed edge IJ (docs/fem.md, Edge data), in the paper's order
// (Rossi, Mossaiby & Idelsohn 2013). The device keeps the 12 numbers its kernels read
// (fem/device_edge_data.hpp, device_slot).
namespace edge_slot {
inline constexpr std::size_t mass = 0;       // m_IJ = ∫ N_I N_J
inline constexpr std::size_t laplacian = 1;  // Λ_IJ = ∫ ∇N_I ⊗ ∇N_J, row-major, slots 1..9 (row from I)
inline constexpr std::size_t d = 10;         // d_IJ = ∫ N_I ∇N_J, slots 10..12
inline constexpr std::size_t g = 13;         // g_IJ = ∫ ∇N_I N_J, slots 13..15
inline constexpr std::size_t count = 16;
}  // namespace edge_slot

// The pressure-matrix entry that is a row's diagonal and so has no edge.
inline constexpr std::uint32_t no_edge = 0xFFFFFFFFu;

// The edge-based form of P1 finite elements on a tet mesh: a node-to-node graph without the diagonal
// whose directed edges carry the element integrals, per-node lumped mass and size, and the pressure
// matrix's pattern. Indices are 32-bit, as the device kernels read them: E + n ≤ 2^32 − 1.
struct EdgeData {
  // CSR of the directed edges: the neighbours of node I are col[row_start[I] .. row_start[I+1]),
  // sorted ascending, without I itself.
  std::vector<std::uint32_t> row_start;  // n + 1
  std::vector<std::uint32_t> col;        // E
  std::vector<double> records;           // 16 E, edge k at records[16 k + edge_slot::*]

  std::vector<double> lumped_mass;      // M_I = Σ_{e∋I} V_e/4, the row sum of the consistent mass
  std::vector<double> inv_lumped_mass;  // 1 / M_I
  std::vector<double> h_min;            // min over the tets of I of the height opposite I, 1/|∇N_I|

  // The pressure matrix: the same graph with the diagonal in its sorted place (nnz = E + n), and for each
  // entry the edge it belongs to, or no_edge on the diagonal.
  std::vector<std::uint32_t> matrix_row_start;  // n + 1
  std::vector<std::uint32_t> matrix_col;        // E + n
  std::vector<std::uint32_t> matrix_edge;       // E + n

  std::size_t node_count() const { return lumped_mass.size(); }
  std::size_t edge_count() const { return col.size(); }
  const double* record(std::size_t edge) const { return records.data() + edge_slot::count * edge; }
};

// Builds the edge data of a mesh. Throws core::Error naming the tet or node for a tet with a node index
// out of range, a repeated node or zero volume, for a node that no tet uses, and when E + n exceeds
// the 32-bit index range.
EdgeData build_edge_data(const Mesh& mesh);

// Sets the pressure-matrix pattern of `data` from its graph (row_start, col): each row's edges with the
// diagonal inserted before the first neighbour above the row, so matrix_row_start[i] = row_start[i] + i.
void build_matrix_pattern(EdgeData& data);

// Throws core::Error unless `directed_edges + nodes` fits the 32-bit indices of EdgeData (with no_edge
// kept free).
void check_index_range(std::uint64_t directed_edges, std::uint64_t nodes);

}  // namespace hetflow::fem
