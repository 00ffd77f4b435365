#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "hetflow/io/error.hpp"
#include "hetflow/io/vtk_writer.hpp"
#include "hetflow/lbm/geometry.hpp"
#include "hetflow/lbm/geometry_generators.hpp"
#include "hetflow/lbm/geometry_io.hpp"

namespace hetflow::lbm {
namespace {

namespace fs = std::filesystem;

const fs::path data_dir = fs::path(__FILE__).parent_path() / "data";

class TempDir {
 public:
  TempDir() {
    std::string pattern = (fs::temp_directory_path() / "hetflow-lbm-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    path_ = pattern;
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  fs::path operator/(const std::string& name) const { return path_ / name; }

 private:
  fs::path path_;
};

void spit(const fs::path& p, const std::string& content) {
  std::ofstream out(p, std::ios::binary);
  out << content;
}

// The raw bytes of a mask: solid nodes get `solid_value`, fluid ones `fluid_value`, little-endian.
std::string encode(const Geometry& g, std::size_t width, bool zyx, std::int64_t solid_value, std::int64_t fluid_value) {
  std::string out;
  const auto put = [&](std::size_t x, std::size_t y, std::size_t z) {
    auto v = static_cast<std::uint64_t>(g.solid(x, y, z) ? solid_value : fluid_value);
    for (std::size_t b = 0; b < width; ++b, v >>= 8) out.push_back(static_cast<char>(v & 0xFFu));
  };
  if (zyx) {
    for (std::size_t x = 0; x < g.nx(); ++x)
      for (std::size_t y = 0; y < g.ny(); ++y)
        for (std::size_t z = 0; z < g.nz(); ++z) put(x, y, z);
  } else {
    for (std::size_t z = 0; z < g.nz(); ++z)
      for (std::size_t y = 0; y < g.ny(); ++y)
        for (std::size_t x = 0; x < g.nx(); ++x) put(x, y, z);
  }
  return out;
}

std::string quoted(const fs::path& p) {
  std::string q(1, '\'');
  q.append(p.string()).push_back('\'');
  return q;
}

template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const io::IoError& e) {
    return e.what();
  }
  return "(no error)";
}

#define EXPECT_HAS(text, part) EXPECT_NE((text).find(part), std::string::npos) << "message: " << (text) << "\nmissing: " << (part)

TEST(LbmGeometryIo, ReadsTheFixture) {
  const Geometry g = load_geometry(data_dir / "sample.yaml");
  ASSERT_EQ(g.dims(), (std::array<std::size_t, 3>{4, 3, 2}));
  EXPECT_EQ(g.fluid_count(), 8u);  // value 3 is not listed as solid
  for (std::size_t z = 0; z < 2; ++z)
    for (std::size_t x = 0; x < 4; ++x) {
      EXPECT_TRUE(g.solid(x, 0, z));
      EXPECT_FALSE(g.solid(x, 1, z));
      EXPECT_TRUE(g.solid(x, 2, z));
    }
  EXPECT_EQ(g.spacing, (std::array<double, 3>{0.5, 0.5, 0.5}));
}

TEST(LbmGeometryIo, RawRoundTripsInEveryTypeAndOrder) {
  TempDir dir;
  const Geometry g = channel_with_cylinder(13, 11, 5, 6, 5, 3);
  struct Variant {
    const char* type;
    std::size_t width;
    const char* order;
    const char* key;
    std::int64_t solid, fluid;
  };
  for (const Variant v : {Variant{"uint8", 1, "xyz", "solid: [255]", 255, 0},
                          Variant{"uint16", 2, "zyx", "solid: [1000, 2]", 1000, 7},
                          Variant{"int32", 4, "xyz", "fluid: [-70000]", 5, -70000}}) {
    spit(dir / "m.raw", encode(g, v.width, std::string(v.order) == "zyx", v.solid, v.fluid));
    spit(dir / "m.yml", std::string("file: m.raw\ndims: [13, 11, 5]\ntype: ") + v.type + "\n" + v.key +
                            "\norder: " + v.order + "\nspacing: [1, 2, 3]\n");
    const Geometry back = load_geometry(dir / "m.yml");
    EXPECT_EQ(back.codes().size(), g.codes().size());
    EXPECT_TRUE(std::equal(back.codes().begin(), back.codes().end(), g.codes().begin())) << v.type;
    EXPECT_EQ(back.spacing, (std::array<double, 3>{1, 2, 3}));
  }
}

TEST(LbmGeometryIo, HeaderErrorsNameFileLineKeyAndExpectation) {
  const auto header_error = [](const std::string& text) {
    return error_of([&] { parse_raw_header(text, "case/sample.yaml"); });
  };
  std::string e = header_error("file: a.raw\ndims: [4, 3, 1.5]\ntype: uint8\nsolid: [1]\n");
  EXPECT_HAS(e, "case/sample.yaml:2: key 'dims': expected three positive integers");
  EXPECT_HAS(e, "1.5");
  e = header_error("file: a.raw\ndims: [4, 0, 2]\ntype: uint8\nsolid: [1]\n");
  EXPECT_HAS(e, "case/sample.yaml:2: key 'dims'");
  e = header_error("file: a.raw\ndims: [4, 3]\ntype: uint8\nsolid: [1]\n");
  EXPECT_HAS(e, "key 'dims'");
  e = header_error("file: a.raw\ndims: [4, 3, 2]\ntype: float32\nsolid: [1]\n");
  EXPECT_HAS(e, "case/sample.yaml:3: key 'type': expected uint8, uint16 or int32, got float32");
  e = header_error("file: a.raw\ntype: uint8\nsolid: [1]\ncolour: red\n");
  EXPECT_HAS(e, "case/sample.yaml: missing key 'dims'");
  EXPECT_HAS(e, "case/sample.yaml:4: unknown key 'colour'");
  e = header_error("file: a.raw\ndims: [4, 3, 2]\nsolid: [1]\nfluid: [0]\n");
  EXPECT_HAS(e, "case/sample.yaml:4: key 'fluid': given together with key 'solid' (line 3)");
  e = header_error("file: a.raw\ndims: [4, 3, 2]\nsolid: [one]\n");
  EXPECT_HAS(e, "case/sample.yaml:3: key 'solid'");
  e = header_error("file: a.raw\ndims: [4, 3, 2]\nsolid: [256]\n");
  EXPECT_HAS(e, "case/sample.yaml:3: key 'solid': expected values within uint8's range 0..255");
  e = header_error("file: a.raw\ndims: [4, 3, 2]\nsolid: [1]\nspacing: -1\n");
  EXPECT_HAS(e, "case/sample.yaml:4: key 'spacing'");
  e = header_error("file: a.raw\ndims: [4, 3, 2]\nsolid: [1]\norder: yxz\n");
  EXPECT_HAS(e, "case/sample.yaml:4: key 'order'");
  e = header_error("file: a.raw\ndims: [4, 3, 2\n");
  EXPECT_HAS(e, "case/sample.yaml:");
  e = header_error("file: a.raw\ndims: [100000000, 100000000, 100000000]\nsolid: [1]\n");
  EXPECT_HAS(e, "key 'dims'");
  e = header_error("- 1\n- 2\n");
  EXPECT_HAS(e, "case/sample.yaml:1: expected a YAML map");
}

TEST(LbmGeometryIo, FileErrorsNameBothFilesAndSizes) {
  TempDir dir;
  const std::string header = "file: m.raw\ndims: [4, 3, 2]\ntype: uint16\nsolid: [1]\n";
  spit(dir / "m.yaml", header);
  std::string e = error_of([&] { read_raw_geometry(dir / "m.yaml"); });
  EXPECT_HAS(e, (dir / "m.yaml").string() + ":1: key 'file'");
  EXPECT_HAS(e, (dir / "m.raw").string());

  spit(dir / "m.raw", std::string(47, '\0'));
  e = error_of([&] { read_raw_geometry(dir / "m.yaml"); });
  EXPECT_HAS(e, quoted(dir / "m.raw").append(" holds 47 bytes"));
  EXPECT_HAS(e, quoted(dir / "m.yaml").append(" (dims 4x3x2, type uint16) needs 48 bytes"));

  std::string all_solid;
  for (int i = 0; i < 24; ++i) all_solid += std::string("\x01\x00", 2);
  spit(dir / "m.raw", all_solid);
  e = error_of([&] { read_raw_geometry(dir / "m.yaml"); });
  EXPECT_HAS(e, "m.yaml");
  EXPECT_HAS(e, "has no fluid node");

  e = error_of([&] { load_geometry(dir / "absent.yaml"); });
  EXPECT_HAS(e, "absent.yaml");
  e = error_of([&] { load_geometry(dir / "m.raw"); });
  EXPECT_HAS(e, "unknown geometry file type '.raw'");
}

TEST(LbmGeometryIo, DecodesFromMemory) {
  const RawHeader h = parse_raw_header("file: x.raw\ndims: [2, 1, 1]\nfluid: [9]\n", "mem.yaml");
  const std::vector<std::uint8_t> bytes{9, 4};
  const Geometry g = decode_raw_voxels(h, bytes, "mem.yaml", "x.raw");
  EXPECT_FALSE(g.solid(0, 0, 0));
  EXPECT_TRUE(g.solid(1, 0, 0));
  const std::string e = error_of([&] { decode_raw_voxels(h, std::vector<std::uint8_t>{9}, "mem.yaml", "x.raw"); });
  EXPECT_HAS(e, "'x.raw' holds 1 bytes, but 'mem.yaml' (dims 2x1x1, type uint8) needs 2 bytes");
}

TEST(LbmGeometryIo, VtiRoundTripKeepsCodesAndSpacing) {
  TempDir dir;
  Geometry g = channel_with_sphere(12, 10, 9, {6, 5, 4}, 3);
  g.set(0, 4, 0, NodeType::inlet);
  g.set(11, 4, 0, NodeType::outlet);
  g.spacing = {0.25, 0.5, 2.0};
  write_geometry_vti(dir / "g.vti", g);
  const Geometry back = load_geometry(dir / "g.vti");
  EXPECT_EQ(back, g);
}

TEST(LbmGeometryIo, VtiMaskFromAnyArray) {
  TempDir dir;
  io::ImageGrid grid;
  grid.dims = {4, 3, 2};
  std::vector<float> porosity(24, 0.0f), velocity(72, 0.0f);
  porosity[5] = 0.5f;
  std::vector<std::int32_t> cells(3 * 2 * 1, 0);
  cells[1] = -2;
  const std::vector<io::Field> points{io::Field("velocity", velocity, 3), io::Field("solid", porosity)};
  const std::vector<io::Field> cell_fields{io::Field("cells", cells)};
  io::write_vti(dir / "m.vti", grid, points, cell_fields);

  Geometry g = read_vti_geometry(dir / "m.vti", "solid");
  EXPECT_EQ(g.fluid_count(), 23u);
  EXPECT_TRUE(g.solid(1, 1, 0));
  g = read_vti_geometry(dir / "m.vti", "cells");
  ASSERT_EQ(g.dims(), (std::array<std::size_t, 3>{3, 2, 1}));
  EXPECT_TRUE(g.solid(1, 0, 0));
  EXPECT_EQ(g.fluid_count(), 5u);

  std::string e = error_of([&] { read_vti_geometry(dir / "m.vti"); });  // first array: 3 components
  EXPECT_HAS(e, "m.vti': array 'velocity' has 3 components");
  e = error_of([&] { read_vti_geometry(dir / "m.vti", "mask"); });
  EXPECT_HAS(e, "no data array 'mask'");
  EXPECT_HAS(e, "'velocity', 'solid', 'cells'");

  std::fill(porosity.begin(), porosity.end(), 1.0f);
  io::write_vti(dir / "m.vti", grid, std::vector<io::Field>{io::Field("solid", porosity)});
  e = error_of([&] { load_geometry(dir / "m.vti"); });
  EXPECT_HAS(e, "m.vti': the mask in array 'solid' has no fluid node");
}

}  // namespace
}  // namespace hetflow::lbm
