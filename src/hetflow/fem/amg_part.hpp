#pragma once
#include "hetflow/fem/amg_hierarchy.hpp"
#include "hetflow/fem/node_partition.hpp"

namespace hetflow::fem {

// The finest level of a whole mesh's AmgHierarchy as one part of a split run holds it (docs/fem.md,
// "Several devices"): A's and P's rows of the part's own nodes, A's columns in local indices; R = Pᵀ of
// the own nodes only, whose products the parts add up; and the smoother's weights of every local node,
// which A's rows read at their neighbours. The coarser levels are the whole hierarchy's, on every part.
// Throws core::Error for a hierarchy of one level or of another node count, and for a neighbour of an own
// node outside the part's local nodes.
AmgLevel amg_part_level(const AmgHierarchy& whole, const NodePart& part);

}  // namespace hetflow::fem
