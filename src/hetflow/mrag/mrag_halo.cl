// The halo of a part of the leaves (docs/mrag.md, Several devices): values other parts read, gathered into
// one packed array and scattered back from one. An item is a cell of block data (CELL_ITEMS: leaf × CELLS
// + cell, its FIELDS values CELLS apart), a boundary-face record (FACE_ITEMS: its FACE_VALUES values in a
// row) or a whole block (BLOCK_ITEMS: its FIELDS CELLS values in a row).
#include "mrag/mrag_blocks.cl"

#define CELL_ITEMS 0
#define FACE_ITEMS 1

int item_values(const int kind) { return kind == CELL_ITEMS ? FIELDS : kind == FACE_ITEMS ? FACE_VALUES : FIELDS * CELLS; }

size_t item_value(const uint item, const int v, const int kind) {
  if (kind == CELL_ITEMS) return ((size_t)(item / CELLS) * FIELDS + v) * CELLS + item % CELLS;
  return (size_t)item * item_values(kind) + v;
}

// packed[values k + v] = data[value v of item[k]], for k < count.
__kernel void mrag_pack(const uint count, const int kind, __global const uint* restrict item,
                        __global const real_t* restrict data, __global real_t* restrict packed) {
  const int values = item_values(kind);
  for (size_t id = get_global_id(0); id < (size_t)count * values; id += get_global_size(0))
    packed[id] = data[item_value(item[id / values], id % values, kind)];
}

// The reverse: data[value v of item[k]] = packed[values k + v].
__kernel void mrag_unpack(const uint count, const int kind, __global const uint* restrict item,
                          __global const real_t* restrict packed, __global real_t* restrict data) {
  const int values = item_values(kind);
  for (size_t id = get_global_id(0); id < (size_t)count * values; id += get_global_size(0))
    data[item_value(item[id / values], id % values, kind)] = packed[id];
}
