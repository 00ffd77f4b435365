#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

#include "hetflow/io/error.hpp"
#include "hetflow/io/vtk_reader.hpp"
#include "hetflow/io/vtk_writer.hpp"
#include "temp_dir.hpp"

namespace hetflow::io {
namespace {

using test::TempDir;

template <class T>
bool bit_equal(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

TEST(IoVtk, ImageData3dRoundTripsBitExact) {
  TempDir dir;
  ImageGrid grid{{5, 4, 3}, {0.1, -2.5, 1e-3}, {0.25, 1.0 / 3.0, 2e-7}};
  const std::size_t n = grid.point_count();
  std::vector<float> rho(n);
  std::vector<double> u(3 * n);
  std::vector<std::int32_t> tag(n);
  std::vector<std::uint8_t> mask(n);
  for (std::size_t i = 0; i < n; ++i) {
    rho[i] = std::sin(static_cast<float>(i)) * 1e-20f;
    tag[i] = static_cast<std::int32_t>(i * i) - 700;
    mask[i] = static_cast<std::uint8_t>(i % 256);
    for (std::size_t c = 0; c < 3; ++c) u[3 * i + c] = std::exp(static_cast<double>(i)) / (static_cast<double>(c) + 3.0);
  }
  rho[7] = std::numeric_limits<float>::quiet_NaN();
  rho[8] = -std::numeric_limits<float>::infinity();
  std::vector<double> pressure(grid.cell_count());
  for (std::size_t i = 0; i < pressure.size(); ++i) pressure[i] = 1.0 / (static_cast<double>(i) + 1.0);
  ASSERT_EQ(pressure.size(), 4u * 3u * 2u);

  const std::vector<Field> points{{"rho", rho}, {"u", u, 3}, {"tag", tag}, {"mask", mask}};
  const std::vector<Field> cells{{"p", pressure}};
  write_vti(dir / "a.vti", grid, points, cells);
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"a.vti"});

