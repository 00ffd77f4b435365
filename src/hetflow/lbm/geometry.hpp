#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace hetflow::lbm {

// One byte per lattice node. The codes are part of the kernel interface (lbm.cl reads them as uchar),
// so existing values never change meaning; new boundary kinds take the next free code.
enum class NodeType : std::uint8_t {
  fluid = 0,   // ordinary fluid node
  wall = 1,    // solid: half-way bounce-back, the no-slip plane lies half a cell towards the fluid
  inlet = 2,   // reserved for Zou-He velocity/pressure inlets; fluid with a prescribed boundary
  outlet = 3,  // reserved for Zou-He outlets
};

// Largest code a reader accepts as a node type (files written by write_geometry_vti carry codes).
inline constexpr std::uint8_t max_node_code = 3;

// Inlet and outlet nodes carry fluid, so they count as pore space for porosity.
constexpr bool is_solid(NodeType t) { return t == NodeType::wall; }

// A voxel mask of nx x ny x nz nodes, x fastest: index = x + nx*(y + ny*z). Spacing is the physical
// size of a voxel as read from a file (1 for generated masks); the lattice itself is unitless.
class Geometry {
 public:
  Geometry() = default;
  // Throws std::invalid_argument for a zero dimension or a node count that overflows.
  Geometry(std::size_t nx, std::size_t ny, std::size_t nz, NodeType fill = NodeType::fluid);

  std::array<std::size_t, 3> dims() const { return dims_; }
  std::size_t nx() const { return dims_[0]; }
  std::size_t ny() const { return dims_[1]; }
  std::size_t nz() const { return dims_[2]; }
  std::size_t size() const { return nodes_.size(); }
  std::size_t index(std::size_t x, std::size_t y, std::size_t z) const { return x + dims_[0] * (y + dims_[1] * z); }

  NodeType at(std::size_t x, std::size_t y, std::size_t z) const { return static_cast<NodeType>(nodes_[index(x, y, z)]); }
  void set(std::size_t x, std::size_t y, std::size_t z, NodeType t) { nodes_[index(x, y, z)] = static_cast<std::uint8_t>(t); }
  bool solid(std::size_t x, std::size_t y, std::size_t z) const { return is_solid(at(x, y, z)); }

  // The raw codes, ready to upload to a device buffer.
  std::span<const std::uint8_t> codes() const { return nodes_; }
  std::span<std::uint8_t> codes() { return nodes_; }

  std::size_t fluid_count() const;  // nodes that are not solid
  double porosity() const;          // fluid_count() / size()
  bool any_fluid() const;

  std::array<double, 3> spacing{1.0, 1.0, 1.0};

  friend bool operator==(const Geometry&, const Geometry&) = default;

 private:
  std::array<std::size_t, 3> dims_{0, 0, 0};
  std::vector<std::uint8_t> nodes_;
};

// A 64-bit FNV-1a hash of dims and codes: a cheap fingerprint for logs and determinism checks.
std::uint64_t fingerprint(const Geometry& g);

// "34x34x64" for messages.
std::string dims_text(const std::array<std::size_t, 3>& dims);

}  // namespace hetflow::lbm
