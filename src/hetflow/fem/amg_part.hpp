#pragma once
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "hetflow/fem/amg_hierarchy.hpp"
#include "hetflow/fem/halo_layout.hpp"
#include "hetflow/fem/node_partition.hpp"

namespace hetflow::fem {

// The levels of a whole mesh's AmgHierarchy that one part of a split run holds in part (docs/fem.md,
// "Several devices", "AMG across parts"): the finest level and, on a hierarchy of three levels or more,
// the first coarse level too. The coarser levels are the whole hierarchy's, on every part.
struct AmgPart {
  // The split levels in the part's local numbering: A's and P's rows of the own unknowns, A's columns
  // local; P's columns local on the next level when that is split too, else global; R = Pᵀ of the own
  // rows, whose products the parts add up; the smoother's weights of every local unknown, which A's rows
  // read at their neighbours.
  std::vector<AmgLevel> levels;
  // The local numbering of levels[l] for l ≥ 1 is layouts[l - 1]; level 0's is the NodePart's.
  std::vector<HaloLayout> layouts;
};

// The part that owns each unknown of the first coarse level: the one owning the first fine node of its
// aggregate, so an aggregate inside a part stays with it. `node_starts` holds the parts' first fine
// nodes and the fine node count (parts + 1 ascending offsets). Throws core::Error for a fine level
// without aggregates or offsets that do not cover its nodes.
std::vector<std::uint32_t> coarse_owners(const AmgLevel& fine, std::span<const std::size_t> node_starts);

// Part `part.part`'s levels of `whole` (node_starts as for coarse_owners). The first coarse level is
// split when the hierarchy has a level below it and every part owns one of its unknowns; every part
// decides alike. Throws core::Error for a hierarchy of one level or of another node count, for a part
// that does not match node_starts, and for a neighbour of an own node outside the part's local nodes.
AmgPart amg_part(const AmgHierarchy& whole, const NodePart& part, std::span<const std::size_t> node_starts);

}  // namespace hetflow::fem