  const VtkImageData r = read_vti(dir / "a.vti");
  EXPECT_EQ(r.dims, grid.dims);
  EXPECT_EQ(r.origin, grid.origin);    // exact: attributes are written in round-trip form
  EXPECT_EQ(r.spacing, grid.spacing);
  EXPECT_EQ((r.extent), (std::array<std::int64_t, 6>{0, 4, 0, 3, 0, 2}));
  ASSERT_EQ(r.point_data.size(), 4u);
  ASSERT_EQ(r.cell_data.size(), 1u);
  EXPECT_EQ(r.point_data[0].name, "rho");
  EXPECT_EQ(r.point_data[1].components, 3);
  EXPECT_EQ(r.point_data[1].type, ScalarType::Float64);
  EXPECT_TRUE(bit_equal(r.point_array("rho")->values<float>(), rho));
  EXPECT_TRUE(bit_equal(r.point_array("u")->values<double>(), u));
  EXPECT_EQ(r.point_array("tag")->values<std::int32_t>(), tag);
  EXPECT_EQ(r.point_array("mask")->values<std::uint8_t>(), mask);
  EXPECT_EQ(r.cell_array("p")->values<double>(), pressure);
  EXPECT_THROW((void)r.point_array("rho")->values<double>(), FormatError);
}

TEST(IoVtk, ImageData2dHasFlatExtentAndCellCount) {
  TempDir dir;
  ImageGrid grid{{6, 3, 1}, {0, 0, 0}, {1, 1, 1}};
  EXPECT_EQ(grid.cell_count(), 10u);
  std::vector<double> c(10);
  for (std::size_t i = 0; i < c.size(); ++i) c[i] = static_cast<double>(i) * 0.5;
  const std::vector<Field> cells{{"c", c}};
  write_vti(dir / "b.vti", grid, {}, cells);
  const std::string text = test::slurp(dir / "b.vti");
  EXPECT_NE(text.find("WholeExtent=\"0 5 0 2 0 0\""), std::string::npos);
  EXPECT_NE(text.find("header_type=\"UInt64\""), std::string::npos);
  EXPECT_NE(text.find("<AppendedData encoding=\"raw\">"), std::string::npos);
  const auto r = read_vti(dir / "b.vti");
  EXPECT_EQ(r.dims, (std::array<std::size_t, 3>{6, 3, 1}));
  EXPECT_EQ(r.cell_array("c")->values<double>(), c);
  EXPECT_TRUE(r.point_data.empty());
}

TEST(IoVtk, WrongFieldSizeIsRejectedBeforeWriting) {
  TempDir dir;
  ImageGrid grid{{4, 4, 4}, {}, {1, 1, 1}};
  std::vector<float> v(63);
  const std::vector<Field> f{{"v", v}};
  try {
    write_vti(dir / "c.vti", grid, f);
    FAIL();
  } catch (const IoError& e) {
    EXPECT_NE(std::string(e.what()).find("63 values, expected 64"), std::string::npos) << e.what();
  }
  EXPECT_TRUE(dir.entries().empty());
}

struct MixedMesh {
  std::vector<double> points;
  std::vector<std::int64_t> conn;
  std::vector<CellType> types;
  std::vector<std::int64_t> offsets;
};

// A unit hexahedron, a tetrahedron on top of it, a triangle, a line and a vertex.
MixedMesh mixed_mesh() {
  MixedMesh m;
  m.points = {0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0, 0, 0, 1, 1, 0, 1, 1, 1, 1, 0, 1, 1, 0.5, 0.5, 2, 3, 3, 3};
  m.conn = {0, 1, 2, 3, 4, 5, 6, 7, 4, 5, 6, 8, 4, 5, 8, 8, 9, 9};
  m.types = {CellType::Hexahedron, CellType::Tetra, CellType::Triangle, CellType::Line, CellType::Vertex};
  m.offsets = {8, 12, 15, 17, 18};
  return m;
}

TEST(IoVtk, UnstructuredGridRoundTrips) {
  TempDir dir;
  const auto m = mixed_mesh();
  const UnstructuredMesh mesh{std::span<const double>(m.points), m.conn, m.offsets, m.types};
  ASSERT_EQ(mesh.point_count(), 10u);
  std::vector<double> temp(10);
  for (std::size_t i = 0; i < temp.size(); ++i) temp[i] = 300.0 + 0.1 * static_cast<double>(i);
  std::vector<std::int32_t> region{1, 2, 3, 4, 5};
  const std::vector<Field> pd{{"T", temp}};
  const std::vector<Field> cd{{"region", region}};
  write_vtu(dir / "m.vtu", mesh, pd, cd);

  const VtkUnstructuredGrid r = read_vtu(dir / "m.vtu");
  EXPECT_EQ(r.point_count(), 10u);
  EXPECT_EQ(r.cell_count(), 5u);
  EXPECT_EQ(r.points.values<double>(), m.points);
  EXPECT_EQ(r.connectivity, m.conn);
  EXPECT_EQ(r.offsets, m.offsets);
  EXPECT_EQ(r.types, (std::vector<std::uint8_t>{12, 10, 5, 3, 1}));
  EXPECT_EQ(r.point_array("T")->values<double>(), temp);
  EXPECT_EQ(r.cell_array("region")->values<std::int32_t>(), region);
}

TEST(IoVtk, UnstructuredFloatPointsStayFloat) {
  TempDir dir;
  std::vector<float> pts{0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1};
  std::vector<std::int64_t> conn{0, 1, 2, 3};
  std::vector<CellType> types{CellType::Tetra};
  const auto offsets = uniform_offsets(1, 4);
  write_vtu(dir / "t.vtu", {std::span<const float>(pts), conn, offsets, types}, {});
  const auto r = read_vtu(dir / "t.vtu");
  EXPECT_EQ(r.points.type, ScalarType::Float32);
  EXPECT_EQ(r.points.values<float>(), pts);
}

TEST(IoVtk, InvalidMeshesAreRejected) {
  TempDir dir;
  auto m = mixed_mesh();
  m.conn[3] = 10;  // one past the last point
  EXPECT_THROW(write_vtu(dir / "x.vtu", {std::span<const double>(m.points), m.conn, m.offsets, m.types}, {}), IoError);
  m = mixed_mesh();
  m.offsets[1] = 11;  // a tetrahedron with three nodes
  EXPECT_THROW(write_vtu(dir / "x.vtu", {std::span<const double>(m.points), m.conn, m.offsets, m.types}, {}), IoError);
  m = mixed_mesh();
  m.types.pop_back();
  EXPECT_THROW(write_vtu(dir / "x.vtu", {std::span<const double>(m.points), m.conn, m.offsets, m.types}, {}), IoError);
  EXPECT_TRUE(dir.entries().empty());
}

}  // namespace
}  // namespace hetflow::io
