#pragma once
#include <algorithm>
#include <array>
#include <cstdint>
#include <functional>

#include "hetflow/fem/mesh.hpp"

namespace hetflow::fem {

using Triangle = std::array<std::uint32_t, 3>;

// The undirected edge (a, b) as one number, the same for (b, a).
inline std::uint64_t edge_key(std::uint32_t a, std::uint32_t b) {
  return a < b ? (std::uint64_t(a) << 32 | b) : (std::uint64_t(b) << 32 | a);
}

// A triangle's nodes in increasing order, the same for every winding.
inline Triangle face_key(Triangle f) {
  std::sort(f.begin(), f.end());
  return f;
}

struct FaceKeyHash {
  std::size_t operator()(const Triangle& f) const {
    return std::hash<std::uint64_t>()(edge_key(f[0], f[1]) * 0x9E3779B97F4A7C15ull ^ f[2]);
  }
};

// The face of `tet` opposite its vertex k, wound so that its normal points out of a positively oriented
// tet.
inline Triangle tet_face(const Tet& t, int k) {
  static constexpr int kFaces[4][3] = {{1, 2, 3}, {0, 3, 2}, {0, 1, 3}, {0, 2, 1}};
  return {t[kFaces[k][0]], t[kFaces[k][1]], t[kFaces[k][2]]};
}

}  // namespace hetflow::fem
