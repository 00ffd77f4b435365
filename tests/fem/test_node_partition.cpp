#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "hetflow/core/error.hpp"
#include "hetflow/fem/boundary_conditions.hpp"
#include "hetflow/fem/box_mesh.hpp"
#include "hetflow/fem/edge_data.hpp"
#include "hetflow/fem/node_partition.hpp"
#include "hetflow/fem/pressure_system.hpp"
#include "hetflow/fem/renumber.hpp"

namespace hetflow::fem {
namespace {

// Conditions of the given kinds on the six sides of a box_mesh, in its patch order.
std::vector<PatchCondition> sides(const std::array<BoundaryKind, 6>& kinds) {
  const std::array<const char*, 6> names{"x_min", "x_max", "y_min", "y_max", "z_min", "z_max"};
  std::vector<PatchCondition> c(6);
  for (std::size_t k = 0; k < 6; ++k) {
    c[k].patch = names[k];
    c[k].kind = kinds[k];
  }
  return c;
}

// A ramped parabolic inlet, an outlet, a no-slip wall and slip walls whose meeting edges are creases:
// every constraint list has entries, the pressure nodes have a non-zero value.
std::vector<PatchCondition> channel() {
  using enum BoundaryKind;
  std::vector<PatchCondition> c = sides({velocity, outlet, slip, no_slip, slip, slip});
  c[0].value = {1.5, 0.25, 0};
  c[0].profile = VelocityProfile::parabolic;
  c[0].profile_axes = {1, 2};
  c[0].ramp_time = 0.5;
  c[1].pressure = 2.5;
  return c;
}

// Slip walls meeting in three at the x_max corners, and no outlet: corners and a reference pressure node.
// What flows in through x_min (1.5) flows out through y_max (0.4 over 3.75), up to the share of their
// common edge, which the constraints balance.
std::vector<PatchCondition> closed_box() {
  using enum BoundaryKind;
  std::vector<PatchCondition> c = sides({velocity, slip, slip, velocity, slip, slip});
  c[0].value = {0.5, 0, 0};
  c[3].value = {0, 0.4, 0};
  return c;
}

// The splits the tests cover: 120 nodes into 120; 34 + 86; 60 + 20 + 40.
const std::vector<std::vector<double>> kSplits{{1.0}, {1.0, 2.5}, {3.0, 1.0, 2.0}};

class FemNodePartition : public ::testing::Test {
 protected:
  FemNodePartition()
      : mesh_(renumber(box_mesh(5, 4, 3, {0, 0, 0}, {2.5, 2, 1.5}), Ordering::morton).mesh),
        data_(build_edge_data(mesh_)),
        channel_(build_boundary_constraints(mesh_, channel(), "box")),
        closed_(build_boundary_constraints(mesh_, closed_box(), "box", Point{2.5, 0.0, 0.0})) {}

  std::vector<NodePart> parts(const std::vector<double>& weights, const BoundaryConstraints& c) const {
    std::vector<NodePart> out;
    for (std::size_t k = 0; k < weights.size(); ++k) out.push_back(make_node_part(data_, c, weights, k));
    return out;
  }

  // The position of global edge i-j in the global graph; fails the test when there is none.
  std::size_t global_edge(std::uint32_t i, std::uint32_t j) const {
    const auto first = data_.col.begin() + data_.row_start[i], last = data_.col.begin() + data_.row_start[i + 1];
    const auto it = std::lower_bound(first, last, j);
    EXPECT_TRUE(it != last && *it == j) << "no global edge " << i << "-" << j;
    return static_cast<std::size_t>(it - data_.col.begin());
  }

