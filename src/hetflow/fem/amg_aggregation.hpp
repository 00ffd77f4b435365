#pragma once
#include <cstdint>
#include <vector>

#include "hetflow/fem/amg_sparse.hpp"

namespace hetflow::fem {

// The node an aggregate does not hold: one without strong connections (an eliminated row, for one).
inline constexpr std::int32_t no_aggregate = -1;

// The aggregates of smoothed-aggregation multigrid (Vaněk, Mandel & Brezina 1996, §3): j ≠ i is a
// strong neighbour of i when |a_ij| ≥ θ sqrt(a_ii a_jj). Pass 1 makes an aggregate of every node whose
// strong neighbourhood is still untouched, together with that neighbourhood; pass 2 adds each node
// left over to the pass-1 aggregate of its strongest neighbour; pass 3 makes aggregates of the nodes
// still left with their unaggregated strong neighbours (a singleton where none is left). Nodes are
// visited in index order, so the result is deterministic. Returns the aggregate of every node and
// sets `count`.
std::vector<std::int32_t> aggregate_nodes(const SparseRows& a, double theta, std::int32_t& count);

// The tentative prolongation of the constant vector: column c holds 1/sqrt(|c|) at the nodes of
// aggregate c (orthonormal columns), a node without an aggregate has an empty row.
SparseRows tentative_prolongation(const std::vector<std::int32_t>& aggregate, std::int32_t count);

}  // namespace hetflow::fem
