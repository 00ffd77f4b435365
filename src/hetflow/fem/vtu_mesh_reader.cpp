#include "hetflow/fem/vtu_mesh_reader.hpp"

#include <map>

#include "hetflow/fem/exterior_faces.hpp"
#include "hetflow/fem/mesh_error.hpp"

namespace hetflow::fem {
namespace {

// VTK cell type codes (VTK file formats, "cell types").
constexpr std::uint8_t kVertex = 1, kPolyVertex = 2, kLine = 3, kPolyLine = 4, kTriangle = 5, kTetra = 10;

[[noreturn]] void fail(const std::string& source, const std::string& what) {
  throw MeshError(source + ": " + what);
}

const io::DataArray* patch_array(const io::VtkUnstructuredGrid& grid) {
  for (const char* name : {"patch", "gmsh:physical"})
    if (const auto* a = grid.cell_array(name)) return a;
  return nullptr;
}

}  // namespace

Mesh vtu_mesh(const io::VtkUnstructuredGrid& grid, const std::string& source) {
  if (grid.points.components != 3)
    fail(source, "Points has " + std::to_string(grid.points.components) + " components, not 3");
  Mesh mesh;
  const auto xyz = grid.points.to_double();
  for (std::size_t p = 0; p < grid.point_count(); ++p)
    mesh.nodes.push_back({xyz[3 * p], xyz[3 * p + 1], xyz[3 * p + 2]});
  const io::DataArray* patch_ids = patch_array(grid);
  std::vector<std::int64_t> ids;
  if (patch_ids) ids = patch_ids->to_int64();
  if (patch_ids && ids.size() != grid.cell_count())
    fail(source, "cell array '" + patch_ids->name + "' has " + std::to_string(ids.size()) + " values for " +
                     std::to_string(grid.cell_count()) + " cells");
  std::map<std::int64_t, std::uint32_t> patch_of_id;
  std::int64_t begin = 0;
  for (std::size_t c = 0; c < grid.cell_count(); ++c) {
    const std::int64_t end = grid.offsets[c];
    const int type = grid.types[c];
    const std::int64_t count = end - begin;
    // io::parse_vtu has checked that offsets grow and that connectivity names existing points.
    auto node = [&](std::int64_t i) { return std::uint32_t(grid.connectivity[std::size_t(begin + i)]); };
    const std::string cell = "cell " + std::to_string(c) + " (VTK type " + std::to_string(type) + ")";
    if (type == kTetra && count == 4) {
      mesh.tets.push_back({node(0), node(1), node(2), node(3)});
    } else if (type == kTriangle && count == 3) {
      const std::int64_t id = patch_ids ? ids[c] : 0;
      auto [it, added] = patch_of_id.try_emplace(id, std::uint32_t(mesh.patches.size()));
      if (added) mesh.patches.push_back(patch_ids ? "patch " + std::to_string(id) : "boundary");
      mesh.boundary.push_back({{node(0), node(1), node(2)}, it->second});
    } else if (type == kTetra || type == kTriangle) {
      fail(source, cell + " has " + std::to_string(count) + " points");
    } else if (type != kVertex && type != kPolyVertex && type != kLine && type != kPolyLine) {
      fail(source, cell + ": only linear tetrahedra (type 10) and triangles (type 5) are supported");
    }
    begin = end;
  }
  if (mesh.boundary.empty()) {
    mesh.patches = {"boundary"};
    for (const auto& f : exterior_faces(mesh)) mesh.boundary.push_back({f, 0});
  }
  return mesh;
}

Mesh read_vtu_mesh(const std::filesystem::path& path) { return vtu_mesh(io::read_vtu(path), path.string()); }

}  // namespace hetflow::fem
