#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace hetflow::fem {

// One part's local numbering of a vector split over parts (docs/fem.md, "Several devices"), which
// NodeHalo keeps current: the part's own unknowns [0, owned), then its halo, the other parts' unknowns
// that its rows reference, grouped by owning part in part order and sorted by global index within a
// group.
struct HaloLayout {
  std::size_t part = 0;                 // its index among the parts
  std::size_t owned = 0;                // own unknown count
  std::vector<std::uint32_t> halo;      // global index of local unknown owned + k
  std::vector<std::size_t> halo_begin;  // parts + 1 offsets: halo[halo_begin[j] .. halo_begin[j+1]) are owned by
                                        // part j (empty for j == part)
  // Per part j: the local (own) indices of the unknowns in part j's halo, in the order of j's halo (empty
  // for j == part).
  std::vector<std::vector<std::uint32_t>> send;

  std::size_t local_count() const { return owned + halo.size(); }
};

}  // namespace hetflow::fem
