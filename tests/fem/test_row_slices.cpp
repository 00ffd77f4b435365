#include <gtest/gtest.h>

#include <cstdint>
#include <span>
#include <vector>

#include "hetflow/core/error.hpp"
#include "hetflow/fem/row_slices.hpp"

namespace hetflow::fem {
namespace {

// Five rows of 2, 0, 3, 1 and 2 entries; entry k of the row-ordered arrays is 10 (row) + q.
const std::vector<std::uint32_t> row_start{0, 2, 2, 5, 6, 8};
const std::vector<std::uint32_t> col{1, 4, 0, 1, 3, 2, 0, 4};

std::vector<double> entry_values(std::size_t width) {
  std::vector<double> v;
  for (std::size_t i = 0; i + 1 < row_start.size(); ++i)
    for (std::uint32_t q = 0; q < row_start[i + 1] - row_start[i]; ++q)
      for (std::size_t t = 0; t < width; ++t) v.push_back(10.0 * i + q + 0.1 * t);
  return v;
}

TEST(FemRowSlices, SlicesOfTwoRowsHoldTheirLongestRow) {
  const RowSlices s = row_slices(std::span<const std::uint32_t>(row_start), 1);
  // Slices {0, 1}, {2, 3}, {4}: widths 2, 3, 2.
  EXPECT_EQ(s.start, (std::vector<std::uint32_t>{0, 4, 10, 14}));
  EXPECT_EQ(s.at(0, 1), 2u);
  EXPECT_EQ(s.at(3, 0), 5u);
  EXPECT_EQ(s.at(2, 2), 8u);
  EXPECT_EQ(s.at(4, 1), 12u);
}

TEST(FemRowSlices, ColumnsAndValuesSitAtTheirSlicedPlacesAndPaddingPointsAtItsRow) {
  const std::span<const std::uint32_t> rows(row_start);
  const RowSlices s = row_slices(rows, 1);
  const std::vector<std::uint32_t> c = sliced_columns(s, rows, std::span<const std::uint32_t>(col));
  EXPECT_EQ(c, (std::vector<std::uint32_t>{1, 1, 4, 1, 0, 2, 1, 3, 3, 3, 0, 0, 4, 0}));
  const std::vector<double> v = entry_values(1);
  const std::vector<double> sv = sliced(s, rows, std::span<const double>(v), 1, -1.0);
  EXPECT_EQ(sv, (std::vector<double>{0, -1, 1, -1, 20, 30, 21, -1, 22, -1, 40, -1, 41, -1}));
}

TEST(FemRowSlices, RecordSlotsOfConsecutiveRowsAreContiguous) {
  const std::span<const std::uint32_t> rows(row_start);
  const RowSlices s = row_slices(rows, 1);
  const std::vector<double> v = entry_values(3);
  const std::vector<double> sv = sliced(s, rows, std::span<const double>(v), 3, 0.0);
  ASSERT_EQ(sv.size(), 3 * s.entries());
  for (std::size_t i = 0; i + 1 < row_start.size(); ++i)
    for (std::uint32_t q = 0; q < row_start[i + 1] - row_start[i]; ++q) {
      const std::size_t e = s.at(i, q), lane = e % 2;
      for (std::size_t t = 0; t < 3; ++t)
        EXPECT_DOUBLE_EQ(sv[3 * (e - lane) + 2 * t + lane], 10.0 * i + q + 0.1 * t) << i << " " << q << " " << t;
    }
  // Row 1 (lane 1 of the first slice) has no entries: its slots in the first block are padding.
  EXPECT_EQ(sv[1], 0.0);
  EXPECT_EQ(sv[3], 0.0);
  EXPECT_EQ(sv[5], 0.0);
}

TEST(FemRowSlices, NoSliceBitsIsCompressedSparseRows) {
  const std::span<const std::uint32_t> rows(row_start);
  const RowSlices s = row_slices(rows, 0);
  EXPECT_EQ(s.start, row_start);
  EXPECT_EQ(sliced_columns(s, rows, std::span<const std::uint32_t>(col)), col);
  const std::vector<double> v = entry_values(2);
  EXPECT_EQ(sliced(s, rows, std::span<const double>(v), 2, 0.0), v);
}

TEST(FemRowSlices, RefusesMorePaddedEntriesThanTheOffsetsHold) {
  // Two rows, one of 2^26 entries: 32-row slices pad them to 2^31.
  const std::vector<std::int32_t> long_row{0, 1 << 26, (1 << 26) + 1};
  try {
    row_slices(std::span<const std::int32_t>(long_row), 5);
    FAIL() << "no error";
  } catch (const core::Error &e) {
    EXPECT_STREQ(e.what(), "sliced rows: 2147483648 padded entries exceed the 32-bit offsets");
  }
}

}  // namespace
}  // namespace hetflow::fem
