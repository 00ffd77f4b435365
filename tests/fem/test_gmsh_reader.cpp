#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "hetflow/fem/gmsh_reader.hpp"
#include "hetflow/fem/mesh_error.hpp"

namespace hetflow::fem {
namespace {

// One tet with sparse node ids, its faces in two named groups, an unnamed group and (4.1) an entity
// without a group, and a point and a line element that the reader skips.
const std::vector<std::string> kV2 = {
    "$MeshFormat", "2.2 0 8", "$EndMeshFormat",
    "$PhysicalNames", "3", "2 1 \"bottom\"", "2 2 \"slanted side\"", "3 5 \"fluid\"", "$EndPhysicalNames",
    "$Nodes", "4", "10 0 0 0", "20 1 0 0", "30 0 1 0", "40 0 0 1", "$EndNodes",
    "$Elements", "7",
    "1 15 2 0 1 10", "2 1 2 0 1 10 20", "3 2 2 1 1 10 30 20", "4 2 2 2 2 20 30 40",
    "5 2 2 3 3 10 20 40", "6 2 2 3 4 10 40 30", "7 4 2 5 1 10 20 30 40",
    "$EndElements"};

const std::vector<std::string> kV4 = {
    "$MeshFormat", "4.1 0 8", "$EndMeshFormat",
    "$PhysicalNames", "2", "2 1 \"bottom\"", "2 2 \"slanted side\"", "$EndPhysicalNames",
    "$Entities", "1 0 3 1", "1 0 0 0 0",
    "1 0 0 0 1 1 0 1 1 0", "2 0 0 0 1 1 1 1 2 0", "3 0 0 0 1 1 1 0 0", "1 0 0 0 1 1 1 1 5 0",
    "$EndEntities",
    "$Nodes", "2 4 10 40", "0 1 0 1", "10", "0 0 0", "3 1 0 3", "20", "30", "40", "1 0 0", "0 1 0", "0 0 1",
    "$EndNodes",
    "$Elements", "5 6 1 6", "0 1 15 1", "1 10", "2 1 2 1", "2 10 30 20", "2 2 2 1", "3 20 30 40",
    "2 3 2 2", "4 10 20 40", "5 10 40 30", "3 1 4 1", "6 10 20 30 40",
    "$EndElements"};

std::string join(const std::vector<std::string>& lines) {
  std::string text;
  for (const auto& l : lines) text += l + "\n";
  return text;
}

// The text with line `number` (from 1) replaced.
std::string with_line(std::vector<std::string> lines, std::size_t number, const std::string& line) {
  lines.at(number - 1) = line;
  return join(lines);
}

std::string error_of(const std::string& text) {
  try {
    parse_gmsh(text, "t.msh");
  } catch (const MeshError& e) {
    return e.what();
  }
  return "no error";
}

void expect_the_tet(const Mesh& mesh, const std::string& third_patch) {
  ASSERT_EQ(mesh.nodes.size(), 4u);
  EXPECT_EQ(mesh.nodes[3], (Point{0, 0, 1}));
  ASSERT_EQ(mesh.tets.size(), 1u);
  EXPECT_EQ(mesh.tets[0], (Tet{0, 1, 2, 3}));
  ASSERT_EQ(mesh.boundary.size(), 4u);
  EXPECT_EQ(mesh.boundary[0].nodes, (std::array<std::uint32_t, 3>{0, 2, 1}));
  EXPECT_EQ(mesh.boundary[3].nodes, (std::array<std::uint32_t, 3>{0, 3, 2}));
  EXPECT_EQ(mesh.patches, (std::vector<std::string>{"bottom", "slanted side", third_patch}));
  const std::uint32_t patch[4] = {0, 1, 2, 2};
  for (int f = 0; f < 4; ++f) EXPECT_EQ(mesh.boundary[f].patch, patch[f]) << "face " << f;
}

TEST(FemGmshReader, ReadsFormat22) { expect_the_tet(parse_gmsh(join(kV2), "t.msh"), "group 3"); }

TEST(FemGmshReader, ReadsFormat41) { expect_the_tet(parse_gmsh(join(kV4), "t.msh"), "surface 3"); }

TEST(FemGmshReader, ReadsAFileAndNamesAMissingOne) {
  const auto path = std::filesystem::path(testing::TempDir()) / "fem_gmsh_tet.msh";
  std::ofstream(path) << join(kV4);
  expect_the_tet(read_gmsh(path), "surface 3");
  std::filesystem::remove(path);
  EXPECT_THROW(read_gmsh(path), io::IoError);
}

TEST(FemGmshReader, RejectsAFileWithoutHeader) {
  EXPECT_EQ(error_of("\nhello\n"), "t.msh:2: expected $MeshFormat, found 'hello': not a Gmsh mesh");
}

TEST(FemGmshReader, RejectsOtherVersions) {
  EXPECT_EQ(error_of(with_line(kV2, 2, "4.0 0 8")),
            "t.msh:2: Gmsh format version 4.0 is not supported (2.2 and 4.1 are)");
}

TEST(FemGmshReader, RejectsOtherFileTypes) {
  EXPECT_EQ(error_of(with_line(kV4, 2, "4.1 2 8")), "t.msh:2: file type 2 is neither 0 (ASCII) nor 1 (binary)");
}

// Builds binary .msh content: text lines and native-order values.
class Bytes {
 public:
  Bytes& line(const std::string& text) {
    bytes_ += text + "\n";
    return *this;
  }
  template <class... T>
  Bytes& put(T... values) {
    (bytes_.append(reinterpret_cast<const char*>(&values), sizeof(T)), ...);
    return *this;
  }
  const std::string& str() const { return bytes_; }

