#pragma once
#include <filesystem>

#include "hetflow/app/compressible/flow_snapshot.hpp"
#include "hetflow/app/run_directory.hpp"

namespace hetflow::app {

// The PNG previews of a snapshot, from its fields resampled onto a uniform grid: rho_<step>.png,
// p_<step>.png and schlieren_<step>.png, the numerical schlieren exp(−k |∇ρ| / max |∇ρ|) of Quirk & Karni
// (1996), dark where the density changes fast; each with a colour bar, axes in domain units and, when
// asked, the leaves' outlines.
class FlowPreviews {
 public:
  struct Look {
    int width = 900;
    bool outlines = true;
    double schlieren_k = 10;
  };
  FlowPreviews(RunDirectory& directory, const Look& look);

  void write(const FlowSnapshot& snapshot, const UniformFields& fields);

 private:
  RunDirectory& dir_;
  Look look_;
};

// The largest level whose uniform grid has at most `max_cells_x` cells along x (level 0 at least): finer
// than the picture's pixels shows nothing more.
int preview_level(const FlowSnapshot& snapshot, int max_cells_x);

// |∇ρ| of a uniform field by central differences (one-sided at the domain's edges).
std::vector<double> density_gradient(const UniformFields& fields);

}  // namespace hetflow::app
