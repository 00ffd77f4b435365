#include "hetflow/fem/row_slices.hpp"

#include <algorithm>
#include <limits>
#include <string>

#include "hetflow/core/error.hpp"

namespace hetflow::fem {

template <class Offset>
RowSlices row_slices(std::span<const Offset> row_start, int bits) {
  RowSlices s;
  s.bits = bits;
  const std::size_t rows = row_start.size() - 1;
  const std::size_t per_slice = s.rows_per_slice();
  std::uint64_t offset = 0;
  s.start.push_back(0);
  for (std::size_t first = 0; first < rows; first += per_slice) {
    const std::size_t last = std::min(rows, first + per_slice);
    std::uint64_t longest = 0;
    for (std::size_t i = first; i < last; ++i)
      longest = std::max<std::uint64_t>(longest, static_cast<std::uint64_t>(row_start[i + 1] - row_start[i]));
    offset += longest << bits;
    if (offset > static_cast<std::uint64_t>(std::numeric_limits<std::int32_t>::max()))
      throw core::Error("sliced rows: " + std::to_string(offset) + " padded entries exceed the 32-bit offsets");
    s.start.push_back(static_cast<std::uint32_t>(offset));
  }
  return s;
}

namespace {

// Calls f(row, q, e) for every stored entry q of every row and its sliced position e.
template <class Offset, class F>
void for_each_entry(const RowSlices &slices, std::span<const Offset> row_start, F f) {
  for (std::size_t i = 0; i + 1 < row_start.size(); ++i)
    for (std::size_t q = 0; q < static_cast<std::size_t>(row_start[i + 1] - row_start[i]); ++q)
      f(i, q, slices.at(i, q));
}

}  // namespace

template <class T, class Offset>
std::vector<T> sliced(const RowSlices &slices, std::span<const Offset> row_start, std::span<const T> values,
                      std::size_t width, T pad) {
  std::vector<T> out(width * slices.entries(), pad);
  const std::size_t mask = slices.rows_per_slice() - 1;
  for_each_entry(slices, row_start, [&](std::size_t i, std::size_t q, std::size_t e) {
    const std::size_t base = width * (e - (e & mask)) + (e & mask);
    const std::size_t k = static_cast<std::size_t>(row_start[i]) + q;
    for (std::size_t t = 0; t < width; ++t) out[base + (t << slices.bits)] = values[width * k + t];
  });
  return out;
}

template <class T, class Offset>
std::vector<T> sliced_columns(const RowSlices &slices, std::span<const Offset> row_start, std::span<const T> col) {
  std::vector<T> out(slices.entries());
  const std::size_t per_slice = slices.rows_per_slice();
  for (std::size_t i = 0; i + 1 < row_start.size(); ++i) {
    const std::size_t slice = i >> slices.bits;
    for (std::size_t e = slices.start[slice] + (i & (per_slice - 1)); e < slices.start[slice + 1]; e += per_slice)
      out[e] = static_cast<T>(i);
  }
  for_each_entry(slices, row_start, [&](std::size_t i, std::size_t q, std::size_t e) {
    out[e] = col[static_cast<std::size_t>(row_start[i]) + q];
  });
  return out;
}

template RowSlices row_slices(std::span<const std::uint32_t>, int);
template RowSlices row_slices(std::span<const std::int32_t>, int);
template std::vector<double> sliced(const RowSlices &, std::span<const std::uint32_t>, std::span<const double>,
                                    std::size_t, double);
template std::vector<float> sliced(const RowSlices &, std::span<const std::uint32_t>, std::span<const float>,
                                   std::size_t, float);
template std::vector<double> sliced(const RowSlices &, std::span<const std::int32_t>, std::span<const double>,
                                    std::size_t, double);
template std::vector<float> sliced(const RowSlices &, std::span<const std::int32_t>, std::span<const float>,
                                   std::size_t, float);
template std::vector<std::int32_t> sliced(const RowSlices &, std::span<const std::int32_t>,
                                          std::span<const std::int32_t>, std::size_t, std::int32_t);
template std::vector<std::uint32_t> sliced_columns(const RowSlices &, std::span<const std::uint32_t>,
                                                   std::span<const std::uint32_t>);

}  // namespace hetflow::fem
