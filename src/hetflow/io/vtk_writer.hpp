#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <span>
#include <variant>
#include <vector>

#include "hetflow/io/field.hpp"

namespace hetflow::io {

// VTK XML writers for ParaView: one piece, binary appended raw data with UInt64 block headers, native
// byte order (declared in the file). Files are written atomically (AtomicFile).

// A uniform grid of dims[0] x dims[1] x dims[2] points; dims[2] == 1 makes a 2-D grid.
struct ImageGrid {
  std::array<std::size_t, 3> dims{1, 1, 1};
  std::array<double, 3> origin{0.0, 0.0, 0.0};
  std::array<double, 3> spacing{1.0, 1.0, 1.0};

  std::size_t point_count() const { return dims[0] * dims[1] * dims[2]; }
  // VTK counts one cell layer along a dimension of a single point, so a 2-D grid has (nx-1)(ny-1) cells.
  std::size_t cell_count() const;
};

// Point data has point_count() tuples, cell data cell_count(); both x fastest.
void write_vti(const std::filesystem::path& path, const ImageGrid& grid, std::span<const Field> point_data,
               std::span<const Field> cell_data = {});

enum class CellType : std::uint8_t { Vertex = 1, Line = 3, Triangle = 5, Tetra = 10, Hexahedron = 12 };

// Nodes per cell of each supported type (VTK node ordering), 0 for an unknown code.
int cell_type_nodes(CellType type);

using PointSpan = std::variant<std::span<const double>, std::span<const float>>;

// An unstructured mesh in VTK's layout: points xyz interleaved; cell c uses
// connectivity[offsets[c-1] .. offsets[c]) (offsets hold each cell's end, so offsets.back() equals
// connectivity.size()).
struct UnstructuredMesh {
  PointSpan points;
  std::span<const std::int64_t> connectivity;
  std::span<const std::int64_t> offsets;
  std::span<const CellType> types;

  std::size_t point_count() const;
  std::size_t cell_count() const { return types.size(); }
};

// Offsets for a mesh whose cells all have the same number of nodes.
std::vector<std::int64_t> uniform_offsets(std::size_t cells, int nodes_per_cell);

// Validates the mesh (sizes, node counts per type, indices in range) before writing anything.
void write_vtu(const std::filesystem::path& path, const UnstructuredMesh& mesh, std::span<const Field> point_data,
               std::span<const Field> cell_data = {});

// Polylines in VTK PolyData's layout: points xyz interleaved; line l runs through the points
// connectivity[offsets[l-1] .. offsets[l]) in order (offsets hold each line's end, as for UnstructuredMesh).
struct PolyLines {
  PointSpan points;
  std::span<const std::int64_t> connectivity;
  std::span<const std::int64_t> offsets;

  std::size_t point_count() const;
  std::size_t line_count() const { return offsets.size(); }
};

// A .vtp (PolyData) of polylines; point data has point_count() tuples, cell data line_count(). Validates
// (sizes, offsets increasing with at least 2 points per line, indices in range) before writing anything.
void write_vtp(const std::filesystem::path& path, const PolyLines& lines, std::span<const Field> point_data,
               std::span<const Field> cell_data = {});

}  // namespace hetflow::io