  Mesh mesh_;
  EdgeData data_;
  BoundaryConstraints channel_;
  BoundaryConstraints closed_;
};

TEST_F(FemNodePartition, SplitsTheNodesContiguouslyByWeight) {
  ASSERT_EQ(data_.node_count(), 120u);
  const std::vector<std::vector<std::size_t>> expected_owned{{120}, {34, 86}, {60, 20, 40}};
  for (std::size_t s = 0; s < kSplits.size(); ++s) {
    const std::vector<NodePart> split = parts(kSplits[s], channel_);
    std::vector<int> owners(data_.node_count(), 0);
    std::size_t first = 0;
    for (std::size_t k = 0; k < split.size(); ++k) {
      EXPECT_EQ(split[k].part, k);
      EXPECT_EQ(split[k].first, first) << "split " << s << " part " << k;
      EXPECT_EQ(split[k].owned, expected_owned[s][k]) << "split " << s << " part " << k;
      for (std::size_t i = 0; i < split[k].owned; ++i) ++owners[split[k].global(i)];
      first += split[k].owned;
    }
    for (std::size_t g = 0; g < owners.size(); ++g) EXPECT_EQ(owners[g], 1) << "split " << s << " node " << g;
  }
}

TEST_F(FemNodePartition, OwnRowsAreTheGlobalRowsAndHaloRowsAreEmpty) {
  for (const std::vector<double>& weights : kSplits)
    for (const NodePart& p : parts(weights, channel_)) {
      const EdgeData& local = p.data;
      ASSERT_EQ(local.node_count(), p.local_count());
      ASSERT_EQ(local.row_start.size(), p.local_count() + 1);
      ASSERT_EQ(local.records.size(), edge_slot::count * local.edge_count());
      for (std::size_t i = 0; i < p.owned; ++i) {
        const std::uint32_t g = p.global(i);
        EXPECT_EQ(local.row_start[i + 1] - local.row_start[i], data_.row_start[g + 1] - data_.row_start[g])
            << "part " << p.part << " row " << i;
        for (std::uint32_t k = local.row_start[i]; k < local.row_start[i + 1]; ++k) {
          if (k > local.row_start[i]) {
            EXPECT_LT(local.col[k - 1], local.col[k]) << "part " << p.part << " row " << i;
          }
          ASSERT_LT(local.col[k], p.local_count());
          const std::size_t e = global_edge(g, p.global(local.col[k]));
          for (std::size_t s = 0; s < edge_slot::count; ++s)
            EXPECT_EQ(local.record(k)[s], data_.record(e)[s]) << "part " << p.part << " edge " << k << " slot " << s;
        }
      }
      for (std::size_t i = p.owned; i < p.local_count(); ++i)
        EXPECT_EQ(local.row_start[i + 1], local.row_start[i]) << "part " << p.part << " halo row " << i;
      for (std::size_t i = 0; i < p.local_count(); ++i) {
        const std::uint32_t g = p.global(i);
        EXPECT_EQ(local.lumped_mass[i], data_.lumped_mass[g]) << "part " << p.part << " node " << i;
        EXPECT_EQ(local.inv_lumped_mass[i], data_.inv_lumped_mass[g]) << "part " << p.part << " node " << i;
        EXPECT_EQ(local.h_min[i], data_.h_min[g]) << "part " << p.part << " node " << i;
      }
    }
}

TEST_F(FemNodePartition, HaloIsTheReferencedNodesOfOtherParts) {
  for (const std::vector<double>& weights : kSplits) {
    const std::vector<NodePart> split = parts(weights, channel_);
    for (const NodePart& p : split) {
      std::set<std::uint32_t> referenced;
      for (std::size_t g = p.first; g < p.first + p.owned; ++g)
        for (std::uint32_t k = data_.row_start[g]; k < data_.row_start[g + 1]; ++k)
          if (data_.col[k] < p.first || data_.col[k] >= p.first + p.owned) referenced.insert(data_.col[k]);
      EXPECT_EQ(p.halo, std::vector<std::uint32_t>(referenced.begin(), referenced.end())) << "part " << p.part;
      EXPECT_EQ(p.halo.empty(), split.size() == 1) << "part " << p.part;
      ASSERT_EQ(p.halo_begin.size(), split.size() + 1);
      EXPECT_EQ(p.halo_begin.front(), 0u);
      EXPECT_EQ(p.halo_begin.back(), p.halo.size());
      for (std::size_t j = 0; j < split.size(); ++j) {
        if (j == p.part) {
          EXPECT_EQ(p.halo_begin[j + 1], p.halo_begin[j]) << "part " << p.part;
        }
        for (std::size_t h = p.halo_begin[j]; h < p.halo_begin[j + 1]; ++h) {
          EXPECT_GE(p.halo[h], split[j].first) << "part " << p.part << " halo " << h;
          EXPECT_LT(p.halo[h], split[j].first + split[j].owned) << "part " << p.part << " halo " << h;
          EXPECT_EQ(p.global(p.owned + h), p.halo[h]);
        }
      }
    }
  }
  // The middle part of three has halo nodes below and above its range: its rows need re-sorting.
  const NodePart middle = make_node_part(data_, channel_, kSplits[2], 1);
  EXPECT_GT(middle.halo_begin[1], 0u);
  EXPECT_GT(middle.halo_begin[3], middle.halo_begin[2]);
}

TEST_F(FemNodePartition, SendListsAreTheOtherPartsHaloSegments) {
  for (const std::vector<double>& weights : kSplits) {
    const std::vector<NodePart> split = parts(weights, channel_);
    for (const NodePart& p : split) {
      ASSERT_EQ(p.send.size(), split.size());
      for (std::size_t j = 0; j < split.size(); ++j) {
        const NodePart& q = split[j];
        const std::vector<std::uint32_t> wanted(q.halo.begin() + static_cast<std::ptrdiff_t>(q.halo_begin[p.part]),
                                                q.halo.begin() + static_cast<std::ptrdiff_t>(q.halo_begin[p.part + 1]));
        std::vector<std::uint32_t> sent;
        for (std::uint32_t local : p.send[j]) {
          EXPECT_LT(local, p.owned) << "part " << p.part << " sends to " << j;
          sent.push_back(p.global(local));
        }
        EXPECT_EQ(sent, wanted) << "part " << p.part << " sends to " << j;
      }
      EXPECT_TRUE(p.send[p.part].empty());
    }
  }
}

// The pressure pattern of every local problem follows EdgeData's rule, and the entry of edge k of row
// i sits at k + i + [col_k > i], as fem_pressure_assemble writes it.
TEST_F(FemNodePartition, LocalPressurePatternFollowsTheRule) {
  for (const std::vector<double>& weights : kSplits)
    for (const NodePart& p : parts(weights, channel_)) {
      const EdgeData& local = p.data;
      ASSERT_EQ(local.matrix_row_start.size(), p.local_count() + 1);
      ASSERT_EQ(local.matrix_col.size(), local.edge_count() + p.local_count());
      ASSERT_EQ(local.matrix_edge.size(), local.matrix_col.size());
      for (std::uint32_t i = 0; i < p.local_count(); ++i) {
        EXPECT_EQ(local.matrix_row_start[i], local.row_start[i] + i) << "part " << p.part << " row " << i;
        int diagonals = 0;
        for (std::uint32_t m = local.matrix_row_start[i]; m < local.matrix_row_start[i + 1]; ++m) {
          if (m > local.matrix_row_start[i]) {
            EXPECT_LT(local.matrix_col[m - 1], local.matrix_col[m]);
          }
          if (local.matrix_edge[m] == no_edge) {
            ++diagonals;
            EXPECT_EQ(local.matrix_col[m], i) << "part " << p.part << " row " << i;
          } else {
            EXPECT_EQ(local.col[local.matrix_edge[m]], local.matrix_col[m]) << "part " << p.part << " row " << i;
          }
        }
        EXPECT_EQ(diagonals, 1) << "part " << p.part << " row " << i;
        for (std::uint32_t k = local.row_start[i]; k < local.row_start[i + 1]; ++k) {
          const std::uint32_t at = k + i + (local.col[k] > i ? 1u : 0u);
          EXPECT_EQ(local.matrix_edge[at], k) << "part " << p.part << " row " << i;
        }
      }
      EXPECT_EQ(local.matrix_row_start.back(), local.matrix_col.size());
    }
}

// The host pressure matrix of a local problem, with τ and the fixed nodes carried to local indices, has
// the global matrix's own rows: the local problem assembles what the global one does.
TEST_F(FemNodePartition, LocalPressureMatrixHasTheGlobalOwnRows) {
  PressureParameters param;
  param.dt = 0.04;
  std::vector<double> tau;
  for (std::size_t g = 0; g < data_.node_count(); ++g) tau.push_back(0.002 * static_cast<double>(1 + g % 7));
  ASSERT_FALSE(channel_.pressure_nodes.empty());
  const CsrMatrix global =
      pressure_matrix(data_, tau, param, fixed_node_mask(data_.node_count(), channel_.pressure_nodes, "pressure"));
  for (const std::vector<double>& weights : kSplits)
    for (const NodePart& p : parts(weights, channel_)) {
      std::vector<double> local_tau;
      for (std::size_t l = 0; l < p.local_count(); ++l) local_tau.push_back(tau[p.global(l)]);
      const CsrMatrix local = pressure_matrix(
          p.data, local_tau, param, fixed_node_mask(p.local_count(), p.constraints.pressure_nodes, "pressure"));
      for (std::size_t i = 0; i < p.owned; ++i) {
        const std::uint32_t g = p.global(i);
        ASSERT_EQ(local.row_start[i + 1] - local.row_start[i], global.row_start[g + 1] - global.row_start[g]);
        for (std::int32_t m = local.row_start[i]; m < local.row_start[i + 1]; ++m) {
          const std::uint32_t j = p.global(static_cast<std::size_t>(local.col[m]));
          const auto first = global.col.begin() + global.row_start[g];
          const auto last = global.col.begin() + global.row_start[g + 1];
          const auto it = std::find(first, last, static_cast<std::int32_t>(j));
          ASSERT_TRUE(it != last) << "part " << p.part << " row " << i << " column " << j;
          const double expected = global.values[static_cast<std::size_t>(it - global.col.begin())];
          if (j != g) {
            EXPECT_EQ(local.values[m], expected) << "part " << p.part << " row " << i << " column " << j;
          } else {
            // The diagonal sums the row in the local column order: equal to rounding.
            EXPECT_NEAR(local.values[m], expected, 1e-14 * std::abs(expected)) << "part " << p.part << " row " << i;
          }
        }
      }
    }
}

// Each local list entry is a global one with its values, and every global entry of a local node is there.
template <class T>
void expect_restricted(const NodePart& p, const std::vector<std::uint32_t>& global_nodes,
                       const std::vector<T>& global_values, const std::vector<std::uint32_t>& local_nodes,
                       const std::vector<T>& local_values, const char* list) {
  ASSERT_EQ(local_values.size(), local_nodes.size()) << list;
  std::size_t local_in_global = 0;
  for (std::uint32_t g : global_nodes) {
    for (std::size_t l = 0; l < p.local_count(); ++l) local_in_global += p.global(l) == g ? 1 : 0;
  }
  EXPECT_EQ(local_nodes.size(), local_in_global) << "part " << p.part << " " << list;
  for (std::size_t k = 0; k < local_nodes.size(); ++k) {
    if (k > 0) {
      EXPECT_LT(local_nodes[k - 1], local_nodes[k]) << "part " << p.part << " " << list;
    }
    ASSERT_LT(local_nodes[k], p.local_count());
    const auto it = std::find(global_nodes.begin(), global_nodes.end(), p.global(local_nodes[k]));
    ASSERT_TRUE(it != global_nodes.end()) << "part " << p.part << " " << list << " node " << local_nodes[k];
    EXPECT_EQ(local_values[k], global_values[static_cast<std::size_t>(it - global_nodes.begin())])
        << "part " << p.part << " " << list << " node " << local_nodes[k];
  }
}

TEST_F(FemNodePartition, ConstraintsAreTheGlobalOnesOnLocalNodes) {
  for (const BoundaryConstraints* c : {&channel_, &closed_}) {
    EXPECT_FALSE(c->dirichlet_nodes.empty());
    EXPECT_FALSE(c->slip_nodes.empty());
    EXPECT_FALSE(c->crease_nodes.empty());
    EXPECT_FALSE(c->pressure_nodes.empty());
    for (const std::vector<double>& weights : kSplits)
      for (const NodePart& p : parts(weights, *c)) {
        const BoundaryConstraints& l = p.constraints;
        expect_restricted(p, c->crease_nodes, c->crease_tangents, l.crease_nodes, l.crease_tangents, "crease");
        std::vector<std::uint32_t> corners_global;  // corners carry no value: compare their global indices
        for (std::uint32_t local : l.corner_nodes) corners_global.push_back(p.global(local));
        expect_restricted(p, c->corner_nodes, c->corner_nodes, l.corner_nodes, corners_global, "corner");
        expect_restricted(p, c->slip_nodes, c->slip_normals, l.slip_nodes, l.slip_normals, "slip");
        expect_restricted(p, c->dirichlet_nodes, c->dirichlet_values, l.dirichlet_nodes, l.dirichlet_values,
                          "Dirichlet");
        expect_restricted(p, c->dirichlet_nodes, c->dirichlet_ramp_times, l.dirichlet_nodes, l.dirichlet_ramp_times,
                          "ramp");
        expect_restricted(p, c->pressure_nodes, c->pressure_values, l.pressure_nodes, l.pressure_values, "pressure");
      }
  }
  EXPECT_FALSE(closed_.corner_nodes.empty());
  ASSERT_TRUE(closed_.reference_pressure_node.has_value());
  EXPECT_FALSE(channel_.reference_pressure_node.has_value());
  // The reference node is local to some parts of three and mapped there, and absent elsewhere.
  int holders = 0;
  for (const NodePart& p : parts(kSplits[2], closed_)) {
    bool local = false;
    for (std::size_t l = 0; l < p.local_count(); ++l)
      if (p.global(l) == *closed_.reference_pressure_node) {
        local = true;
        EXPECT_EQ(p.constraints.reference_pressure_node, l) << "part " << p.part;
      }
    if (!local) {
      EXPECT_FALSE(p.constraints.reference_pressure_node.has_value()) << "part " << p.part;
    }
    holders += local ? 1 : 0;
  }
  EXPECT_GE(holders, 1);
  EXPECT_LT(holders, 3);
}

TEST_F(FemNodePartition, APartWithoutNodesIsRefused) {
  const std::vector<double> zero_weight{1.0, 0.0, 1.0};
  for (std::size_t k = 0; k < zero_weight.size(); ++k) {
    try {
      make_node_part(data_, channel_, zero_weight, k);
      ADD_FAILURE() << "no error for part " << k;
    } catch (const core::Error& e) {
      EXPECT_EQ(std::string(e.what()),
                "cannot split 120 nodes into 3 parts by the weights 1 0 1: part 1 would own no node");
    }
  }
  // 120 × 1/1001 rounds to no node.
  const std::vector<double> tiny{1000.0, 1.0};
  try {
    make_node_part(data_, channel_, tiny, 0);
    ADD_FAILURE() << "no error";
  } catch (const core::Error& e) {
    EXPECT_EQ(std::string(e.what()),
              "cannot split 120 nodes into 2 parts by the weights 1000 1: part 1 would own no node");
  }
  try {
    make_node_part(data_, channel_, kSplits[1], 2);
    ADD_FAILURE() << "no error";
  } catch (const core::Error& e) {
    EXPECT_EQ(std::string(e.what()), "node partition: part 2 asked of 2 parts");
  }
}

TEST_F(FemNodePartition, OnePartIsTheGlobalProblem) {
  for (const BoundaryConstraints* c : {&channel_, &closed_}) {
    const NodePart p = make_node_part(data_, *c, std::vector<double>{2.0}, 0);
    EXPECT_EQ(p.first, 0u);
    EXPECT_EQ(p.owned, data_.node_count());
    EXPECT_TRUE(p.halo.empty());
    EXPECT_EQ(p.halo_begin, (std::vector<std::size_t>{0, 0}));
    EXPECT_EQ(p.send, (std::vector<std::vector<std::uint32_t>>{{}}));
    EXPECT_EQ(p.data.row_start, data_.row_start);
    EXPECT_EQ(p.data.col, data_.col);
    EXPECT_EQ(p.data.records, data_.records);
    EXPECT_EQ(p.data.lumped_mass, data_.lumped_mass);
    EXPECT_EQ(p.data.inv_lumped_mass, data_.inv_lumped_mass);
    EXPECT_EQ(p.data.h_min, data_.h_min);
    EXPECT_EQ(p.data.matrix_row_start, data_.matrix_row_start);
    EXPECT_EQ(p.data.matrix_col, data_.matrix_col);
    EXPECT_EQ(p.data.matrix_edge, data_.matrix_edge);
    const BoundaryConstraints& l = p.constraints;
    EXPECT_EQ(l.crease_nodes, c->crease_nodes);
    EXPECT_EQ(l.crease_tangents, c->crease_tangents);
    EXPECT_EQ(l.corner_nodes, c->corner_nodes);
    EXPECT_EQ(l.slip_nodes, c->slip_nodes);
    EXPECT_EQ(l.slip_normals, c->slip_normals);
    EXPECT_EQ(l.dirichlet_nodes, c->dirichlet_nodes);
    EXPECT_EQ(l.dirichlet_values, c->dirichlet_values);
    EXPECT_EQ(l.dirichlet_ramp_times, c->dirichlet_ramp_times);
    EXPECT_EQ(l.pressure_nodes, c->pressure_nodes);
    EXPECT_EQ(l.pressure_values, c->pressure_values);
    EXPECT_EQ(l.reference_pressure_node, c->reference_pressure_node);
  }
}

}  // namespace
}  // namespace hetflow::fem
