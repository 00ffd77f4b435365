// ftle::read_velocity_hdf5: gridded velocity from HDF5 / NetCDF-4 files written here through the HDF5
// C API (hdf5_velocity_file.hpp) from analytic fields, read back exactly (tolerance 0: the reader only
// converts float32 to double, which is exact), and malformed files refused with the file and problem.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <numeric>
#include <optional>
#include <string>
#include <vector>
#include <unistd.h>

#include "hdf5_velocity_file.hpp"
#include "hetflow/ftle/velocity_io.hpp"
#include "hetflow/io/error.hpp"
#include "hetflow/io/hdf5_xdmf.hpp"

namespace hetflow::ftle {
namespace {

namespace fs = std::filesystem;

#ifndef HETFLOW_HAVE_HDF5
TEST(VelocityHdf5, WithoutHdf5FilesAreRefused) {
  try {
    read_velocity_hdf5("flow.h5");
    FAIL() << "no error";
  } catch (const io::IoError& e) {
    EXPECT_NE(std::string(e.what()).find("'flow.h5': hetflow was built without HDF5"), std::string::npos) << e.what();
  }
}
#else

class VelocityHdf5 : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!io::hdf5_available()) GTEST_SKIP() << "built without HDF5";
    dir_ = fs::temp_directory_path() / ("hetflow_ftle_h5_" + std::to_string(::getpid()) + "_" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // The message read_velocity_hdf5 throws for `file`, which must name the file.
  static std::string error_of(const fs::path& file, const Hdf5VelocityOptions& options = {}) {
    try {
      read_velocity_hdf5(file, options);
    } catch (const io::IoError& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find("'" + file.string() + "'"), std::string::npos) << what;
      return what;
    }
    return "no error";
  }

  fs::path dir_;
};

// The double gyre (A = 0.1, eps = 0.25, omega = 2 pi / 10), written from its stream function here.
std::array<double, 3> gyre(const std::array<double, 3>& x, double t) {
  const double a = 0.25 * std::sin(0.2 * M_PI * t), b = 1 - 2 * a, f = a * x[0] * x[0] + b * x[0];
  return {-0.1 * M_PI * std::sin(M_PI * f) * std::cos(M_PI * x[1]),
          0.1 * M_PI * std::cos(M_PI * f) * std::sin(M_PI * x[1]) * (2 * a * x[0] + b), 0.0};
}

// The unsteady ABC flow, A(t) = sqrt 3 + 0.1 sin t.
std::array<double, 3> abc(const std::array<double, 3>& x, double t) {
  const double a = std::sqrt(3.0) + 0.1 * std::sin(t), b = std::sqrt(2.0), c = 1.0;
  return {a * std::sin(x[2]) + c * std::cos(x[1]), b * std::sin(x[0]) + a * std::cos(x[2]),
          c * std::sin(x[1]) + b * std::cos(x[0])};
}

// What a float32 file holds of a grid sampled in double.
VelocityGrid rounded_to_float(VelocityGrid g) {
  std::vector<std::vector<double>> rounded;
  for (const auto snap : g.snapshots) {
    rounded.emplace_back();
    for (const double v : snap) rounded.back().push_back(static_cast<double>(static_cast<float>(v)));
  }
  g.hold(std::move(rounded));
  return g;
}

void expect_same_grid(const VelocityGrid& read, const VelocityGrid& expected) {
  EXPECT_EQ(read.dimension, expected.dimension);
  EXPECT_EQ(read.dims, expected.dims);
  EXPECT_EQ(read.origin, expected.origin);
  EXPECT_EQ(read.spacing, expected.spacing);
  EXPECT_EQ(read.times, expected.times);
  ASSERT_EQ(read.snapshots.size(), expected.snapshots.size());
  for (std::size_t k = 0; k < read.snapshots.size(); ++k) EXPECT_TRUE(std::ranges::equal(read.snapshots[k], expected.snapshots[k])) << k;
}

