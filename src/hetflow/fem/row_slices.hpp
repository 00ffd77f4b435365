#pragma once
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace hetflow::fem {

// The device layout of rows of entries (edge graphs, records, sparse matrices): sliced ELLPACK. Rows are
// grouped in slices of 2^bits consecutive rows; a slice holds as many entries per row as its longest row,
// stored entry by entry: entry q of row i sits at start[i >> bits] + (i mod 2^bits) + q 2^bits. So the
// work-items of consecutive rows, each summing its own row, read consecutive addresses at every step (one
// load per warp of 32 rows instead of 32), and one work-item per row needs no reduction. A shorter row's
// padding entries weigh zero: an edge graph's point at the row itself (sliced_columns), so a sum of
// weighted differences adds exact zeros, a matrix's at column 0. bits = 0 is compressed sparse rows.
struct RowSlices {
  int bits = 0;
  std::vector<std::uint32_t> start;  // one offset per slice and one more

  std::size_t rows_per_slice() const { return std::size_t{1} << bits; }
  std::size_t entries() const { return start.back(); }
  // Where entry q of row i sits.
  std::size_t at(std::size_t row, std::size_t q) const {
    return start[row >> bits] + (row & (rows_per_slice() - 1)) + (q << bits);
  }
};

// The rows per slice of the device's edge graph, records and pressure matrix, whose rows are the mesh's
// nodes: a warp of 32 work-items, each on its own node, reads one contiguous run per record slot; on a CPU
// the same run is a vector of a work-group's consecutive work-items.
inline constexpr int edge_slice_bits = 5;

// The slices of `row_start`'s rows (one offset per row and one more). Throws core::Error when the padded
// entries exceed the 32-bit offsets the kernels read.
template <class Offset>
RowSlices row_slices(std::span<const Offset> row_start, int bits);

// The row-ordered entries `values`, `width` values per entry (entry k at values[width k ..]), in the
// slices' order; slot t of an entry at a sliced position e is stored at width (e - lane) + t 2^bits + lane
// (lane = e mod 2^bits), so a slot of consecutive rows is contiguous too. Padding entries take `pad`.
template <class T, class Offset>
std::vector<T> sliced(const RowSlices &slices, std::span<const Offset> row_start, std::span<const T> values,
                      std::size_t width, T pad);

// The column indices `col` in the slices' order, each padding entry pointing at its own row.
template <class T, class Offset>
std::vector<T> sliced_columns(const RowSlices &slices, std::span<const Offset> row_start, std::span<const T> col);

}  // namespace hetflow::fem
