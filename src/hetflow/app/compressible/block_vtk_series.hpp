#pragma once
#include <filesystem>
#include <string>

#include "hetflow/app/compressible/flow_snapshot.hpp"
#include "hetflow/io/pvd.hpp"

namespace hetflow::app {

// The leaves of a block flow as ParaView opens them: per snapshot a VTK multiblock file
// <stem>_<step>.vtm whose blocks, one per level, hold one image (.vti) per leaf in the folder
// <stem>_<step>/ with the cell data rho, u, v, p, gamma and level; and <stem>.pvd, the series of the
// .vtm files with their times. Each file is written atomically and the .vtm after its blocks, so a
// stopped run leaves only complete snapshots in the series.
class BlockVtkSeries {
 public:
  BlockVtkSeries(std::filesystem::path folder, std::string stem);

  // Returns the .vtm's path.
  std::filesystem::path write(const FlowSnapshot& snapshot);

 private:
  std::filesystem::path folder_;
  std::string stem_;
  io::PvdSeries pvd_;
};

// "<stem>_<step, six digits at least>".
std::string step_name(const std::string& stem, long step);

}  // namespace hetflow::app