// Origins, spacings and times are binary fractions, exact in float32 too.
TEST_F(VelocityHdf5, TwoDimensionalSeriesReadsBackExactly) {
  const VelocityGrid g = sample_on_grid(2, {65, 33, 1}, {-0.5, 0.25, 0}, {0.03125, 0.03125, 1}, {0, 0.5, 1, 1.5}, gyre);
  for (const bool single : {false, true}) {
    const fs::path file = dir_ / (single ? "gyre32.h5" : "gyre64.h5");
    test::write_velocity_h5(file, g, single);
    expect_same_grid(read_velocity_hdf5(file), single ? rounded_to_float(g) : g);
  }
}

TEST_F(VelocityHdf5, ThreeDimensionalSeriesAndSteadySnapshotReadBackExactly) {
  const VelocityGrid g = sample_on_grid(3, {9, 8, 7}, {0, 0.5, -1}, {0.25, 0.5, 0.125}, {0, 0.25, 0.5}, abc);
  for (const bool single : {false, true}) {
    const fs::path file = dir_ / (single ? "abc32.nc" : "abc64.hdf5");
    test::write_velocity_h5(file, g, single);
    expect_same_grid(read_velocity_hdf5(file), single ? rounded_to_float(g) : g);
  }
  // No time axis: one steady snapshot, at time 0.
  VelocityGrid steady = sample_on_grid(3, {9, 8, 7}, {0, 0.5, -1}, {0.25, 0.5, 0.125}, {0}, abc);
  test::write_velocity_h5(dir_ / "steady.h5", steady, false, true);
  expect_same_grid(read_velocity_hdf5(dir_ / "steady.h5"), steady);
}

// A NetCDF-4 layout: named dimensions (DIMENSION_LIST) with coordinate variables of other names, chosen
// components, a fill value that no node holds, CF packing (value = stored * scale_factor + add_offset)
// and a dimension without a coordinate variable that must not be taken for one.
TEST_F(VelocityHdf5, NetcdfDimensionsComponentNamesAndPackingAreHonoured) {
  const fs::path file = dir_ / "ocean.nc";
  std::vector<double> uo(2 * 3 * 4), vo(2 * 3 * 4);
  std::iota(uo.begin(), uo.end(), 0.0);  // stored integers; unpacked 0.5 i - 1
  std::iota(vo.begin(), vo.end(), 100.0);
  {
    const test::Hdf5File f(file);
    f.dataset("xc", {4}, {10, 10.5, 11, 11.5});
    f.dataset("yc", {3}, {-2, -1.75, -1.5});
    f.dataset("tau", {2}, {3, 7});
    f.dataset("x", {4}, {0, 0, 0, 0});  // a decoy: the dimensions say which variables are coordinates
    f.dataset("uo", {2, 3, 4}, uo);
    f.dataset("vo", {2, 3, 4}, vo);
    f.dimension_list("uo", {"tau", "yc", "xc"});
    f.dimension_list("vo", {"tau", "yc", "xc"});
    f.attribute("uo", "scale_factor", 0.5);
    f.attribute("uo", "add_offset", -1);
    f.attribute("uo", "_FillValue", -9999, true);
    f.attribute("vo", "missing_value", 1e30);
  }
  const VelocityGrid g = read_velocity_hdf5(file, {{"uo", "vo"}});
  EXPECT_EQ(g.dims, (std::array<std::size_t, 3>{4, 3, 1}));
  EXPECT_EQ(g.origin[0], 10.0);
  EXPECT_EQ(g.origin[1], -2.0);
  EXPECT_EQ(g.spacing[0], 0.5);
  EXPECT_EQ(g.spacing[1], 0.25);
  EXPECT_EQ(g.times, (std::vector<double>{3, 7}));
  ASSERT_EQ(g.snapshots.size(), 2u);
  EXPECT_EQ(g.snapshots[1][2 * 5], 0.5 * 17 - 1);  // snapshot 1, node 5 = (1, 1): stored u 12 + 5
  EXPECT_EQ(g.snapshots[1][2 * 5 + 1], 117.0);

  // A netCDF dimension without a coordinate variable falls back to the conventional names.
  const fs::path bare = dir_ / "bare.nc";
  {
    const test::Hdf5File f(bare);
    f.dataset("nx", {4}, {0, 0, 0, 0});
    f.text_attribute("nx", "NAME", "This is a netCDF dimension but not a netCDF variable.         4");
    f.dataset("lon", {4}, {1, 2, 3, 4});
    f.dataset("lat", {3}, {0, 0.5, 1});
    f.dataset("u", {3, 4}, std::vector<double>(12, 1.0));
    f.dataset("v", {3, 4}, std::vector<double>(12, 2.0));
    f.dimension_list("u", {"lat", "nx"});
  }
  const VelocityGrid b = read_velocity_hdf5(bare);
  EXPECT_EQ(b.origin[0], 1.0);
  EXPECT_EQ(b.spacing[0], 1.0);
  EXPECT_EQ(b.spacing[1], 0.5);
  EXPECT_EQ(b.times, std::vector<double>{0.0});
}

