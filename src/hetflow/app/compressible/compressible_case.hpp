#pragma once
#include "hetflow/app/case_type.hpp"

namespace hetflow::app {

// `type: compressible`: 2D compressible flow of stiffened gases on a wavelet-adapted quadtree of blocks
// (docs/mrag.md for the method, docs/compressible.md for the case file), on every selected device, or
// under MPI on one device per process. Writes the leaves as VTK blocks (fields.pvd), PNG previews of
// density, pressure and a schlieren, series.csv, optionally HDF5 + XDMF, and checkpoint.bin
// (CompressibleOutputs, CompressibleStepping).
class CompressibleCase : public CaseType {
 public:
  bool runs_across_processes() const override { return true; }
  casefile::Schema schema() const override;
  void check(const casefile::Case& c) const override;
  RunOutcome run(const casefile::Case& c, RunContext& context) const override;
};

}  // namespace hetflow::app
