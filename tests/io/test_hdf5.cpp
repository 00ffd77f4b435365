#include <gtest/gtest.h>

#include <cmath>

#include "hetflow/io/error.hpp"
#include "hetflow/io/hdf5_reader.hpp"
#include "hetflow/io/hdf5_xdmf.hpp"
#include "hetflow/io/xml_parser.hpp"
#include "temp_dir.hpp"

namespace hetflow::io {
namespace {

using test::TempDir;

TEST(IoHdf5, FieldsRoundTripAndXdmfDescribesThem) {
  TempDir dir;
  const ImageGrid grid{{4, 3, 2}, {1.0, 2.0, 3.0}, {0.5, 0.25, 0.125}};
  std::vector<float> rho(grid.point_count());
  std::vector<double> u(3 * grid.point_count());
  for (std::size_t i = 0; i < rho.size(); ++i) rho[i] = 0.5f * static_cast<float>(i);
  for (std::size_t i = 0; i < u.size(); ++i) u[i] = std::sqrt(static_cast<double>(i));
  std::vector<double> p(grid.cell_count(), 7.25);
  const std::vector<Field> pd{{"rho", rho}, {"u", u, 3}};
  const std::vector<Field> cd{{"p", p}};
  if (!hdf5_available()) {
    EXPECT_THROW(write_hdf5_xdmf(dir / "flow", grid, pd, cd), IoError);
    return;
  }
  write_hdf5_xdmf(dir / "flow", grid, pd, cd);
  EXPECT_EQ(dir.entries(), (std::vector<std::string>{"flow.h5", "flow.xmf"}));

  const auto r = read_hdf5_dataset(dir / "flow.h5", "/rho");
  EXPECT_EQ(r.dims, (std::vector<std::size_t>{2, 3, 4}));
  for (std::size_t i = 0; i < rho.size(); ++i) ASSERT_EQ(r.values[i], static_cast<double>(rho[i]));
  const auto ru = read_hdf5_dataset(dir / "flow.h5", "/u");
  EXPECT_EQ(ru.dims, (std::vector<std::size_t>{2, 3, 4, 3}));
  EXPECT_EQ(ru.values, u);
  const auto rp = read_hdf5_dataset(dir / "flow.h5", "/p");
  EXPECT_EQ(rp.dims, (std::vector<std::size_t>{1, 2, 3}));
  EXPECT_THROW(read_hdf5_dataset(dir / "flow.h5", "/nope"), IoError);

  const std::string xmf = test::slurp(dir / "flow.xmf");
  const auto doc = parse_xml(xmf, "flow.xmf");
  const XmlElement* grid_el = doc.root.child("Domain")->child("Grid");
  ASSERT_NE(grid_el, nullptr);
  EXPECT_EQ(*grid_el->child("Topology")->attribute("Dimensions"), "2 3 4");
  EXPECT_EQ(*grid_el->child("Topology")->attribute("TopologyType"), "3DCoRectMesh");
  const auto items = grid_el->child("Geometry")->children_named("DataItem");
  ASSERT_EQ(items.size(), 2u);
  EXPECT_EQ(items[0]->text, "3 2 1");          // origin, z first
  EXPECT_EQ(items[1]->text, "0.125 0.25 0.5");  // spacing, z first
  const auto attrs = grid_el->children_named("Attribute");
  ASSERT_EQ(attrs.size(), 3u);
  EXPECT_EQ(*attrs[1]->attribute("AttributeType"), "Vector");
  EXPECT_EQ(attrs[1]->child("DataItem")->text, "flow.h5:/u");
  EXPECT_EQ(*attrs[2]->attribute("Center"), "Cell");
  EXPECT_EQ(*attrs[2]->child("DataItem")->attribute("Dimensions"), "1 2 3");
}

// A flat grid with cell data alone is described one cell thick, so that readers counting cells as nodes − 1
// per axis (VTK's XDMF 2 reader) find its cells; its datasets keep the shape (1, ny, nx).
TEST(IoHdf5, AFlatGridOfCellDataIsOneCellThick) {
  TempDir dir;
  const ImageGrid grid{{4, 3, 1}, {}, {0.5, 0.5, 0.5}};
  const std::vector<double> p(grid.cell_count(), 1.5);
  ASSERT_EQ(p.size(), 6u);
  const std::vector<Field> cd{{"p", p}};
  if (!hdf5_available()) return;
  write_hdf5_xdmf(dir / "flat", grid, {}, cd);
  const auto doc = parse_xml(test::slurp(dir / "flat.xmf"), "flat.xmf");
  const XmlElement* grid_el = doc.root.child("Domain")->child("Grid");
  ASSERT_NE(grid_el, nullptr);
  EXPECT_EQ(*grid_el->child("Topology")->attribute("Dimensions"), "2 3 4");
  EXPECT_EQ(*grid_el->children_named("Attribute")[0]->child("DataItem")->attribute("Dimensions"), "1 2 3");
  EXPECT_EQ(read_hdf5_dataset(dir / "flat.h5", "/p").dims, (std::vector<std::size_t>{1, 2, 3}));
}

// Hdf5Reader on a file the writer made: the root group's datasets, shapes, values with the stored
// type's rounding (float32: 2^-24, float64: 2^-53), absent attributes and dimension lists, and errors
// that name the file.
TEST(IoHdf5, ReaderListsDatasetsShapesAndAttributes) {
  TempDir dir;
  const ImageGrid grid{{3, 2, 1}, {}, {1, 1, 1}};
  const std::vector<float> rho{1, 2, 3, 4, 5, 6.5f};
  const std::vector<double> u(12, 0.125);
  const std::vector<Field> pd{{"rho", rho}, {"u", u, 2}};
  if (!hdf5_available()) {
    EXPECT_THROW(Hdf5Reader(dir / "none.h5"), IoError);
    return;
  }
  write_hdf5_xdmf(dir / "f", grid, pd);
  const Hdf5Reader r(dir / "f.h5");
  EXPECT_EQ(r.datasets(), (std::vector<std::string>{"rho", "u"}));
  EXPECT_TRUE(r.has_dataset("u"));
  EXPECT_FALSE(r.has_dataset("w"));
  EXPECT_FALSE(r.has_dataset("a/b"));
  EXPECT_EQ(r.shape("u"), (std::vector<std::size_t>{1, 2, 3, 2}));
  const Hdf5Dataset d = r.read("rho");
  EXPECT_EQ(d.values[5], 6.5);
  EXPECT_EQ(d.rounding, std::ldexp(1.0, -24));
  EXPECT_EQ(r.read("u").rounding, std::ldexp(1.0, -53));
  EXPECT_FALSE(r.number_attribute("u", "_FillValue").has_value());
  EXPECT_TRUE(r.dimensions("u").empty());
  try {
    (void)r.shape("w");
    FAIL() << "no error";
  } catch (const FormatError& e) {
    EXPECT_NE(std::string(e.what()).find("cannot read '" + (dir / "f.h5").string() + "': no dataset 'w'"),
              std::string::npos) << e.what();
  }
  EXPECT_THROW(Hdf5Reader(dir / "f.xmf"), FormatError);  // XML, not HDF5
}

TEST(IoHdf5, TemporalSeriesListsEveryStep) {
  if (!hdf5_available()) GTEST_SKIP() << "built without HDF5";
  TempDir dir;
  XdmfSeries series(dir / "series.xmf");
  const ImageGrid grid{{3, 3, 1}, {}, {1, 1, 1}};
  std::vector<double> v(9);
  for (int step = 0; step < 3; ++step) {
    for (std::size_t i = 0; i < v.size(); ++i) v[i] = step * 100.0 + static_cast<double>(i);
    const std::vector<Field> pd{{"v", v}};
    const auto h5 = series.add(static_cast<std::size_t>(10 * step), 0.5 * step, grid, pd);
    EXPECT_EQ(read_hdf5_dataset(h5, "/v").values, v);
    const std::string xmf = test::slurp(dir / "series.xmf");
    const auto doc = parse_xml(xmf, "series.xmf");
    const XmlElement* coll = doc.root.child("Domain")->child("Grid");
    EXPECT_EQ(*coll->attribute("CollectionType"), "Temporal");
    const auto grids = coll->children_named("Grid");
    ASSERT_EQ(grids.size(), static_cast<std::size_t>(step + 1));
    EXPECT_EQ(*grids.back()->child("Time")->attribute("Value"), step == 0 ? "0" : step == 1 ? "0.5" : "1");
  }
  // Named by the step numbers given, as the .vti series are.
  EXPECT_EQ(dir.entries(), (std::vector<std::string>{"series.xmf", "series_000000.h5", "series_000010.h5",
                                                     "series_000020.h5"}));
}

TEST(IoHdf5, BadFieldNamesAreRejected) {
  TempDir dir;
  std::vector<double> v(8);
  const std::vector<Field> pd{{"a/b", v}};
  EXPECT_THROW(write_hdf5_xdmf(dir / "x", {{2, 2, 2}, {}, {1, 1, 1}}, pd), IoError);
  EXPECT_TRUE(dir.entries().empty());
}

}  // namespace
}  // namespace hetflow::io
