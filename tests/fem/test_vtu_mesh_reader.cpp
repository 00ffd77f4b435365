#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "hetflow/fem/mesh_error.hpp"
#include "hetflow/fem/vtu_mesh_reader.hpp"
#include "mesh_measures.hpp"

namespace hetflow::fem {
namespace {

// Two tets sharing the face (1, 2, 3), then `extra` cells; `types` and `offsets` list all cells.
std::string vtu(const std::string& extra_connectivity, const std::string& offsets, const std::string& types,
                const std::string& cell_data = "") {
  return R"(<?xml version="1.0"?>
<VTKFile type="UnstructuredGrid" version="1.0" byte_order="LittleEndian">
<UnstructuredGrid><Piece NumberOfPoints="5" NumberOfCells=")" +
         std::to_string(std::count(types.begin(), types.end(), ' ') + 1) + R"(">
<Points><DataArray type="Float64" NumberOfComponents="3" format="ascii">
0 0 0  1 0 0  0 1 0  0 0 1  1 1 1
</DataArray></Points>
<Cells>
<DataArray type="Int64" Name="connectivity" format="ascii">0 1 2 3 1 2 3 4 )" +
         extra_connectivity + R"(</DataArray>
<DataArray type="Int64" Name="offsets" format="ascii">4 8 )" + offsets + R"(</DataArray>
<DataArray type="UInt8" Name="types" format="ascii">)" + types + R"(</DataArray>
</Cells>)" + cell_data + R"(
</Piece></UnstructuredGrid></VTKFile>
)";
}

TEST(FemVtuMeshReader, TakesTheExteriorFacesWhenThereAreNoTriangles) {
  const Mesh mesh = vtu_mesh(io::parse_vtu(vtu("0 4 ", "10", "10 10 3"), "two.vtu"), "two.vtu");
  ASSERT_EQ(mesh.nodes.size(), 5u);
  ASSERT_EQ(mesh.tets.size(), 2u);
  EXPECT_EQ(mesh.tets[1], (Tet{1, 2, 3, 4}));
  EXPECT_EQ(mesh.patches, (std::vector<std::string>{"boundary"}));
  ASSERT_EQ(mesh.boundary.size(), 6u);
  // A closed surface: its area vectors sum to zero. Tet 0's face (1, 2, 3) is shared; its other faces
  // come first, with outward normals -x, -y, -z.
  const auto sum = test::patch_area_vectors(mesh)[0];
  for (double s : sum) EXPECT_NEAR(s, 0.0, 1e-15);
  EXPECT_EQ(test::area_vector(mesh, mesh.boundary[0]), (std::array<double, 3>{-0.5, 0.0, 0.0}));
  EXPECT_EQ(test::area_vector(mesh, mesh.boundary[2]), (std::array<double, 3>{0.0, 0.0, -0.5}));
}

TEST(FemVtuMeshReader, TakesTrianglePatchesFromACellArray) {
  const std::string patches =
      R"(<CellData><DataArray type="Int32" Name="patch" format="ascii">0 0 7 3 7</DataArray></CellData>)";
  const Mesh mesh =
      vtu_mesh(io::parse_vtu(vtu("0 2 1 0 1 3 0 3 2 ", "11 14 17", "10 10 5 5 5", patches), "p.vtu"), "p.vtu");
  ASSERT_EQ(mesh.boundary.size(), 3u);
  EXPECT_EQ(mesh.patches, (std::vector<std::string>{"patch 7", "patch 3"}));
  EXPECT_EQ(mesh.boundary[1].nodes, (std::array<std::uint32_t, 3>{0, 1, 3}));
  EXPECT_EQ(mesh.boundary[1].patch, 1u);
  EXPECT_EQ(mesh.boundary[2].patch, 0u);
}

TEST(FemVtuMeshReader, RejectsHexahedra) {
  try {
    vtu_mesh(io::parse_vtu(vtu("0 1 2 3 4 0 1 2 ", "16", "10 10 12"), "h.vtu"), "h.vtu");
    FAIL() << "no error";
  } catch (const MeshError& e) {
    EXPECT_STREQ(e.what(), "h.vtu: cell 2 (VTK type 12): only linear tetrahedra (type 10) and triangles (type 5) "
                           "are supported");
  }
}

TEST(FemVtuMeshReader, RejectsATetWithTheWrongPointCount) {
  try {
    vtu_mesh(io::parse_vtu(vtu("0 1 2 ", "11", "10 10 10"), "t.vtu"), "t.vtu");
    FAIL() << "no error";
  } catch (const MeshError& e) {
    EXPECT_STREQ(e.what(), "t.vtu: cell 2 (VTK type 10) has 3 points");
  }
}

}  // namespace
}  // namespace hetflow::fem