 private:
  std::string bytes_;
};

using Size = std::uint64_t;

Bytes binary_v2_up_to_nodes(int check) {
  Bytes b;
  b.line("$MeshFormat").line("2.2 1 8").put(check).line("").line("$EndMeshFormat");
  b.line("$PhysicalNames").line("3").line("2 1 \"bottom\"").line("2 2 \"slanted side\"").line("3 5 \"fluid\"");
  b.line("$EndPhysicalNames").line("$Nodes").line("4");
  return b;
}

Bytes binary_v2() {
  Bytes b = binary_v2_up_to_nodes(1);
  b.put(10, 0.0, 0.0, 0.0).put(20, 1.0, 0.0, 0.0).put(30, 0.0, 1.0, 0.0).put(40, 0.0, 0.0, 1.0);
  b.line("").line("$EndNodes").line("$Elements").line("7");
  b.put(15, 1, 2).put(1, 0, 1, 10);
  b.put(1, 1, 2).put(2, 0, 1, 10, 20);
  b.put(2, 4, 2).put(3, 1, 1, 10, 30, 20).put(4, 2, 2, 20, 30, 40).put(5, 3, 3, 10, 20, 40).put(6, 3, 4, 10, 40, 30);
  b.put(4, 1, 2).put(7, 5, 1, 10, 20, 30, 40);
  return b.line("").line("$EndElements");
}

TEST(FemGmshReader, ReadsBinaryFormat22) { expect_the_tet(parse_gmsh(binary_v2().str(), "t.msh"), "group 3"); }

TEST(FemGmshReader, ReadsBinaryFormat41) {
  Bytes b;
  b.line("$MeshFormat").line("4.1 1 8").put(1).line("").line("$EndMeshFormat");
  b.line("$PhysicalNames").line("2").line("2 1 \"bottom\"").line("2 2 \"slanted side\"").line("$EndPhysicalNames");
  b.line("$Entities").put(Size{1}, Size{0}, Size{3}, Size{1});
  b.put(1, 0.0, 0.0, 0.0, Size{0});
  for (int surface = 1; surface <= 3; ++surface) {
    b.put(surface, 0.0, 0.0, 0.0, 1.0, 1.0, 1.0);
    surface < 3 ? b.put(Size{1}, surface, Size{0}) : b.put(Size{0}, Size{0});
  }
  b.put(1, 0.0, 0.0, 0.0, 1.0, 1.0, 1.0).put(Size{1}, 5, Size{0}).line("").line("$EndEntities");
  b.line("$Nodes").put(Size{2}, Size{4}, Size{10}, Size{40});
  b.put(0, 1, 0, Size{1}, Size{10}, 0.0, 0.0, 0.0);
  b.put(3, 1, 0, Size{3}, Size{20}, Size{30}, Size{40}, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0);
  b.line("").line("$EndNodes");
  b.line("$Elements").put(Size{5}, Size{6}, Size{1}, Size{6});
  b.put(0, 1, 15, Size{1}, Size{1}, Size{10});
  b.put(2, 1, 2, Size{1}, Size{2}, Size{10}, Size{30}, Size{20});
  b.put(2, 2, 2, Size{1}, Size{3}, Size{20}, Size{30}, Size{40});
  b.put(2, 3, 2, Size{2}, Size{4}, Size{10}, Size{20}, Size{40}, Size{5}, Size{10}, Size{40}, Size{30});
  b.put(3, 1, 4, Size{1}, Size{6}, Size{10}, Size{20}, Size{30}, Size{40});
  b.line("").line("$EndElements");
  expect_the_tet(parse_gmsh(b.str(), "t.msh"), "surface 3");
}

TEST(FemGmshReader, RejectsTruncatedBinaryData) {
  Bytes b = binary_v2_up_to_nodes(1);
  b.put(10, 0.0, 0.0, 0.0).put(20, 1.0, 0.0, 0.0);
  EXPECT_EQ(error_of(b.str()),
            "t.msh: byte " + std::to_string(b.str().size()) + ": the file ends inside the binary $Nodes data");
}

TEST(FemGmshReader, RejectsBinaryDataInTheOtherByteOrder) {
  EXPECT_EQ(error_of(binary_v2_up_to_nodes(1 << 24).str()),
            "t.msh: byte 24: the binary data is in the other byte order; convert the mesh on this machine");
}

TEST(FemGmshReader, RejectsANodeCountThatDoesNotMatch) {
  EXPECT_EQ(error_of(with_line(kV2, 11, "5")), "t.msh:16: $Nodes announces 5 entries but lists 4");
}

TEST(FemGmshReader, RejectsBlocksThatDoNotAddUpToTheElementCount) {
  EXPECT_EQ(error_of(with_line(kV4, 31, "5 5 1 6")), "t.msh:42: $Elements announces 5 elements but its blocks hold 6");
}

TEST(FemGmshReader, RejectsAnUnknownNodeId) {
  EXPECT_EQ(error_of(with_line(kV2, 25, "7 4 2 5 1 10 20 30 99")),
            "t.msh:25: element 7 names node 99, which $Nodes does not list");
}

TEST(FemGmshReader, RejectsHexahedra) {
  EXPECT_EQ(error_of(with_line(kV2, 25, "7 5 2 5 1 10 20 30 40 10 20 30 40")),
            "t.msh:25: element 7 has type 5: only linear tetrahedra (type 4) are supported as volume elements");
}

TEST(FemGmshReader, RejectsQuadraticTriangles) {
  EXPECT_EQ(error_of(with_line(kV2, 22, "4 9 2 2 2 20 30 40 10 20 30")),
            "t.msh:22: element 4 has type 9: only linear triangles (type 2) are supported as boundary elements");
}

TEST(FemGmshReader, RejectsAWrongNodeCountForTheType) {
  EXPECT_EQ(error_of(with_line(kV2, 25, "7 4 2 5 1 10 20 30")), "t.msh:25: element 7 of type 4 needs 4 nodes, found 3");
}

TEST(FemGmshReader, RejectsBadNumbers) {
  EXPECT_EQ(error_of(with_line(kV2, 13, "20 1,5 0 0")), "t.msh:13: expected a number, found '1,5'");
}

TEST(FemGmshReader, RejectsATruncatedFile) {
  std::vector<std::string> cut(kV2.begin(), kV2.end() - 1);
  EXPECT_EQ(error_of(join(cut)), "t.msh:26: $EndElements is missing: the file ends here");
}

TEST(FemGmshReader, RejectsAFileWithoutElements) {
  std::vector<std::string> nodes_only(kV2.begin(), kV2.begin() + 16);
  EXPECT_EQ(error_of(join(nodes_only)), "t.msh: no $Elements section");
}

}  // namespace
}  // namespace hetflow::fem
