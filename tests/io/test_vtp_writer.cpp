#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "hetflow/io/error.hpp"
#include "hetflow/io/vtk_writer.hpp"
#include "hetflow/io/xml_parser.hpp"
#include "temp_dir.hpp"

namespace hetflow::io {
namespace {

using test::TempDir;

// A raw appended block by its DataArray's offset: UInt64 byte count, then the bytes.
template <class T>
std::vector<T> block(const XmlDocument& doc, const XmlElement& array) {
  const std::size_t offset = std::stoull(*array.attribute("offset"));
  std::uint64_t bytes = 0;
  EXPECT_LE(offset + sizeof bytes, doc.raw_data.size());
  std::memcpy(&bytes, doc.raw_data.data() + offset, sizeof bytes);
  EXPECT_EQ(bytes % sizeof(T), 0u);
  EXPECT_LE(offset + sizeof bytes + bytes, doc.raw_data.size());
  std::vector<T> out(bytes / sizeof(T));
  if (bytes) std::memcpy(out.data(), doc.raw_data.data() + offset + sizeof bytes, bytes);
  return out;
}

const XmlElement* array_named(const XmlElement& section, std::string_view name) {
  for (const XmlElement* a : section.children_named("DataArray"))
    if (*a->attribute("Name") == name) return a;
  return nullptr;
}

template <class P>
void write_and_check(const std::string& point_type) {
  TempDir dir;
  // Three lines of 3, 2 and 4 points.
  std::vector<P> points;
  std::vector<double> time;
  for (int i = 0; i < 9; ++i) {
    points.insert(points.end(), {static_cast<P>(0.5 * i), static_cast<P>(-i), static_cast<P>(0)});
    time.push_back(0.25 * i);
  }
  const std::vector<std::int64_t> connectivity{0, 1, 2, 3, 4, 5, 6, 7, 8};
  const std::vector<std::int64_t> offsets{3, 5, 9};
  const std::vector<std::int32_t> seed{10, 11, 12};
  const PolyLines lines{std::span<const P>(points), connectivity, offsets};
  const std::vector<Field> point_data{{"time", time}};
  const std::vector<Field> cell_data{{"seed", seed}};
  write_vtp(dir / "p.vtp", lines, point_data, cell_data);
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"p.vtp"});  // atomic: no temporary left

  const std::string text = test::slurp(dir / "p.vtp");
  const XmlDocument doc = parse_xml(text, "p.vtp");
  EXPECT_EQ(doc.root.name, "VTKFile");
  EXPECT_EQ(*doc.root.attribute("type"), "PolyData");
  EXPECT_EQ(*doc.root.attribute("header_type"), "UInt64");
  ASSERT_TRUE(doc.has_raw_data);
  const XmlElement* piece = doc.root.child("PolyData")->child("Piece");
  ASSERT_NE(piece, nullptr);
  EXPECT_EQ(*piece->attribute("NumberOfPoints"), "9");
  EXPECT_EQ(*piece->attribute("NumberOfLines"), "3");
  for (const char* zero : {"NumberOfVerts", "NumberOfStrips", "NumberOfPolys"}) EXPECT_EQ(*piece->attribute(zero), "0");

  const XmlElement* pts = piece->child("Points")->child("DataArray");
  EXPECT_EQ(*pts->attribute("type"), point_type);
  EXPECT_EQ(*pts->attribute("NumberOfComponents"), "3");
  EXPECT_EQ(block<P>(doc, *pts), points);
  const XmlElement* cells = piece->child("Lines");
  ASSERT_NE(cells, nullptr);
  EXPECT_EQ(block<std::int64_t>(doc, *array_named(*cells, "connectivity")), connectivity);
  EXPECT_EQ(block<std::int64_t>(doc, *array_named(*cells, "offsets")), offsets);
  const XmlElement* t = array_named(*piece->child("PointData"), "time");
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(*t->attribute("type"), "Float64");
  EXPECT_EQ(*piece->child("PointData")->attribute("Scalars"), "time");
  EXPECT_EQ(block<double>(doc, *t), time);
  EXPECT_EQ(block<std::int32_t>(doc, *array_named(*piece->child("CellData"), "seed")), seed);
  // Sizes: the blocks fill the appended section exactly, up to its closing tags.
  const std::size_t blocks = 5 * 8 + points.size() * sizeof(P) + 9 * 8 /* time */ + 9 * 8 /* connectivity */ +
                              3 * 8 /* offsets */ + 3 * 4 /* seed */;
  EXPECT_EQ(doc.raw_data.size(), blocks + std::string("\n  </AppendedData>\n</VTKFile>\n").size());
}

TEST(IoVtp, PolyLinesFloat64) { write_and_check<double>("Float64"); }
TEST(IoVtp, PolyLinesFloat32) { write_and_check<float>("Float32"); }

TEST(IoVtp, RejectsBadLinesBeforeWriting) {
  TempDir dir;
  const std::vector<double> points(9, 0.0);  // 3 points
  const std::vector<std::int64_t> conn{0, 1, 2};
  const auto fails = [&](std::vector<std::int64_t> connectivity, std::vector<std::int64_t> offsets,
                         const std::string& what) {
    const PolyLines lines{std::span<const double>(points), connectivity, offsets};
    try {
      write_vtp(dir / "bad.vtp", lines, {});
      ADD_FAILURE() << "no error for " << what;
    } catch (const IoError& e) {
      EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
    }
  };
  fails({0, 1, 2}, {1, 3}, "line 0 spans connectivity [0, 1)");
  fails({0, 1, 3}, {3}, "line 0 refers to point 3 of 3");
  fails({0, 1, 2}, {2}, "connectivity holds 3 entries but the lines use 2");
  fails({0, 1, 2}, {2, 4}, "line 1 spans connectivity [2, 4) of 3");
  const std::vector<double> time(2, 0.0);
  const std::vector<Field> data{{"time", time}};
  EXPECT_THROW(write_vtp(dir / "bad.vtp", PolyLines{std::span<const double>(points), conn, std::vector<std::int64_t>{3}}, data),
               IoError);
  EXPECT_TRUE(dir.entries().empty());
}

}  // namespace
}  // namespace hetflow::io
