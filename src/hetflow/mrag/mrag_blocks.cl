// Shared by the mrag kernels: the layout of block data. Compile-time BLOCK is s, the cells per side; field
// f of cell x + s y of block b sits at data[(b FIELDS + f) s² + x + s y], the fields being the conserved
// ρ, ρu, ρv, ρE, Γ, Π (mrag/block_rhs.hpp).
#include "core/common.cl"

#define FIELDS 6
#define CELLS (BLOCK * BLOCK)
