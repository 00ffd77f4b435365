#pragma once
#include <array>
#include <cstdint>
#include <map>
#include <string>

#include "hetflow/app/compressible/initial_state.hpp"
#include "hetflow/casefile/case.hpp"
#include "hetflow/mrag/block_flow.hpp"
#include "hetflow/mrag/ghost_table.hpp"
#include "hetflow/mrag/stiffened_gas.hpp"

namespace hetflow::app {

// The grid a compressible case asks for: roots_x × roots_y level-0 blocks of s × s cells, each
// root_size wide, refined up to max_level; the domain is [0, roots_x root_size] × [0, roots_y root_size].
struct CompressibleGrid {
  int roots_x = 1, roots_y = 1;
  int block_size = 32;
  int max_level = 0;
  double root_size = 1;

  double width() const { return roots_x * root_size; }
  double height() const { return roots_y * root_size; }
  // Cells along x and y of the grid refined everywhere to max_level.
  std::int64_t finest_cells_x() const { return static_cast<std::int64_t>(roots_x) * block_size << max_level; }
  std::int64_t finest_cells_y() const { return static_cast<std::int64_t>(roots_y) * block_size << max_level; }
  // Device memory the grid refined everywhere, and the grid of the roots alone, would take with values of
  // `value_bytes` (8 in FP64, 4 in FP32; mrag::tree_bytes).
  double finest_bytes(int value_bytes) const;
  double roots_bytes(int value_bytes) const;
};

// How the initial state is adapted to and the tree kept adapted (docs/mrag.md, Adaptation).
struct CompressibleAdaptation {
  double eps_refine = 1e-3, eps_compress = 1e-4;
  long every = 8;          // steps between adaptations; 0: the tree stays as the initial passes leave it
  int initial_passes = 3;  // adapt-and-sample-again passes over the initial state
};

// Everything a compressible run needs from its case besides the output section.
struct CompressibleSetup {
  CompressibleGrid grid;
  mrag::Sides sides;
  std::map<std::string, mrag::StiffenedGas> materials;
  InitialState initial;
  mrag::TimeScheme scheme = mrag::TimeScheme::ssp_rk3;
  int local_steps = 0;  // levels stepped locally (mrag::BlockFlow::local_time_steps)
  core::Precision precision = core::Precision::f64;
  mrag::SpatialScheme spatial;
  double cfl = 0.5;
  double end = 0;
  CompressibleAdaptation adaptation;
};

CompressibleGrid compressible_grid(const casefile::Case& c);
// The materials a case may name: its `materials` entries, and air (γ 1.4, an ideal gas) unless an entry
// of that name replaces it, so that a case of air alone needs no materials section.
std::map<std::string, mrag::StiffenedGas> case_materials(const casefile::Case& c);
// Reads a case that check_compressible_case passed.
CompressibleSetup compressible_setup(const casefile::Case& c);

// What keeps scheme.closure = colour from closing the case (more than two materials, or a stiffened one), as
// a problem text naming the key; empty when nothing does or the closure is Γ.
std::string colour_closure_problem(const casefile::Case& c);

// Throws casefile::CaseError naming domain.roots and the bytes needed when the grid of the roots alone
// would not fit in `device_bytes` of device memory. The adapted grids are checked as the flow makes them
// (mrag::BlockFlow::limit_memory): a finest level whose grid refined everywhere would not fit still runs
// while the adaptation keeps the grid small enough.
void check_grid_fits(const casefile::Case& c, std::uint64_t device_bytes, const std::string& device_label);

}  // namespace hetflow::app
