#include "hetflow/mrag/tree_memory.hpp"

#include "hetflow/mrag/block_rhs.hpp"
#include "hetflow/mrag/device_blocks.hpp"
#include "hetflow/mrag/ghost_table.hpp"

namespace hetflow::mrag {

double tree_bytes(double leaves, int s, int value_bytes) {
  const double ghosts =
      static_cast<double>(ghost_cells(s, rhs_ghosts, false).size() + ghost_cells(s, adapt_ghosts, true).size());
  return leaves * fields * value_bytes * (4.0 * s * s + 2 * ghosts);
}

double state_bytes(double leaves, int s, int value_bytes) { return leaves * fields * value_bytes * s * s; }

}  // namespace hetflow::mrag
