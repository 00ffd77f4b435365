#include <gtest/gtest.h>

#include <numeric>

#include "hetflow/core/error.hpp"
#include "hetflow/core/partition.hpp"

namespace hetflow::core {
namespace {

std::vector<std::size_t> counts(const Partition& p) {
  std::vector<std::size_t> c;
  std::size_t offset = 0;
  for (std::size_t k = 0; k < p.parts(); ++k) {
    EXPECT_EQ(p.share(k).offset, offset);  // contiguous and ordered
    offset += p.share(k).count;
    c.push_back(p.share(k).count);
  }
  EXPECT_EQ(offset, p.size());
  return c;
}

using V = std::vector<std::size_t>;

TEST(CorePartition, UniformGivesTheRemainderToTheFirstParts) {
  const std::vector<double> w(3, 1.0);
  EXPECT_EQ(counts(Partition(10, 1, w)), (V{4, 3, 3}));
  EXPECT_EQ(counts(Partition(11, 1, w)), (V{4, 4, 3}));
  EXPECT_EQ(counts(Partition(2, 1, w)), (V{1, 1, 0}));
}

TEST(CorePartition, GranulesStayWhole) {
  const std::vector<double> w(2, 1.0);
  EXPECT_EQ(counts(Partition(5 * 7, 7, w)), (V{21, 14}));
  EXPECT_THROW(Partition(36, 7, w), Error);
}

TEST(CorePartition, WeightsByLargestRemainder) {
  EXPECT_EQ(counts(Partition(100, 1, std::vector<double>{1, 3})), (V{25, 75}));
  // 10 * (1/6, 2/6, 3/6) = 1.67, 3.33, 5: floors 1, 3, 5; the one left goes to the largest remainder.
  EXPECT_EQ(counts(Partition(10, 1, std::vector<double>{1, 2, 3})), (V{2, 3, 5}));
  EXPECT_EQ(counts(Partition(9, 1, std::vector<double>{0, 1})), (V{0, 9}));
}

TEST(CorePartition, RejectsBadWeights) {
  EXPECT_THROW(Partition(9, 1, std::vector<double>{0, 0}), Error);
  EXPECT_THROW(Partition(9, 1, std::vector<double>{-1, 2}), Error);
  EXPECT_THROW(Partition(9, 1, std::vector<double>{}), Error);
  EXPECT_THROW(Partition(9, 0, std::vector<double>{1}), Error);
}

}  // namespace
}  // namespace hetflow::core