// float32 coordinates of a quarter-degree grid at longitudes near 300 are uniform only to float32's
// rounding (about 1.5e-5 here, 6e-5 of the spacing): accepted, with the spacing within that rounding.
TEST_F(VelocityHdf5, Float32CoordinatesAreUniformWithinTheirRounding) {
  std::vector<double> lon(41), lat(21);
  for (std::size_t i = 0; i < lon.size(); ++i) lon[i] = 290.1 + 0.25 * static_cast<double>(i);
  for (std::size_t j = 0; j < lat.size(); ++j) lat[j] = -10.1 + 0.25 * static_cast<double>(j);
  const fs::path file = dir_ / "f32.nc";
  {
    const test::Hdf5File f(file);
    f.dataset("lon", {41}, lon, true);
    f.dataset("lat", {21}, lat, true);
    f.dataset("u", {21, 41}, std::vector<double>(21 * 41, 0.5), true);
    f.dataset("v", {21, 41}, std::vector<double>(21 * 41, -0.5), true);
  }
  const VelocityGrid g = read_velocity_hdf5(file);
  EXPECT_NEAR(g.spacing[0], 0.25, 4 * 300 * std::numeric_limits<float>::epsilon() / 40);
  EXPECT_NEAR(g.origin[0], 290.1, 300 * std::numeric_limits<float>::epsilon());
}

// A small 2D series (2 snapshots of 4 x 3 nodes) with one thing wrong at a time.
struct Small {
  std::vector<hsize_t> u_shape{2, 3, 4}, v_shape{2, 3, 4};
  bool with_v = true;
  std::vector<double> x{0, 0.5, 1, 1.5}, y{0, 1, 2}, time{0, 1};
  double u5 = 0.25;  // u at flat index 5: snapshot 0, node (1, 1)
  std::optional<double> fill;

  void write(const fs::path& file) const {
    const test::Hdf5File f(file);
    const auto size = [](const std::vector<hsize_t>& s) {
      return std::accumulate(s.begin(), s.end(), std::size_t{1}, std::multiplies<>());
    };
    std::vector<double> u(size(u_shape), 0.25);
    if (u.size() > 5) u[5] = u5;
    f.dataset("u", u_shape, u);
    if (fill) f.attribute("u", "_FillValue", *fill);
    if (with_v) f.dataset("v", v_shape, std::vector<double>(size(v_shape), -0.25));
    if (!x.empty()) f.dataset("x", {x.size()}, x);
    f.dataset("y", {y.size()}, y);
    if (!time.empty()) f.dataset("time", {time.size()}, time);
  }
};

