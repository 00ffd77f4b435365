#pragma once
#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "hetflow/fem/mesh.hpp"
#include "hetflow/fem/msh_cursor.hpp"

namespace hetflow::fem {

// Dimension and node count of a Gmsh element type (Gmsh reference manual, "MSH file format"), for the
// types 1 to 17; dim = -1 for any other.
struct ElementKind {
  int dim = -1;
  int nodes = 0;
};
ElementKind element_kind(std::int64_t type);

// Format 4.1 gives physical groups per geometric entity: surface entity tag -> its first physical
// group (0 for none).
using SurfaceGroups = std::map<std::int64_t, std::int64_t>;

// What the sections of a .msh file hold, collected in file order, reporting errors at the cursor.
class MshContent {
 public:
  explicit MshContent(MshCursor& at) : at_(at) {}

  void add_node(std::int64_t id, const Point& p);
  // One element: its id, type and node ids; `physical` is its physical group (0 for none) and
  // `entity` its geometric entity. Tets and triangles are kept, points and lines skipped.
  void add_element(std::int64_t id, std::int64_t type, std::span<const std::int64_t> nodes, std::int64_t physical,
                   std::int64_t entity);
  void name_surface_group(std::int64_t tag, std::string name) { names_[tag] = std::move(name); }

  // The mesh, its patches named from $PhysicalNames, else "group N", or "surface N" for the
  // triangles of entity N in no group.
  Mesh finish();

 private:
  MshCursor& at_;
  Mesh mesh_;
  std::unordered_map<std::int64_t, std::uint32_t> index_;
  std::map<std::int64_t, std::uint32_t> patch_of_key_;
  std::vector<std::int64_t> keys_;
  std::map<std::int64_t, std::string> names_;
};

}  // namespace hetflow::fem
