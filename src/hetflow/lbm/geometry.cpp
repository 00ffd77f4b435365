#include "hetflow/lbm/geometry.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace hetflow::lbm {

Geometry::Geometry(std::size_t nx, std::size_t ny, std::size_t nz, NodeType fill) : dims_{nx, ny, nz} {
  if (nx == 0 || ny == 0 || nz == 0)
    throw std::invalid_argument("geometry dimensions " + dims_text(dims_) + ": expected at least one node per axis");
  // Kernels index nodes with 64-bit integers, but 19 populations per node must still fit in size_t bytes.
  constexpr std::size_t limit = std::numeric_limits<std::size_t>::max() / 256;
  if (ny > limit / nx || nz > limit / (nx * ny))
    throw std::invalid_argument("geometry dimensions " + dims_text(dims_) + ": the node count overflows");
  nodes_.assign(nx * ny * nz, static_cast<std::uint8_t>(fill));
}

std::size_t Geometry::fluid_count() const {
  return static_cast<std::size_t>(
      std::count_if(nodes_.begin(), nodes_.end(), [](std::uint8_t c) { return !is_solid(static_cast<NodeType>(c)); }));
}

double Geometry::porosity() const {
  return nodes_.empty() ? 0.0 : static_cast<double>(fluid_count()) / static_cast<double>(nodes_.size());
}

bool Geometry::any_fluid() const {
  return std::any_of(nodes_.begin(), nodes_.end(), [](std::uint8_t c) { return !is_solid(static_cast<NodeType>(c)); });
}

std::uint64_t fingerprint(const Geometry& g) {
  std::uint64_t h = 14695981039346656037ull;
  const auto mix = [&h](std::uint64_t byte) {
    h ^= byte;
    h *= 1099511628211ull;
  };
  for (const std::size_t d : g.dims())
    for (int shift = 0; shift < 64; shift += 8) mix((static_cast<std::uint64_t>(d) >> shift) & 0xFFu);
  for (const std::uint8_t c : g.codes()) mix(c);
  return h;
}

std::string dims_text(const std::array<std::size_t, 3>& dims) {
  return std::to_string(dims[0]) + "x" + std::to_string(dims[1]) + "x" + std::to_string(dims[2]);
}

}  // namespace hetflow::lbm
