#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "hetflow/ftle/velocity_io.hpp"
#include "hetflow/io/error.hpp"
#include "hetflow/io/vtk_writer.hpp"

namespace hetflow::ftle {
namespace {

namespace fs = std::filesystem;

class VelocityFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("hetflow_ftle_io_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
                                        "_" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  fs::path write(const std::string& name, const std::string& text) const {
    std::ofstream(dir_ / name, std::ios::binary) << text;
    return dir_ / name;
  }
  template <class T>
  void write_raw(const std::string& name, const std::vector<T>& values) const {
    std::ofstream(dir_ / name, std::ios::binary)
        .write(reinterpret_cast<const char*>(values.data()), static_cast<std::streamsize>(values.size() * sizeof(T)));
  }
  // The message of the FormatError reading `header` throws.
  std::string error_of(const std::string& header_text) const {
    try {
      read_velocity_raw(write("v.yaml", header_text));
    } catch (const io::IoError& e) {
      return e.what();
    }
    return "no error";
  }

  fs::path dir_;
};

// Two float32 snapshots of a 3 x 2 grid: values are read in node order, components together.
TEST_F(VelocityFiles, ReadsARawSeriesThroughItsHeader) {
  std::vector<float> a, b;
  for (int i = 0; i < 12; ++i) {
    a.push_back(0.5f * static_cast<float>(i));
    b.push_back(-static_cast<float>(i));
  }
  write_raw("a.raw", a);
  write_raw("b.raw", b);
  const VelocityGrid g = read_velocity_raw(write("v.yaml",
                                                 "dims: [3, 2]\n"
                                                 "spacing: [0.5, 0.25]\n"
                                                 "origin: [1, -1]\n"
                                                 "type: float32\n"
                                                 "files: [a.raw, b.raw]\n"
                                                 "times: [0.0, 2.5]\n"));
  EXPECT_EQ(g.dimension, 2);
  EXPECT_EQ(g.dims, (std::array<std::size_t, 3>{3, 2, 1}));
  EXPECT_EQ(g.spacing[1], 0.25);
  EXPECT_EQ(g.origin[0], 1.0);
  EXPECT_DOUBLE_EQ(g.upper(0), 2.0);
  ASSERT_EQ(g.snapshots.size(), 2u);
  EXPECT_EQ(g.times, (std::vector<double>{0.0, 2.5}));
  EXPECT_EQ(g.snapshots[0][7], 3.5);
  EXPECT_EQ(g.snapshots[1][11], -11.0);
}

TEST_F(VelocityFiles, SteadyFloat64NeedsNoTimes) {
  std::vector<double> v(2 * 2 * 2 * 3, 0.25);
  write_raw("s.raw", v);
  const VelocityGrid g = read_velocity_raw(write("v.yaml", "dims: [2, 2, 2]\nspacing: 1\nfiles: [s.raw]\n"));
  EXPECT_EQ(g.dimension, 3);
  EXPECT_EQ(g.times, std::vector<double>{0.0});
  EXPECT_EQ(g.snapshots[0].size(), 24u);
}

// Every problem of a header at once, each with file, line, key, value and the expected form.
TEST_F(VelocityFiles, MalformedHeadersNameFileLineKeyAndValue) {
  const std::string all = error_of(
      "dims: [3, 1]\n"
      "spacing: -1\n"
      "type: int8\n"
      "files: [a.raw, b.raw]\n"
      "times: [0.0, 0.0]\n"
      "colour: red\n");
  const std::string v = (dir_ / "v.yaml").string();
  EXPECT_NE(all.find(v + ":1: key 'dims': expected 2 or 3 node counts, each at least 2"), std::string::npos) << all;
  EXPECT_NE(all.find(v + ":2: key 'spacing': expected a positive number or one per axis, got -1"), std::string::npos) << all;
  EXPECT_NE(all.find(v + ":3: key 'type': expected float32 or float64, got int8"), std::string::npos) << all;
  EXPECT_NE(all.find(v + ":5: key 'times': expected strictly increasing times"), std::string::npos) << all;
  EXPECT_NE(all.find(v + ":6: unknown key 'colour'"), std::string::npos) << all;

  EXPECT_NE(error_of("dims: [4, 4]\nfiles: [a.raw]\n").find("missing key 'spacing'"), std::string::npos);
  EXPECT_NE(error_of("dims: [4, 4]\nspacing: 1\nfiles: [a.raw, b.raw]\n").find("several files need their times"),
            std::string::npos);
  EXPECT_NE(error_of("dims: [4, 4]\nspacing: 1\nfiles: [a.raw, b.raw]\ntimes: [0, 1, 2]\n")
                .find("3 times for 2 files: expected one time per file"),
            std::string::npos);
  EXPECT_NE(error_of("dims: [4, 4]\nspacing: 1\nfiles: [a.raw]\norigin: [0, 0, 0]\n").find("key 'origin': expected 2 numbers"),
            std::string::npos);
  EXPECT_NE(error_of("dims: [4, 4\n").find(":"), std::string::npos);  // YAML syntax error, located
}

TEST_F(VelocityFiles, RawFilesOfTheWrongSizeOrWithNonFiniteValuesAreRejected) {
  const std::string header = "dims: [2, 2]\nspacing: 1\nfiles: [a.raw]\n";
  EXPECT_NE(error_of(header).find("cannot read"), std::string::npos);  // missing file
  write_raw("a.raw", std::vector<double>(7, 0.0));
  EXPECT_NE(error_of(header).find("holds 56 bytes, but"), std::string::npos) << error_of(header);
  EXPECT_NE(error_of(header).find("needs 64 bytes"), std::string::npos);
  std::vector<double> v(8, 0.0);
  v[5] = std::nan("");  // node 2 = (0, 1), component v
  write_raw("a.raw", v);
  EXPECT_NE(error_of(header).find("node (0, 1), component v is nan: expected finite velocities"), std::string::npos)
      << error_of(header);
}

// A .vti series: 3-component vectors on a 2D grid (VTK's habit) give 2D velocity.
TEST_F(VelocityFiles, ReadsAVtiSeries) {
  io::ImageGrid grid;
  grid.dims = {4, 3, 1};
  grid.origin = {0.5, 0.0, 0.0};
  grid.spacing = {0.1, 0.2, 1.0};
  std::vector<fs::path> files;
  for (int k = 0; k < 2; ++k) {
    std::vector<float> u;
    for (std::size_t n = 0; n < grid.point_count(); ++n) u.insert(u.end(), {static_cast<float>(n), static_cast<float>(k), 9.0f});
    files.push_back(dir_ / ("v" + std::to_string(k) + ".vti"));
    const io::Field field("velocity", u, 3);
    io::write_vti(files.back(), grid, std::span<const io::Field>(&field, 1));
  }
  const VelocityGrid g = read_velocity_vti(files, {1.0, 2.0});
  EXPECT_EQ(g.dimension, 2);
  EXPECT_EQ(g.dims, grid.dims);
  EXPECT_EQ(g.origin[0], 0.5);
  ASSERT_EQ(g.snapshots.size(), 2u);
  EXPECT_EQ(g.snapshots[0].size(), 24u);
  EXPECT_EQ(g.snapshots[0][2 * 5], 5.0);
  EXPECT_EQ(g.snapshots[1][2 * 5 + 1], 1.0);

  EXPECT_THROW(read_velocity_vti(files, {1.0}), io::FormatError);
  try {
    read_velocity_vti(files, {0.0, 1.0}, "pressure");
    FAIL() << "no error";
  } catch (const io::FormatError& e) {
    EXPECT_NE(std::string(e.what()).find("no point-data array 'pressure'"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("(arrays: 'velocity')"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace hetflow::ftle
