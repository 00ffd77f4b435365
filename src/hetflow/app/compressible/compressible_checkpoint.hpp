#pragma once
#include <filesystem>
#include <vector>

#include "hetflow/app/compressible/compressible_setup.hpp"
#include "hetflow/mrag/block_flow.hpp"
#include "hetflow/mrag/block_tree.hpp"

namespace hetflow::app {

// A block flow's state as a restart needs it: the grid it lives on, its leaves, time, step count and
// conserved fields (BlockFlow::conserved's layout).
struct CompressibleCheckpoint {
  CompressibleGrid grid;
  std::vector<mrag::BlockKey> leaves;
  double time = 0;
  long steps = 0;
  std::vector<double> conserved;

  // The tree of these leaves, rebuilt by refining from the roots.
  mrag::BlockTree tree() const;
};

CompressibleCheckpoint checkpoint_of(const mrag::BlockFlow& flow, const CompressibleGrid& grid);

// A binary file: a header line naming the format and its version, then the grid (roots, block size, max
// level, root size), time and steps, the leaves (level, x, y as int32) and the conserved fields as
// native doubles. Written under a temporary name and renamed, so a run killed while writing keeps the
// previous checkpoint.
void write_checkpoint(const std::filesystem::path& path, const CompressibleCheckpoint& checkpoint);

// io::FormatError names the file and what is wrong: not such a checkpoint, a truncated file, or a grid
// other than `grid` (a restart continues the same domain).
CompressibleCheckpoint read_checkpoint(const std::filesystem::path& path, const CompressibleGrid& grid);

}  // namespace hetflow::app
