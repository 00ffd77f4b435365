#pragma once
#include <memory>
#include <optional>

#include "hetflow/app/compressible/flow_measures.hpp"
#include "hetflow/app/compressible/flow_previews.hpp"
#include "hetflow/app/compressible/flow_snapshot.hpp"
#include "hetflow/app/run_directory.hpp"
#include "hetflow/casefile/case.hpp"

namespace hetflow::app {

// What the output section asks a compressible run to write.
struct CompressibleOutputOptions {
  bool vtk = true, png = true, hdf5 = false;
  FlowPreviews::Look look;
  double shock_threshold = 0.1;
  std::optional<MaterialContrast> contrast;  // the tracked material against the background's
};

// Reads the output section; the tracked material is output.track, else the one material of the regions
// other than the background's, else none.
CompressibleOutputOptions compressible_output_options(const casefile::Case& c);

// Everything a compressible run writes per snapshot, in the run directory: the leaves as VTK blocks
// (fields.pvd, fields_<step>.vtm, BlockVtkSeries), the PNG previews (FlowPreviews), the fields on the
// uniform grid of the finest level as HDF5 + XDMF (uniform.xmf, uniform_<step>.h5) and a row of
// series.csv (FlowMeasures). Rows are whole lines and every other file is atomic, so a stopped run
// keeps complete files.
class CompressibleOutputs {
 public:
  CompressibleOutputs(RunDirectory& directory, const CompressibleOutputOptions& options);
  ~CompressibleOutputs();
  CompressibleOutputs(const CompressibleOutputs&) = delete;
  CompressibleOutputs& operator=(const CompressibleOutputs&) = delete;

  FlowMeasures write(const FlowSnapshot& snapshot);
  void close();

 private:
  struct Series;
  CompressibleOutputOptions options_;
  std::unique_ptr<Series> series_;
};

}  // namespace hetflow::app