TEST_F(VelocityHdf5, MalformedFilesNameTheFileAndTheProblem) {
  const auto error_with = [&](const std::string& name, const auto& change) {
    Small s;
    change(s);
    s.write(dir_ / name);
    return error_of(dir_ / name);
  };
  struct Case {
    std::string name, message;
  };
  const std::vector<Case> cases{
      {"fine", error_with("fine.h5", [](Small&) {})},
      {"missing v", error_with("nov.h5", [](Small& s) { s.with_v = false; })},
      {"shapes", error_with("shapes.h5", [](Small& s) { s.v_shape = {2, 3, 5}; })},
      {"rank", error_with("rank.h5", [](Small& s) { s.u_shape = s.v_shape = {4}; })},
      {"x length", error_with("xlen.h5", [](Small& s) { s.x = {0, 0.5, 1, 1.5, 2}; })},
      {"x missing", error_with("nox.h5", [](Small& s) { s.x.clear(); })},
      {"non-uniform", error_with("uneven.h5", [](Small& s) { s.x = {0, 0.5, 1.1, 1.5}; })},
      {"time order", error_with("time.h5", [](Small& s) { s.time = {1, 1}; })},
      {"no time", error_with("notime.h5", [](Small& s) { s.time.clear(); })},
      {"nan", error_with("nan.h5", [](Small& s) { s.u5 = std::nan(""); })},
      {"fill", error_with("fill.h5", [](Small& s) { s.fill = s.u5 = -9999; })},
  };
  const std::vector<std::string> expected{
      "no error",
      "no variable 'v' (velocity component 2 of u, v): expected a dataset of that name (datasets: time, u, x, y)",
      "variable 'v' has shape (2, 3, 5) but 'u' has (2, 3, 4): expected every velocity component on the same grid",
      "variable 'u' has rank 1, shape (4): 2 velocity components need rank 2 (y, x) or 3 (time, y, x)",
      "coordinate variable 'x' has shape (5): expected one value per node along the x axis (axis 2 of 'u'), (4)",
      "no coordinate variable for the x axis of 'u' (axis 2, 4 nodes): expected a 1-D variable named 'x', 'lon', "
      "'longitude'",
      "coordinate variable 'x' is not uniformly spaced: x[2] = 1.1, but equal steps of 0.5 from x[0] = 0 to "
      "x[3] = 1.5 put 1 there",
      "coordinate variable 'time' is not strictly increasing: time[1] = 1 after time[0] = 1",
      "2 snapshots along the first axis of 'u' need their times: expected a 1-D variable named 'time', 't'",
      "variable 'u' is nan at node (1, 1) of snapshot 0 (t = 0): expected a finite velocity at every node",
      "variable 'u' is -9999 (its fill or missing value) at node (1, 1) of snapshot 0 (t = 0)",
  };
  for (std::size_t k = 0; k < cases.size(); ++k)
    EXPECT_NE(cases[k].message.find(expected[k]), std::string::npos) << cases[k].name << ": " << cases[k].message;

  Small s;
  s.write(dir_ / "ok.h5");
  EXPECT_NE(error_of(dir_ / "ok.h5", {{"u"}}).find("1 velocity components given (u): expected 2 (2D) or 3 (3D)"),
            std::string::npos);
}

TEST_F(VelocityHdf5, FilesThatAreNotHdf5AreRefusedWithAdvice) {
  std::ofstream(dir_ / "text.h5") << "u, v\n1, 2\n";
  EXPECT_NE(error_of(dir_ / "text.h5").find("not an HDF5 file (nor NetCDF-4, which is HDF5)"), std::string::npos);
  std::ofstream(dir_ / "classic.nc", std::ios::binary) << std::string("CDF\x01\0\0\0\0", 8);
  const std::string classic = error_of(dir_ / "classic.nc");
  EXPECT_NE(classic.find("a NetCDF-3 classic file (format 1), which hetflow does not read"), std::string::npos)
      << classic;
  EXPECT_NE(classic.find("convert it with `nccopy -k nc4 " + (dir_ / "classic.nc").string()), std::string::npos)
      << classic;
  EXPECT_NE(error_of(dir_ / "absent.h5").find("no such file"), std::string::npos);
}

#endif

}  // namespace
}  // namespace hetflow::ftle
