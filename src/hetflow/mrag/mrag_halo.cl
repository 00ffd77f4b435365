// The halo of a part of the leaves (docs/mrag.md, Several devices): the values other parts read, gathered
// into one packed array and scattered back from one. An item is a cell of block data (CELL_ITEMS: leaf ×
// CELLS + cell, its FIELDS values CELLS apart) or a boundary-face record (its FACE_VALUES values in a row).
#include "mrag/mrag_blocks.cl"

#define CELL_ITEMS 0

size_t item_value(const uint item, const int v, const int kind) {
  if (kind == CELL_ITEMS) return ((size_t)(item / CELLS) * FIELDS + v) * CELLS + item % CELLS;
  return (size_t)item * FACE_VALUES + v;
}

// packed[values k + v] = data[value v of item[k]], for k < count.
__kernel void mrag_pack(const uint count, const int kind, __global const uint* restrict item,
                        __global const real_t* restrict data, __global real_t* restrict packed) {
  const int values = kind == CELL_ITEMS ? FIELDS : FACE_VALUES;
  for (uint k = get_global_id(0); k < count; k += get_global_size(0))
    for (int v = 0; v < values; ++v) packed[(size_t)k * values + v] = data[item_value(item[k], v, kind)];
}

// The reverse: data[value v of item[k]] = packed[values k + v].
__kernel void mrag_unpack(const uint count, const int kind, __global const uint* restrict item,
                          __global const real_t* restrict packed, __global real_t* restrict data) {
  const int values = kind == CELL_ITEMS ? FIELDS : FACE_VALUES;
  for (uint k = get_global_id(0); k < count; k += get_global_size(0))
    for (int v = 0; v < values; ++v) data[item_value(item[k], v, kind)] = packed[(size_t)k * values + v];
}
