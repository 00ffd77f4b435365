#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <set>
#include <vector>

#include "amg_problems.hpp"
#include "hetflow/core/error.hpp"
#include "hetflow/fem/amg_aggregation.hpp"
#include "hetflow/fem/amg_part.hpp"
#include "hetflow/fem/node_partition.hpp"
#include "sparse_problems.hpp"

namespace hetflow::fem {
namespace {

using test::max_abs;
using test::max_difference;

// The 14³-cell box (3375 nodes) in a hierarchy of four levels, and its nodes split into `parts` parts.
struct SplitBox {
  explicit SplitBox(std::size_t parts) : box(box_stiffness(14)), hierarchy(box.k, options()) {
    const std::vector<double> weights(parts, 1.0);
    for (std::size_t k = 0; k < parts; ++k) nodes.push_back(make_node_part(box.data, {}, weights, k));
    starts.push_back(0);
    for (const NodePart& p : nodes) starts.push_back(p.first + p.owned);
  }
  static AmgOptions options() {
    AmgOptions o;
    o.coarse_size = 20;
    return o;
  }
  BoxStiffness box;
  AmgHierarchy hierarchy;
  std::vector<NodePart> nodes;
  std::vector<std::size_t> starts;
};

TEST(FemAmgPart, EveryCoarseUnknownHasOneOwnerHoldingItsFirstNode) {
  const SplitBox split(3);
  const AmgLevel& fine = split.hierarchy.levels().front();
  ASSERT_GE(split.hierarchy.levels().size(), 4u);
  const std::vector<std::uint32_t> owner = coarse_owners(fine, split.starts);
  ASSERT_EQ(owner.size(), fine.p.cols);
  std::vector<std::size_t> owned(3, 0);
  std::vector<bool> seen(owner.size(), false);
  for (std::size_t i = 0; i < fine.a.rows; ++i) {
    const std::int32_t c = fine.aggregate[i];
    if (c == no_aggregate || seen[c]) continue;
    seen[c] = true;
    const std::size_t part = i < split.starts[1] ? 0 : i < split.starts[2] ? 1 : 2;
    EXPECT_EQ(owner[c], part) << "aggregate " << c << " starts at node " << i;
    ++owned[part];
  }
  EXPECT_EQ(std::count(seen.begin(), seen.end(), true), static_cast<std::ptrdiff_t>(owner.size()));
  for (std::size_t k = 0; k < 3; ++k) EXPECT_GT(owned[k], 0u) << "part " << k;
  EXPECT_THROW(coarse_owners(fine, std::vector<std::size_t>{0, 10}), core::Error);
}

// Each part splits the first coarse level; the parts own every coarse unknown once, and what part j sends
// part k is k's halo group of j.
TEST(FemAmgPart, CoarseLayoutsPartitionTheUnknownsAndMatchAcrossParts) {
  const SplitBox split(3);
  const std::size_t coarse = split.hierarchy.levels()[1].a.rows;
  const std::vector<std::uint32_t> owner = coarse_owners(split.hierarchy.levels().front(), split.starts);
  std::vector<AmgPart> parts;
  for (const NodePart& p : split.nodes) parts.push_back(amg_part(split.hierarchy, p, split.starts));
  std::vector<std::vector<std::uint32_t>> own(3);
  for (std::uint32_t c = 0; c < coarse; ++c) own[owner[c]].push_back(c);
  std::size_t total = 0;
  for (std::size_t k = 0; k < 3; ++k) {
    ASSERT_EQ(parts[k].levels.size(), 2u);
    ASSERT_EQ(parts[k].layouts.size(), 1u);
    const HaloLayout& layout = parts[k].layouts[0];
    EXPECT_EQ(layout.part, k);
    EXPECT_EQ(layout.owned, own[k].size());
    total += layout.owned;
    for (std::size_t j = 0; j < 3; ++j) {
      const auto at = [&layout](std::size_t k) { return layout.halo.begin() + static_cast<std::ptrdiff_t>(k); };
      const std::vector<std::uint32_t> group(at(layout.halo_begin[j]), at(layout.halo_begin[j + 1]));
      EXPECT_TRUE(std::is_sorted(group.begin(), group.end()));
      for (std::uint32_t c : group) EXPECT_EQ(owner[c], j) << "part " << k << " halo " << c;
      std::vector<std::uint32_t> sent;
      for (std::uint32_t local : parts[j].layouts[0].send[k]) sent.push_back(own[j].at(local));
      EXPECT_EQ(sent, group) << "part " << j << " to part " << k;
    }
    EXPECT_GT(layout.halo.size(), 0u);
  }
  EXPECT_EQ(total, coarse);
}

// The split levels are the whole ones in local numbering: their products, added over the parts where
// the whole level is the sum, equal the whole hierarchy's to rounding.
TEST(FemAmgPart, SplitLevelsMultiplyAsTheWholeOnes) {
  const SplitBox split(2);
  const std::vector<AmgLevel>& whole = split.hierarchy.levels();
  const std::vector<std::uint32_t> owner = coarse_owners(whole.front(), split.starts);
  const std::vector<double> v0 = test::random_vector(whole[0].a.rows, 3), v1 = test::random_vector(whole[1].a.rows, 4),
                            v2 = test::random_vector(whole[2].a.rows, 5);
  const std::vector<double> a0 = multiply(whole[0].a, v0), p0 = multiply(whole[0].p, v1),
                            a1 = multiply(whole[1].a, v1), p1 = multiply(whole[1].p, v2);
  std::vector<double> r0(whole[1].a.rows, 0.0), r1(whole[2].a.rows, 0.0);
  const std::vector<double> t0 = test::random_vector(whole[0].a.rows, 6), t1 = test::random_vector(whole[1].a.rows, 7);
  for (const NodePart& node : split.nodes) {
    const AmgPart part = amg_part(split.hierarchy, node, split.starts);
    const HaloLayout& layout = part.layouts.at(0);
    std::vector<std::uint32_t> global1;
    for (std::uint32_t c = 0; c < owner.size(); ++c)
      if (owner[c] == node.part) global1.push_back(c);
    global1.insert(global1.end(), layout.halo.begin(), layout.halo.end());
    std::vector<double> local0, local1;
    for (std::size_t i = 0; i < node.local_count(); ++i) local0.push_back(v0[node.global(i)]);
    for (std::uint32_t c : global1) local1.push_back(v1[c]);
    const std::vector<double> pa0 = multiply(part.levels[0].a, local0), pp0 = multiply(part.levels[0].p, local1),
                              pa1 = multiply(part.levels[1].a, local1), pp1 = multiply(part.levels[1].p, v2);
    for (std::size_t i = 0; i < node.owned; ++i) {
      EXPECT_EQ(pa0[i], a0[node.first + i]);
      EXPECT_EQ(pp0[i], p0[node.first + i]);
      EXPECT_EQ(part.levels[0].smoother[i], whole[0].smoother[node.first + i]);
    }
    for (std::size_t k = 0; k < layout.owned; ++k) {
      EXPECT_EQ(pa1[k], a1[global1[k]]);
      EXPECT_EQ(pp1[k], p1[global1[k]]);
    }
    for (std::size_t k = 0; k < global1.size(); ++k)
      EXPECT_EQ(part.levels[1].smoother[k], whole[1].smoother[global1[k]]);
    // The restrictions of own rows add up over the parts: level 0's into the local coarse unknowns.
    std::vector<double> own_t0(node.owned), own_t1(layout.owned);
    for (std::size_t i = 0; i < node.owned; ++i) own_t0[i] = t0[node.first + i];
    for (std::size_t k = 0; k < layout.owned; ++k) own_t1[k] = t1[global1[k]];
    const std::vector<double> pr0 = multiply(part.levels[0].r, own_t0), pr1 = multiply(part.levels[1].r, own_t1);
    for (std::size_t k = 0; k < global1.size(); ++k) r0[global1[k]] += pr0[k];
    for (std::size_t c = 0; c < r1.size(); ++c) r1[c] += pr1[c];
  }
  EXPECT_LE(max_difference(r0, multiply(whole[0].r, t0)), 1e-14 * max_abs(r0));
  EXPECT_LE(max_difference(r1, multiply(whole[1].r, t1)), 1e-14 * max_abs(r1));
}

// A hierarchy of two levels splits only the finest: its coarse level is the coarsest, solved whole.
TEST(FemAmgPart, TwoLevelsSplitTheFinestOnly) {
  const BoxStiffness box = box_stiffness(8);
  const AmgHierarchy h(box.k);
  ASSERT_EQ(h.levels().size(), 2u);
  const std::vector<double> weights{1, 1};
  const NodePart node = make_node_part(box.data, {}, weights, 1);
  const std::vector<std::size_t> starts{0, node.first, node.first + node.owned};
  const AmgPart part = amg_part(h, node, starts);
  EXPECT_EQ(part.levels.size(), 1u);
  EXPECT_TRUE(part.layouts.empty());
  EXPECT_EQ(part.levels[0].p.cols, h.levels()[1].a.rows);
  EXPECT_THROW(amg_part(h, node, std::vector<std::size_t>{0, node.first + 1, node.first + node.owned}), core::Error);
}

// A part of a few corner nodes, whose aggregates all start in the other part, owns no coarse unknown: then
// every part splits the finest level only.
TEST(FemAmgPart, APartWithoutCoarseUnknownsLeavesTheCoarseLevelWhole) {
  const BoxStiffness box = box_stiffness(14);
  const AmgHierarchy h(box.k, SplitBox::options());
  const std::vector<double> weights{1, 0.001};
  const std::vector<NodePart> nodes{make_node_part(box.data, {}, weights, 0), make_node_part(box.data, {}, weights, 1)};
  const std::vector<std::size_t> starts{0, nodes[1].first, box.k.n};
  const std::vector<std::uint32_t> owner = coarse_owners(h.levels().front(), starts);
  ASSERT_EQ(std::count(owner.begin(), owner.end(), 1u), 0) << nodes[1].owned << " nodes in part 1";
  for (const NodePart& node : nodes) {
    const AmgPart part = amg_part(h, node, starts);
    EXPECT_EQ(part.levels.size(), 1u) << "part " << node.part;
    EXPECT_EQ(part.levels[0].p.cols, h.levels()[1].a.rows);
  }
}

}  // namespace
}  // namespace hetflow::fem
