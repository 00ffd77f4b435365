// `hetflow run` with `type: ftle` end to end: the built-in default case (the double gyre) against the
// library and the reference interior mean (docs/ftle.md, Validation), gridded velocity from a raw file against the analytic flow, malformed
// cases, a non-finite velocity file and tracers that go non-finite; HDF5 velocity against the raw file.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <numeric>

#include "../ftle/double_gyre_reference.hpp"
#include "../ftle/hdf5_velocity_file.hpp"
#include "command_test.hpp"
#include "run_outputs_check.hpp"
#include "hetflow/ftle/solver.hpp"
#include "hetflow/io/npy.hpp"
#include "hetflow/io/hdf5_xdmf.hpp"
#include "hetflow/io/png_image.hpp"
#include "hetflow/io/pvd.hpp"
#include "hetflow/io/vtk_reader.hpp"
#include "hetflow/io/xml_parser.hpp"
#include "test_devices.hpp"

namespace {

namespace fs = std::filesystem;
using Result = hetflow::test::CommandResult;
namespace ftle = hetflow::ftle;

class FtleCase : public hetflow::test::CommandTest {
 protected:
  Result hetflow(const std::string& args) const { return run_hetflow(args + " --device " + device()); }

  // A steady double gyre (epsilon = 0) sampled on [0, 2] x [0, 1] with h = 1/32 (65 x 33 nodes) as a
  // float64 raw file and its header; `poison` puts a NaN into one node's v.
  void write_gyre_velocity(const std::string& stem, bool poison = false) const {
    const std::size_t nx = 65, ny = 33;
    const ftle::DoubleGyre steady{0.1, 0.0, 0.6283185307179586};
    std::vector<double> v;
    for (std::size_t j = 0; j < ny; ++j) {
      for (std::size_t i = 0; i < nx; ++i) {
        const auto u = ftle::reference::double_gyre_velocity(steady, {static_cast<double>(i) / 32, static_cast<double>(j) / 32, 0.0}, 0.0);
        v.insert(v.end(), {u[0], u[1]});
      }
    }
    if (poison) v[2 * (3 + nx * 5) + 1] = std::numeric_limits<double>::quiet_NaN();  // node (3, 5), v
    std::string bytes(v.size() * sizeof(double), '\0');
    std::memcpy(bytes.data(), v.data(), bytes.size());
    write("data/" + stem + ".raw", bytes);
    write("data/" + stem + ".yaml", "dims: [65, 33]\nspacing: 0.03125\nfiles: [" + stem + ".raw]\n");
  }

  static double mean(const std::vector<double>& f) {
    return std::accumulate(f.begin(), f.end(), 0.0) / static_cast<double>(f.size());
  }
};

// The default case: 401 x 201 seeds on [0, 2] x [0, 1], T = 15, RK4, dt = 0.2 (75 steps).
TEST_F(FtleCase, DefaultCaseIsTheDoubleGyreAndMatchesTheLibrary) {
  const Result r = hetflow("run -o run");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("running ftle"), std::string::npos) << r.output;
  const auto m = manifest("run");
  EXPECT_EQ(m["status"], "complete");
  EXPECT_EQ(m["case"]["type"], "ftle");
  EXPECT_EQ(m["case"]["ftle"]["flow"], "double_gyre");
  EXPECT_EQ(m["flow"]["kind"], "double_gyre");
  const auto& result = m["result"];
  EXPECT_EQ(result["steps"], 75);
  EXPECT_NEAR(result["dt"].get<double>(), 0.2, 1e-15);
  EXPECT_EQ(result["seeds"]["total"], 401u * 201u);
  EXPECT_EQ(result["seeds"]["counts"], nlohmann::json::array({401, 201}));
  EXPECT_GT(result["device_seconds"].get<double>(), 0.0);
  EXPECT_TRUE(m["outputs"].contains("ftle.vti")) << m["outputs"];
  EXPECT_TRUE(m["outputs"].contains("ftle.png")) << m["outputs"];
  hetflow::test::expect_outputs_are_the_files(dir / "run");

  // The .vti holds the field on the seed grid: a 401 x 201 image one point thick, spacing 0.005.
  const auto image = hetflow::io::read_vti(dir / "run" / "ftle.vti");
  EXPECT_EQ(image.dims, (std::array<std::size_t, 3>{401, 201, 1}));
  EXPECT_NEAR(image.spacing[0], 0.005, 1e-15);
  EXPECT_NEAR(image.spacing[1], 0.005, 1e-15);
  EXPECT_EQ(image.origin[0], 0.0);
  ASSERT_NE(image.point_array("ftle"), nullptr);
  const std::vector<double> field = image.point_array("ftle")->values<double>();  // fp64 run: Float64
  ASSERT_EQ(field.size(), 401u * 201u);
  // The manifest's statistics are the file's, to round-off of the sum.
  EXPECT_NEAR(mean(field), result["mean_ftle"].get<double>(), 1e-12);
  EXPECT_EQ(*std::min_element(field.begin(), field.end()), result["min_ftle"].get<double>());
  EXPECT_EQ(*std::max_element(field.begin(), field.end()), result["max_ftle"].get<double>());
  EXPECT_EQ(result["negative_ftle_share"].get<double>(), 0.0);  // an area-preserving flow: C's det is 1

  // The library with the same configuration on the same device runs the same kernels: the same
  // field to round-off (1e-12 per seed; in practice bit for bit).
  const hetflow::core::DeviceSet ds = hetflow::test::test_device();
  ftle::Config config;
  config.duration = 15;
  config.steps = 75;
  ftle::Solver solver(ds, ftle::DoubleGyre{},
                      ftle::SeedGrid::spanning({0, 0, 0}, {2, 1, 0}, {401, 201, 1}, 2), config);
  solver.advance_to_end();
  const std::vector<double> library = solver.ftle();
  double worst = 0;
  for (std::size_t i = 0; i < field.size(); ++i) worst = std::max(worst, std::abs(field[i] - library[i]));
  EXPECT_LT(worst, 1e-12);
  // The number this page of the docs quotes (docs/ftle.md, the case type): mean 0.15704 at dt = 0.2.
  EXPECT_NEAR(result["mean_ftle"].get<double>(), 0.15704, 1e-5);
  // The headline prints it, before where the results are.
  EXPECT_NEAR(number_after(r.output, "ftle: 80601 seeds, 75 steps of dt = 0.2: mean FTLE "), 0.15704, 1e-4) << r.output;
  EXPECT_LT(r.output.find("mean FTLE"), r.output.find("results in run")) << r.output;

  // A PNG preview, and no temporary file left behind.
  std::ifstream png(dir / "run" / "ftle.png", std::ios::binary);
  char signature[8] = {};
  png.read(signature, 8);
  EXPECT_EQ(std::string(signature + 1, 3), "PNG");
  EXPECT_GT(fs::file_size(dir / "run" / "ftle.png"), 20000u);
  for (const auto& e : fs::directory_iterator(dir / "run"))
    EXPECT_EQ(e.path().filename().string().find(".tmp"), std::string::npos) << e.path();
}

// output.eigenvector: the linear saddle u = (x, -y) stretches along x forward and along y backward, at
// every seed; the array has 3 components (z = 0) and the flow map is not written unless asked for.
TEST_F(FtleCase, EigenvectorOfTheSaddle) {
  for (const double duration : {2.0, -2.0}) {
    const std::string name = duration > 0 ? "forward" : "backward";
    write(name + ".yaml", "type: ftle\nftle:\n  flow: linear\n  linear:\n    gradient: [1, 0, 0, -1]\n  duration: " +
                              std::to_string(duration) + "\n  steps: 4\nseeds:\n  counts: [9, 7]\noutput:\n  dir: " +
                              name + "\n  png: false\n  eigenvector: true\n");
    const Result r = hetflow("run " + name + ".yaml -q");
    ASSERT_EQ(r.status, 0) << r.output;
    const auto image = hetflow::io::read_vti(dir / name / "ftle.vti");
    EXPECT_EQ(image.point_array("flow_map"), nullptr);
    ASSERT_NE(image.point_array("eigenvector"), nullptr);
    EXPECT_EQ(image.point_array("eigenvector")->components, 3);
    const auto v = image.point_array("eigenvector")->to_double();
    ASSERT_EQ(v.size(), 3u * 9u * 7u);
    for (std::size_t i = 0; i < v.size(); i += 3) {
      ASSERT_NEAR(v[i], duration > 0 ? 1.0 : 0.0, 1e-12) << name;
      ASSERT_NEAR(v[i + 1], duration > 0 ? 0.0 : 1.0, 1e-12) << name;
      ASSERT_EQ(v[i + 2], 0.0);
    }
  }
}

// output.npy writes the field for NumPy: shape (ny, nx), the .vti's values, x fastest; a sequence refuses
// the key by name.
TEST_F(FtleCase, NpyHoldsTheFieldOfTheVti) {
  const Result r = hetflow("run -q -o npy --set seeds.counts=[41,21] --set output.png=false --set output.npy=true "
                           "--set output.flow_map=true");
  ASSERT_EQ(r.status, 0) << r.output;
  hetflow::test::expect_outputs_are_the_files(dir / "npy");
  const hetflow::io::VtkImageData image = hetflow::io::read_vti(dir / "npy" / "ftle.vti");
  const std::vector<double> field = image.point_array("ftle")->values<double>();
  const hetflow::io::DenseArray array = hetflow::io::read_npy(dir / "npy" / "ftle.npy");
  ASSERT_EQ(array.shape, (std::vector<std::size_t>{21, 41}));
  for (std::size_t y = 0; y < 21; ++y)
    for (std::size_t x = 0; x < 41; ++x) ASSERT_EQ(array.values[y + 21 * x], field[x + 41 * y]) << x << " " << y;
  // The flow map: (ny, nx, 2) in C order, the .vti's first two of its three components. read_npy takes
  // matrices only, so the format 1.0 file is read here: magic, version, header length, header, data.
  const std::vector<double> positions = image.point_array("flow_map")->values<double>();
  const std::string bytes = hetflow::test::file_text(dir / "npy" / "flow_map.npy");
  ASSERT_GT(bytes.size(), 10u);
  const std::size_t header = 10 + static_cast<unsigned char>(bytes[8]) + 256 * static_cast<unsigned char>(bytes[9]);
  EXPECT_NE(bytes.substr(10, header - 10).find("'shape': (21, 41, 2)"), std::string::npos) << bytes.substr(0, header);
  ASSERT_EQ(bytes.size(), header + 21 * 41 * 2 * sizeof(double));
  for (std::size_t i = 0; i < 21 * 41; ++i)
    for (std::size_t d = 0; d < 2; ++d) {
      double v = 0;
      std::memcpy(&v, bytes.data() + header + sizeof(double) * (2 * i + d), sizeof v);
      ASSERT_EQ(v, positions[3 * i + d]) << i << " " << d;
    }
  const Result q = hetflow("run -q -o npyseq --set sequence.count=2 --set output.npy=true");
  EXPECT_EQ(q.status, 2) << q.output;
  EXPECT_NE(q.output.find("output.npy does not apply to a sequence"), std::string::npos) << q.output;
}

// DOP853 in ten steps of 1.5, at rtol 1e-9, gives the field of RK4 with dt 0.01 to 1e-6 in the mean, and
// the manifest counts the substeps.
TEST_F(FtleCase, AdaptiveIntegratorMatchesAFineFixedStep) {
  write("fine.yaml", "type: ftle\nftle:\n  dt: 0.01\nseeds:\n  counts: [81, 41]\noutput:\n  dir: fine\n  png: false\n");
  write("dop853.yaml", "type: ftle\nftle:\n  integrator: dop853\n  dt: 1.5\n  rtol: 1e-9\n  atol: 1e-12\nseeds:\n"
                       "  counts: [81, 41]\noutput:\n  dir: dop853\n  png: false\n");
  ASSERT_EQ(hetflow("run fine.yaml -q").status, 0);
  const Result r = hetflow("run dop853.yaml -q");
  ASSERT_EQ(r.status, 0) << r.output;
  const auto fine = manifest("fine")["result"], adaptive = manifest("dop853")["result"];
  EXPECT_EQ(adaptive["steps"], 10);
  EXPECT_NEAR(adaptive["mean_ftle"].get<double>(), fine["mean_ftle"].get<double>(), 1e-6);
  const auto& substeps = adaptive["substeps"];
  EXPECT_EQ(substeps["rtol"], 1e-9);
  EXPECT_GE(substeps["accepted"].get<double>(), 10.0 * 81 * 41);  // at least one per step and tracer
  EXPECT_EQ(substeps["per_tracer"].get<double>(), substeps["accepted"].get<double>() / (81 * 41));
  EXPECT_FALSE(fine.contains("substeps"));
}

// output.flow_map_error measures the flow map against DOP853 at rtol 1e-13: RK4's error falls 16-fold as
// dt halves, and the reference's own settings score exactly 0.
TEST_F(FtleCase, FlowMapErrorAgainstATightReference) {
  const auto error_of = [&](const std::string& name, const std::string& ftle_keys) {
    write(name + ".yaml", "type: ftle\nftle:\n" + ftle_keys + "seeds:\n  counts: [41, 21]\noutput:\n  dir: " + name +
                              "\n  png: false\n  flow_map_error: true\n");
    const Result r = hetflow("run " + name + ".yaml");
    EXPECT_EQ(r.status, 0) << r.output;
    EXPECT_NE(r.output.find("flow map within"), std::string::npos) << r.output;
    const auto m = manifest(name)["result"]["flow_map_error"];
    EXPECT_EQ(m["seeds"], 41 * 21) << m;
    EXPECT_EQ(m["reference"], "dop853 fp64 rtol 1e-13 atol 1e-15") << m;
    return m["max"].get<double>();
  };
  const double coarse = error_of("coarse", "  dt: 0.1\n"), fine = error_of("fine", "  dt: 0.05\n");
  EXPECT_GT(coarse, 1e-5);
  EXPECT_GT(coarse / fine, 8.0);
  EXPECT_LT(coarse / fine, 32.0);
  EXPECT_EQ(error_of("same", "  integrator: dop853\n  dt: 15\n  rtol: 1e-13\n  atol: 1e-15\n"), 0.0);
  EXPECT_FALSE(fs::exists(dir / "coarse" / "flow_map.npy"));  // measured, not written unless asked
  write("seq.yaml", "type: ftle\nsequence:\n  count: 2\noutput:\n  dir: seq\n  flow_map_error: true\n");
  const Result q = hetflow("run seq.yaml");
  EXPECT_EQ(q.status, 2) << q.output;
  EXPECT_NE(q.output.find("seq.yaml:6: output.flow_map_error = true does not apply to a sequence"), std::string::npos)
      << q.output;
}

// The reference interior mean FTLE 0.1524 on 257 x 129 seeds, T = 15 (docs/ftle.md, Validation; within 1 %),
// here through the case file, with the flow map written too.
TEST_F(FtleCase, ReferenceMeanThroughTheCaseFile) {
  write("gyre.yaml", "type: ftle\nftle:\n  duration: 15\n  dt: 0.1\nseeds:\n  counts: [257, 129]\n"
                     "output:\n  dir: gyre\n  png: false\n  flow_map: true\n");
  const Result r = hetflow("run gyre.yaml -q");
  ASSERT_EQ(r.status, 0) << r.output;
  const auto m = manifest("gyre");
  EXPECT_EQ(m["result"]["steps"], 150);
  EXPECT_NEAR(m["result"]["interior_mean_ftle"].get<double>(), 0.1524, 0.01 * 0.1524);
  EXPECT_FALSE(fs::exists(dir / "gyre" / "ftle.png"));
  // The flow map: 3 components per seed, z = 0; the walls are invariant, so every tracer stays in the box.
  const auto image = hetflow::io::read_vti(dir / "gyre" / "ftle.vti");
  ASSERT_NE(image.point_array("flow_map"), nullptr);
  EXPECT_EQ(image.point_array("flow_map")->components, 3);
  const auto x = image.point_array("flow_map")->to_double();
  ASSERT_EQ(x.size(), 3u * 257u * 129u);
  for (std::size_t i = 0; i < x.size(); i += 3) {
    ASSERT_GE(x[i], -1e-9);
    ASSERT_LE(x[i], 2 + 1e-9);
    ASSERT_GE(x[i + 1], -1e-9);
    ASSERT_LE(x[i + 1], 1 + 1e-9);
    ASSERT_EQ(x[i + 2], 0.0);
  }
}

// Gridded velocity (raw file + header beside the case file, one node per seed by default) against the
// analytic steady double gyre on the same seeds, T = 10: M4' with h = 1/32 keeps the mean within 1 %.
TEST_F(FtleCase, GriddedVelocityMatchesTheAnalyticFlow) {
  write_gyre_velocity("gyre");
  write("data/grid.yaml", "type: ftle\nftle:\n  flow: file\n  duration: 10\n  velocity:\n    files: [gyre.yaml]\n"
                          "output:\n  dir: grid\n");
  write("analytic.yaml", "type: ftle\nftle:\n  duration: 10\n  double_gyre:\n    epsilon: 0\n"
                         "seeds:\n  counts: [65, 33]\noutput:\n  dir: analytic\n");
  Result r = hetflow("run data/grid.yaml -q");
  ASSERT_EQ(r.status, 0) << r.output;
  r = hetflow("run analytic.yaml -q");
  ASSERT_EQ(r.status, 0) << r.output;
  const auto grid = manifest("grid"), analytic = manifest("analytic");
  EXPECT_EQ(grid["flow"]["dims"], nlohmann::json::array({65, 33, 1}));
  EXPECT_EQ(grid["result"]["seeds"]["counts"], nlohmann::json::array({65, 33}));
  const double a = analytic["result"]["mean_ftle"], g = grid["result"]["mean_ftle"];
  RecordProperty("analytic_mean", std::to_string(a));
  RecordProperty("gridded_mean", std::to_string(g));
  EXPECT_NEAR(g / a, 1.0, 0.01) << "analytic " << a << ", gridded " << g;
}

#ifdef HETFLOW_HAVE_HDF5
// The steady double gyre of write_gyre_velocity as an HDF5 file (u, v, x, y; no time axis) gives the raw
// header's field: the same grid and values, so the same kernels' numbers (< 1e-12 per seed, in practice
// bit for bit). A series with a time axis (t = 0 .. 4, float32) runs over its times.
TEST_F(FtleCase, Hdf5VelocityGivesTheRawHeadersField) {
  write_gyre_velocity("gyre");
  const auto gyre = [](const ftle::DoubleGyre& flow) {
    return [flow](const std::array<double, 3>& x, double t) { return ftle::reference::double_gyre_velocity(flow, x, t); };
  };
  const ftle::DoubleGyre steady{0.1, 0.0, 0.6283185307179586};
  const auto grid = ftle::sample_on_grid(2, {65, 33, 1}, {0, 0, 0}, {0.03125, 0.03125, 1}, {0.0}, gyre(steady));
  ftle::test::write_velocity_h5(dir / "data" / "gyre.h5", grid, false, true);
  const std::string body = "type: ftle\nftle:\n  flow: file\n  duration: 10\n  velocity:\n";
  write("data/raw.yaml", body + "    files: [gyre.yaml]\noutput:\n  dir: raw\n");
  write("data/h5.yaml", body + "    files: [gyre.h5]\n    components: [u, v]\noutput:\n  dir: h5\n");
  for (const char* run : {"data/raw.yaml", "data/h5.yaml"}) {
    const Result r = hetflow(std::string("run ") + run + " -q");
    ASSERT_EQ(r.status, 0) << run << ": " << r.output;
  }
  const auto raw = manifest("raw"), h5 = manifest("h5");
  for (const char* key : {"dims", "origin", "spacing", "times"}) EXPECT_EQ(h5["flow"][key], raw["flow"][key]) << key;
  const auto field = [&](const char* run) {
    return hetflow::io::read_vti(dir / run / "ftle.vti").point_array("ftle")->values<double>();
  };
  const std::vector<double> a = field("raw"), b = field("h5");
  ASSERT_EQ(a.size(), 65u * 33u);
  ASSERT_EQ(b.size(), a.size());
  double worst = 0;
  for (std::size_t i = 0; i < a.size(); ++i) worst = std::max(worst, std::abs(a[i] - b[i]));
  EXPECT_LT(worst, 1e-12);
  EXPECT_NEAR(h5["result"]["mean_ftle"].get<double>(), raw["result"]["mean_ftle"].get<double>(), 1e-12);

  const auto series = ftle::sample_on_grid(2, {65, 33, 1}, {0, 0, 0}, {0.03125, 0.03125, 1}, {0, 1, 2, 3, 4},
                                           gyre(ftle::DoubleGyre{}));
  ftle::test::write_velocity_h5(dir / "series.nc", series, true);
  write("series.yaml", "type: ftle\nftle:\n  flow: file\n  duration: 4\n  velocity:\n    files: [series.nc]\n"
                       "output:\n  dir: series\n");
  const Result r = hetflow("run series.yaml -q");
  ASSERT_EQ(r.status, 0) << r.output;
  const auto m = manifest("series");
  EXPECT_EQ(m["flow"]["snapshots"], 5);
  EXPECT_EQ(m["flow"]["times"], nlohmann::json::array({0.0, 4.0}));
  EXPECT_EQ(m["result"]["steps"], 40);
}

// Keys that do not suit an HDF5 file, and a file the reader refuses: exit 2 with the case's line and key.
TEST_F(FtleCase, MalformedHdf5VelocityCasesExitTwo) {
  write_gyre_velocity("gyre");
  const auto grid = ftle::sample_on_grid(2, {5, 3, 1}, {0, 0, 0}, {0.5, 0.5, 1}, {0.0},
                                         [](const std::array<double, 3>&, double) { return std::array<double, 3>{1, 0, 0}; });
  ftle::test::write_velocity_h5(dir / "data" / "small.h5", grid, false, true);
  const std::string head = "type: ftle\nftle:\n  flow: file\n  velocity:\n";
  const std::string small = (fs::weakly_canonical(dir) / "data/small.h5").string();
  const std::vector<Bad> cases{
      {"h5times", head + "    files: [data/small.h5]\n    times: [0]\noutput:\n  dir: out\n",
       "h5times.yaml:6: ftle.velocity.times does not apply to an HDF5/NetCDF-4 file"},
      {"h5array", head + "    files: [data/small.h5]\n    array: velocity\noutput:\n  dir: out\n",
       "h5array.yaml:6: ftle.velocity.array applies to .vti files only: an HDF5/NetCDF-4 file names its variables "
       "in ftle.velocity.components"},
      {"h5comp", head + "    files: [data/small.h5]\n    components: [u, q]\noutput:\n  dir: out\n",
       "h5comp.yaml:5: ftle.velocity.files = [data/small.h5] (resolved to [" + small + "]): '" + small +
           "': no variable 'q' (velocity component 2 of u, q)"},
      {"h5two", head + "    files: [data/small.h5, data/small.h5]\noutput:\n  dir: out\n",
       "h5two.yaml:5: ftle.velocity.files lists 2 files with an HDF5/NetCDF-4 file among them"},
      {"rawcomp", head + "    files: [data/gyre.yaml]\n    components: [u, v]\noutput:\n  dir: out\n",
       "rawcomp.yaml:6: ftle.velocity.components applies to an HDF5/NetCDF-4 file (.h5, .hdf5, .nc) only"},
  };
  expect_rejected(cases);
}
#endif

// An unsteady series (5 snapshots of the double gyre, t = 0 .. 4) over a budget of 0.1 MiB (3 of its
// 34 KiB snapshots) is streamed, says so in the manifest, and gives the resident run's field.
TEST_F(FtleCase, SeriesOverTheBudgetIsStreamedWithTheResidentField) {
  const std::size_t nx = 65, ny = 33;
  std::string files, times;
  for (int k = 0; k <= 4; ++k) {
    std::vector<double> v;
    for (std::size_t j = 0; j < ny; ++j) {
      for (std::size_t i = 0; i < nx; ++i) {
        const auto u = ftle::reference::double_gyre_velocity(
            ftle::DoubleGyre{}, {static_cast<double>(i) / 32, static_cast<double>(j) / 32, 0.0}, k);
        v.insert(v.end(), {u[0], u[1]});
      }
    }
    std::string bytes(v.size() * sizeof(double), '\0');
    std::memcpy(bytes.data(), v.data(), bytes.size());
    char name[16];
    std::snprintf(name, sizeof name, "s%d.raw", k);
    write(std::string("data/") + name, bytes);
    if (k > 0) {
      files += ", ";
      times += ", ";
    }
    files += name;
    times += std::to_string(k);
  }
  write("data/series.yaml", "dims: [65, 33]\nspacing: 0.03125\nfiles: [" + files + "]\ntimes: [" + times + "]\n");
  write("series.yaml", "type: ftle\nftle:\n  flow: file\n  duration: 4\n  velocity:\n    files: [data/series.yaml]\n"
                       "output:\n  dir: resident\n");
  Result r = hetflow("run series.yaml -q");
  ASSERT_EQ(r.status, 0) << r.output;
  r = hetflow("run series.yaml -v --set ftle.velocity.budget=0.1 --set output.dir=streamed");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("velocity streamed through 4 snapshot slots"), std::string::npos) << r.output;
  const auto resident = manifest("resident"), streamed = manifest("streamed");
  EXPECT_EQ(resident["memory"]["velocity"], "resident");
  EXPECT_EQ(resident["memory"]["snapshot_slots"], 5);
  EXPECT_EQ(streamed["memory"]["velocity"], "streamed");
  EXPECT_EQ(streamed["memory"]["snapshot_slots"], 4);
  EXPECT_EQ(streamed["memory"]["pinned_host_bytes"], 5 * nx * ny * 2 * 8);
  EXPECT_EQ(resident["memory"]["device_bytes"].get<std::size_t>() - streamed["memory"]["device_bytes"].get<std::size_t>(),
            nx * ny * 2 * 8);
  EXPECT_EQ(resident["result"]["mean_ftle"], streamed["result"]["mean_ftle"]);
  EXPECT_EQ(resident["result"]["max_ftle"], streamed["result"]["max_ftle"]);
  // output.ridges integrates back from t0 = 0 too, over [-4, 0], before the snapshots: refused by key.
  r = hetflow("run series.yaml -q --set output.ridges=true --set output.dir=ridges");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("output.ridges = true integrates the opposite direction over [-4, 0]"), std::string::npos)
      << r.output;
  EXPECT_FALSE(fs::exists(dir / "ridges"));
}

TEST_F(FtleCase, MalformedCasesExitTwoWithFileLineAndKeyAndWriteNothing) {
  write_gyre_velocity("gyre");
  const std::vector<Bad> cases{
      {"zero", "type: ftle\nftle:\n  duration: 0\noutput:\n  dir: out\n", "zero.yaml:3: ftle.duration = 0 is out of range"},
      {"unknown", "type: ftle\nftle:\n  durration: 5\noutput:\n  dir: out\n",
       "unknown.yaml:3: unknown key ftle.durration"},
      {"type", "type: ftle\nftle:\n  steps: many\noutput:\n  dir: out\n", "type.yaml:3: ftle.steps = many"},
      {"choice", "type: ftle\nftle:\n  integrator: rk5\noutput:\n  dir: out\n", "choice.yaml:3: ftle.integrator = rk5"},
      {"other", "type: ftle\nftle:\n  bickley_jet:\n    u: 1\noutput:\n  dir: out\n",
       "other.yaml:4: ftle.bickley_jet.u does not apply to ftle.flow = double_gyre"},
      {"both", "type: ftle\nftle:\n  steps: 10\n  dt: 0.5\noutput:\n  dir: out\n",
       "both.yaml:4: ftle.dt and ftle.steps are both given"},
      {"dims", "type: ftle\nseeds:\n  counts: [10, 10, 10]\noutput:\n  dir: out\n",
       "dims.yaml:3: seeds.counts has 3 entries: expected 2"},
      // The data span [0, 2] x [0, 1]; a region from x = 1.5 to 2.5 leaves it along x.
      {"outside", "type: ftle\nftle:\n  flow: file\n  velocity:\n    files: [data/gyre.yaml]\nseeds:\n"
                  "  origin: [1.5, 0]\n  extent: [1, 1]\n  counts: [11, 11]\noutput:\n  dir: out\n",
       "outside.yaml:8: seeds.extent: the seeding region spans [1.5, 2.5] along x, outside the velocity data's [0, 2]"},
      {"times", "type: ftle\nftle:\n  flow: file\n  duration: 5\n  velocity:\n    files: [data/gyre.yaml]\n"
                 "    times: [0]\noutput:\n  dir: out\n",
       "times.yaml:7: ftle.velocity.times does not apply to a .yaml header"},
      {"range", "type: ftle\noutput:\n  dir: out\n  range: [1, 0]\n", "range.yaml:4: output.range = [1, 0]"},
      {"rtol", "type: ftle\nftle:\n  rtol: 1e-8\noutput:\n  dir: out\n",
       "rtol.yaml:3: ftle.rtol applies to the adaptive integrators dopri5 and dop853; ftle.integrator is rk4"},
      {"fine", "type: ftle\nftle:\n  integrator: dop853\n  rtol: 1e-16\noutput:\n  dir: out\n",
       "fine.yaml:4: ftle.rtol = 1e-16 is finer than fp64 positions resolve: expected at least 1e-14"},
      {"atol", "type: ftle\nftle:\n  integrator: dopri5\n  atol: -1\noutput:\n  dir: out\n",
       "atol.yaml:4: ftle.atol = -1"},
  };
  expect_rejected(cases);
  // Every problem at once.
  write("many.yaml", "type: ftle\nftle:\n  duration: 0\n  integrator: rk5\noutput:\n  dir: out\n");
  const Result r = hetflow("run many.yaml");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("many.yaml:4: ftle.integrator = rk5"), std::string::npos) << r.output;
}

TEST_F(FtleCase, NonFiniteVelocityFileIsAClearError) {
  write_gyre_velocity("bad", true);
  write("nan.yaml", "type: ftle\nftle:\n  flow: file\n  velocity:\n    files: [data/bad.yaml]\noutput:\n  dir: out\n");
  const Result r = hetflow("run nan.yaml");
  EXPECT_EQ(r.status, 2) << r.output;
  // The case's line and key, the data file, the node and the component.
  EXPECT_NE(r.output.find("nan.yaml:5: ftle.velocity.files = [data/bad.yaml] (resolved to ["), std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("bad.raw"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("node (3, 5), component v is nan"), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(dir / "out"));
}

// u = (5000 x, -5000 y) over T = 1 in 100 RK4 steps: dt G = 50 lies far outside RK4's stability region,
// each step multiplies x by 1 + 50 + 50^2/2 + 50^3/6 + 50^4/24 = 2.8e5, so positions overflow at step 57.
// The run fails with the seed and step, exit 1, and a manifest that says so.
TEST_F(FtleCase, NonFiniteTracersNameTheSeedAndStep) {
  write("blow.yaml", "type: ftle\nftle:\n  flow: linear\n  linear:\n    gradient: [5000, 0, 0, -5000]\n"
                     "  duration: 1\n  steps: 100\nseeds:\n  counts: [5, 5]\noutput:\n  dir: blow\n");
  const Result r = hetflow("run blow.yaml -q");
  EXPECT_EQ(r.status, 1) << r.output;
  EXPECT_NE(r.output.find("non-finite tracer"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("tracer of seed "), std::string::npos) << r.output;
  const auto step_at = r.output.find("(step ");
  ASSERT_NE(step_at, std::string::npos) << r.output;
  const long step = std::stol(r.output.substr(step_at + 6));
  EXPECT_GE(step, 55) << r.output;
  EXPECT_LE(step, 59) << r.output;
  EXPECT_NE(r.output.find(" of 100"), std::string::npos) << r.output;
  const auto m = manifest("blow");
  EXPECT_EQ(m["status"], "failed");
  EXPECT_NE(m["error"].get<std::string>().find("tracer of seed"), std::string::npos);
  EXPECT_FALSE(fs::exists(dir / "blow" / "ftle.vti"));
}

// The built-in case gives dt; a --set of steps overrides it (as --set dt overrides steps in a file),
// while steps and dt both set the same way are ambiguous.
TEST_F(FtleCase, StepsAndDtOverrideEachOther) {
  Result r = hetflow("run -q -o three --set ftle.steps=3 --set output.png=false");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_EQ(manifest("three")["result"]["steps"], 3);
  EXPECT_NEAR(manifest("three")["result"]["dt"].get<double>(), 5.0, 1e-15);
  write("steps.yaml", "type: ftle\nftle:\n  duration: 1\n  steps: 30\nseeds:\n  counts: [5, 5]\n");
  r = hetflow("run steps.yaml -q -o quarter --set ftle.dt=0.25");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_EQ(manifest("quarter")["result"]["steps"], 4);
  r = hetflow("run steps.yaml -o both --set ftle.dt=0.25 --set ftle.steps=8");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("ftle.dt and ftle.steps are both given"), std::string::npos) << r.output;
}

// sequence: 3 start times (t0 = 0, 1, 2) of the double gyre, T = 15, dt = 0.1, 65 x 33 seeds (h = 1/32),
// by both methods. Each writes ftle_0000..0002.vti, ftle.pvd (time = start time) and 3 PNG frames with one
// colour range. The direct frames are single runs at those start times (the same kernels: < 1e-12); the
// flow-map frames (15 short maps of one interval composed per field) agree with them within the
// interpolation error of the short maps on the seed grid: relative L1 3.9-4.4e-3 measured at h = 1/32
// (as docs/ftle.md's library test; first order in h, the error sits on the ridges), asserted < 6e-3
// (1.4x the worst frame); the means within 0.5 %.
TEST_F(FtleCase, SequenceOfFieldsByBothMethods) {
  write("movie.yaml", "type: ftle\nftle:\n  duration: 15\n  dt: 0.1\nseeds:\n  counts: [65, 33]\n"
                      "sequence:\n  count: 3\n  interval: 1\noutput:\n  dir: direct\n");
  Result r = hetflow("run movie.yaml -q" + hetflow::test::with_hdf5());
  ASSERT_EQ(r.status, 0) << r.output;
  hetflow::test::expect_outputs_are_the_files(dir / "direct");
  r = hetflow("run movie.yaml -v --set sequence.method=flow_maps --set output.dir=maps");
  ASSERT_EQ(r.status, 0) << r.output;
  // Verbose: the cost and the memory are printed before the run, then the summary.
  const auto memory_at = r.output.find("device memory needed: ");
  ASSERT_NE(memory_at, std::string::npos) << r.output;
  EXPECT_LT(r.output.find("method flow_maps: 17 short maps, 170 steps"), memory_at) << r.output;
  EXPECT_LT(memory_at, r.output.find("ftle: 3 fields of 2145 seeds")) << r.output;
  for (int k = 0; k < 3; ++k) {
    const std::string t0 = std::to_string(k);
    r = hetflow("run movie.yaml -q --set sequence.count=1 --set ftle.t0=" + t0 + " --set output.png=false "
                "--set output.dir=single" + t0);
    ASSERT_EQ(r.status, 0) << r.output;
  }
  const auto direct = manifest("direct"), maps = manifest("maps");
  const char* frames[] = {"ftle_0000", "ftle_0001", "ftle_0002"};
  for (const std::string run : {"direct", "maps"}) {
    const auto series = hetflow::io::read_pvd(dir / run / "ftle.pvd");
    ASSERT_EQ(series.size(), 3u) << run;
    for (std::size_t k = 0; k < 3; ++k) {
      EXPECT_EQ(series[k].time, static_cast<double>(k));
      EXPECT_EQ(series[k].file, std::string(frames[k]) + ".vti");
      EXPECT_TRUE(fs::exists(dir / run / (std::string(frames[k]) + ".png"))) << run << " " << k;
    }
    EXPECT_FALSE(fs::exists(dir / run / "ftle.vti")) << run;
    EXPECT_FALSE(fs::exists(dir / run / "ftle_0003.vti")) << run;
  }
  // With HDF5, one .xmf collects the frames, each in its own .h5 holding the .vti's field.
  if (hetflow::io::hdf5_available()) {
    const std::string xmf = hetflow::test::file_text(dir / "direct" / "ftle.xmf");
    std::size_t grids = 0;
    for (auto at = xmf.find("<Time Value="); at != std::string::npos; at = xmf.find("<Time Value=", at + 1)) ++grids;
    EXPECT_EQ(grids, 3u) << xmf;
    EXPECT_EQ(manifest("direct")["result"]["frames"][2]["h5"], "ftle_000002.h5");
    EXPECT_EQ(hetflow::io::read_hdf5_dataset(dir / "direct" / "ftle_000002.h5", "/ftle").values,
              hetflow::io::read_vti(dir / "direct" / "ftle_0002.vti").point_array("ftle")->values<double>());
  }
  const auto read = [&](const std::string& run, const std::string& name) {
    const auto image = hetflow::io::read_vti(dir / run / name);
    EXPECT_EQ(image.dims, (std::array<std::size_t, 3>{65, 33, 1}));
    return image.point_array("ftle")->values<double>();
  };

  // The manifest: the methods' step counts (the cost before the run, the steps taken after it), the
  // memory, and per-frame statistics that are the files'.
  const auto& ds = direct["result"]["sequence"];
  EXPECT_EQ(ds["method"], "direct");
  EXPECT_EQ(ds["direct_steps"], 450);
  EXPECT_EQ(ds["steps_taken"], 450);
  EXPECT_EQ(ds["start_times"], nlohmann::json::array({0.0, 1.0, 2.0}));
  const auto& ms = maps["result"]["sequence"];
  EXPECT_EQ(ms["method"], "flow_maps");
  EXPECT_EQ(ms["short_maps"], 17);  // K + W - 1
  EXPECT_EQ(ms["map_steps"], 170);
  EXPECT_EQ(ms["steps_taken"], 170);
  EXPECT_EQ(ms["compositions_done"], ms["compositions"]);
  EXPECT_NEAR(ms["step_saving"].get<double>(), 450.0 / 170.0, 1e-12);
  // Sequence::memory before the run equals what the run allocated; the flow maps hold at least W = 15 maps.
  EXPECT_EQ(maps["memory"]["device_bytes"], ms["peak_device_bytes"]);
  EXPECT_EQ(direct["memory"]["device_bytes"], ds["peak_device_bytes"]);
  EXPECT_GE(maps["memory"]["map_bytes"].get<std::size_t>(), 15u * 65u * 33u * 2u * 8u);
  EXPECT_EQ(direct["memory"]["map_bytes"], 0);

  double low = 1e300, high = -1e300;
  for (int k = 0; k < 3; ++k) {
    const auto single = read("single" + std::to_string(k), "ftle.vti");
    const auto d = read("direct", std::string(frames[k]) + ".vti");
    const auto m = read("maps", std::string(frames[k]) + ".vti");
    ASSERT_EQ(single.size(), 65u * 33u);
    ASSERT_EQ(d.size(), single.size());
    ASSERT_EQ(m.size(), single.size());
    double worst = 0, l1 = 0, norm = 0;
    for (std::size_t i = 0; i < d.size(); ++i) {
      worst = std::max(worst, std::abs(d[i] - single[i]));
      l1 += std::abs(m[i] - d[i]);
      norm += std::abs(d[i]);
    }
    EXPECT_LT(worst, 1e-12) << "t0 = " << k;
    RecordProperty("relative_l1_t0_" + std::to_string(k), std::to_string(l1 / norm));
    std::printf("t0 = %d: flow maps vs direct, relative L1 %.3e\n", k, l1 / norm);
    EXPECT_LT(l1 / norm, 6e-3) << "t0 = " << k;
    const auto& frame = maps["result"]["frames"][k];
    EXPECT_EQ(frame["start_time"], static_cast<double>(k));
    EXPECT_NEAR(frame["mean_ftle"].get<double>(), mean(m), 1e-12);
    EXPECT_EQ(frame["min_ftle"].get<double>(), *std::min_element(m.begin(), m.end()));
    EXPECT_EQ(frame["max_ftle"].get<double>(), *std::max_element(m.begin(), m.end()));
    EXPECT_NEAR(frame["mean_ftle"].get<double>() / direct["result"]["frames"][k]["mean_ftle"].get<double>(), 1.0, 5e-3);
    EXPECT_NEAR(direct["result"]["frames"][k]["mean_ftle"].get<double>(), mean(single), 1e-12);
    low = std::min(low, *std::min_element(m.begin(), m.end()));
    high = std::max(high, *std::max_element(m.begin(), m.end()));
  }
  // Auto colour range: the min and max over all frames, the same for every frame.
  EXPECT_EQ(maps["result"]["png_range"], nlohmann::json::array({low, high}));
  // A given output.range is used as is for every frame.
  r = hetflow("run movie.yaml -q --set output.range=[0,0.3] --set output.vti=false --set output.dir=ranged");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_EQ(manifest("ranged")["result"]["png_range"], nlohmann::json::array({0.0, 0.3}));
  EXPECT_TRUE(fs::exists(dir / "ranged" / "ftle_0002.png"));
  EXPECT_FALSE(fs::exists(dir / "ranged" / "ftle.pvd"));
}

// Sequences the methods cannot run are case errors with file:line and key, and nothing is written.
TEST_F(FtleCase, MalformedSequencesExitTwoWithFileLineAndKey) {
  write_gyre_velocity("gyre");
  const std::string head = "type: ftle\nftle:\n  duration: 15\n  dt: 0.1\nseeds:\n  counts: [9, 5]\noutput:\n  dir: out\n";
  const std::vector<Bad> cases{
      {"count", head + "sequence:\n  count: 0\n", "count.yaml:10: sequence.count = 0 is out of range"},
      {"interval", head + "sequence:\n  count: 3\n  interval: 0\n", "interval.yaml:11: sequence.interval = 0 is out of range"},
      {"negative", head + "sequence:\n  count: 3\n  interval: -1\n", "negative.yaml:11: sequence.interval = -1 is out of range"},
      {"method", head + "sequence:\n  count: 3\n  method: brunton\n", "method.yaml:11: sequence.method = brunton"},
      {"divide", head + "sequence:\n  count: 3\n  interval: 2\n  method: flow_maps\n",
       "divide.yaml:11: sequence.interval = 2 does not divide |ftle.duration| = 15"},
      // dt = 0.4: 38 steps over T = 15, not a multiple of W = 15.
      {"steps", "type: ftle\nftle:\n  duration: 15\n  dt: 0.4\nsequence:\n  count: 2\n  method: flow_maps\n",
       "steps.yaml:4: ftle.dt gives 38 steps over T, which do not split into the 15 short maps"},
      {"boundary", "type: ftle\nftle:\n  flow: file\n  boundary: stop\n  duration: 4\n  steps: 40\n  velocity:\n"
                   "    files: [data/gyre.yaml]\nsequence:\n  count: 2\n  method: flow_maps\noutput:\n  dir: out\n",
       "boundary.yaml:4: ftle.boundary = stop does not suit sequence.method flow_maps"},
      {"flowmap", head + "  flow_map: true\nsequence:\n  count: 2\n",
       "flowmap.yaml:9: output.flow_map does not apply to a sequence"},
      {"eigenvector", head + "  eigenvector: true\nsequence:\n  count: 2\n",
       "eigenvector.yaml:9: output.eigenvector does not apply to a sequence"},
      {"ridges", head + "  ridges: true\nsequence:\n  count: 2\n",
       "ridges.yaml:9: output.ridges = true does not apply to a sequence"},
  };
  expect_rejected(cases);
  // The same boundary with the direct method is fine (a steady file: any start time is inside it).
  write("stop.yaml", "type: ftle\nftle:\n  flow: file\n  boundary: stop\n  duration: 2\n  steps: 20\n  velocity:\n"
                     "    files: [data/gyre.yaml]\nseeds:\n  counts: [9, 5]\nsequence:\n  count: 2\noutput:\n  dir: stop\n");
  const Result r = hetflow("run stop.yaml -q");
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_TRUE(fs::exists(dir / "stop" / "ftle_0001.vti"));
}

// A raw appended block of a .vtp's DataArray (UInt64 header, native order, as hetflow writes it).
template <class T>
std::vector<T> vtp_block(const hetflow::io::XmlDocument& doc, const hetflow::io::XmlElement& section,
                         const std::string& name) {
  for (const auto* a : section.children_named("DataArray")) {
    if (*a->attribute("Name") != name) continue;
    const std::size_t offset = std::stoull(*a->attribute("offset"));
    std::uint64_t bytes = 0;
    std::memcpy(&bytes, doc.raw_data.data() + offset, sizeof bytes);
    std::vector<T> out(bytes / sizeof(T));
    std::memcpy(out.data(), doc.raw_data.data() + offset + sizeof bytes, bytes);
    return out;
  }
  ADD_FAILURE() << "no DataArray " << name;
  return {};
}

// The manifest's share of negative FTLE: the contraction u = -(x, y)/2 gives FTLE -1/2 at every seed.
TEST_F(FtleCase, ManifestCountsTheSeedsOfNegativeFtle) {
  write("sink.yaml", "type: ftle\nftle:\n  flow: linear\n  linear:\n    gradient: [-0.5, 0, 0, -0.5]\n"
                     "  duration: 1\n  steps: 20\nseeds:\n  origin: [-1, -1]\n  extent: [2, 2]\n  counts: [9, 9]\n"
                     "output:\n  dir: sink\n  png: false\n");
  const Result r = hetflow("run sink.yaml -q");
  ASSERT_EQ(r.status, 0) << r.output;
  const auto m = manifest("sink");
  EXPECT_EQ(m["result"]["negative_ftle_share"].get<double>(), 1.0);
  EXPECT_NEAR(m["result"]["max_ftle"].get<double>(), -0.5, 1e-6);
}

// output.pathlines on the linear saddle: 5 x 5 seeds, stride [2, 2] (9 lines), 10 steps recorded every 3
// (steps 0, 3, 6, 9, 10: 5 points per line); each line starts at its seed and ends at ftle.vti's flow map.
TEST_F(FtleCase, PathlinesOfSelectedSeeds) {
  write("saddle.yaml", "type: ftle\nftle:\n  flow: linear\n  duration: 1\n  steps: 10\nseeds:\n  origin: [-1, -1]\n"
                       "  extent: [2, 2]\n  counts: [5, 5]\noutput:\n  dir: saddle\n  png: false\n  flow_map: true\n"
                       "  pathlines:\n    every: 3\n    stride: [2, 2]\n");
  const Result r = hetflow("run saddle.yaml -q" + hetflow::test::with_hdf5());
  ASSERT_EQ(r.status, 0) << r.output;
  hetflow::test::expect_outputs_are_the_files(dir / "saddle");
  const std::string text = [&] {
    std::ifstream in(dir / "saddle" / "pathlines.vtp", std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  }();
  ASSERT_FALSE(text.empty());
  const auto doc = hetflow::io::parse_xml(text, "pathlines.vtp");
  EXPECT_EQ(*doc.root.attribute("type"), "PolyData");
  const auto* piece = doc.root.child("PolyData")->child("Piece");
  ASSERT_NE(piece, nullptr);
  const std::size_t lines = 9, per_line = 5;
  EXPECT_EQ(*piece->attribute("NumberOfLines"), std::to_string(lines));
  EXPECT_EQ(*piece->attribute("NumberOfPoints"), std::to_string(lines * per_line));
  const auto points = vtp_block<double>(doc, *piece->child("Points"), "Points");
  const auto offsets = vtp_block<std::int64_t>(doc, *piece->child("Lines"), "offsets");
  const auto connectivity = vtp_block<std::int64_t>(doc, *piece->child("Lines"), "connectivity");
  const auto time = vtp_block<double>(doc, *piece->child("PointData"), "time");
  const auto seed = vtp_block<std::int32_t>(doc, *piece->child("CellData"), "seed");
  ASSERT_EQ(points.size(), 3 * lines * per_line);
  ASSERT_EQ(offsets.size(), lines);
  ASSERT_EQ(connectivity.size(), lines * per_line);
  ASSERT_EQ(seed.size(), lines);
  const auto flow_map = hetflow::io::read_vti(dir / "saddle" / "ftle.vti").point_array("flow_map")->to_double();
  const std::vector<double> times{0.0, 0.3, 0.6, 0.9, 1.0};
  for (std::size_t l = 0; l < lines; ++l) {
    EXPECT_EQ(offsets[l], static_cast<std::int64_t>((l + 1) * per_line));
    const std::size_t sx = 2 * (l % 3), sy = 2 * (l / 3), s = sx + 5 * sy;
    EXPECT_EQ(seed[l], static_cast<std::int32_t>(s));
    const std::size_t first = static_cast<std::size_t>(connectivity[l * per_line]);
    const std::size_t last = static_cast<std::size_t>(connectivity[l * per_line + per_line - 1]);
    EXPECT_NEAR(points[3 * first], -1.0 + 0.5 * static_cast<double>(sx), 1e-12) << l;
    EXPECT_NEAR(points[3 * first + 1], -1.0 + 0.5 * static_cast<double>(sy), 1e-12) << l;
    for (std::size_t d = 0; d < 3; ++d) EXPECT_NEAR(points[3 * last + d], flow_map[3 * s + d], 1e-12) << l;
    for (std::size_t j = 0; j < per_line; ++j)
      EXPECT_NEAR(time[static_cast<std::size_t>(connectivity[l * per_line + j])], times[j], 1e-12);
  }
  EXPECT_TRUE(manifest("saddle")["outputs"].dump().find("pathlines.vtp") != std::string::npos) << manifest("saddle").dump();
  // Off by default.
  write("plain.yaml", "type: ftle\nftle:\n  flow: linear\n  duration: 1\n  steps: 4\nseeds:\n  counts: [5, 5]\n"
                      "output:\n  dir: plain\n  png: false\n");
  ASSERT_EQ(hetflow("run plain.yaml -q").status, 0);
  EXPECT_FALSE(fs::exists(dir / "plain" / "pathlines.vtp"));
}

TEST_F(FtleCase, MalformedPathlinesExitTwoWithFileLine) {
  const std::string head = "type: ftle\nftle:\n  duration: 15\n  dt: 0.5\nseeds:\n  counts: [9, 5]\noutput:\n  dir: out\n"
                           "  pathlines:\n";
  const std::vector<Bad> cases{
      {"negative", head + "    every: -1\n", "negative.yaml:10: output.pathlines.every = -1 is out of range"},
      {"stride", head + "    every: 2\n    stride: [2, 2, 2]\n",
       "stride.yaml:11: output.pathlines.stride has 3 entries: expected 2"},
      {"zero", head + "    every: 2\n    stride: [0, 2]\n", "zero.yaml:11: output.pathlines.stride"},
      {"typo", head + "    evry: 2\n", "typo.yaml:10:"},
      {"sequence", head + "    every: 2\nsequence:\n  count: 2\n",
       "sequence.yaml:10: output.pathlines does not apply to a sequence"},
  };
  expect_rejected(cases);
}

TEST_F(FtleCase, CasesPrintsACommentedTemplate) {
  const Result r = run_hetflow("cases ftle");
  ASSERT_EQ(r.status, 0) << r.output;
  for (const char* line : {"type: ftle", "  duration: 15.0", "  double_gyre:", "    a: 0.1", "    epsilon: 0.25",
                           "seeds:", "  colormap: viridis", "sequence:", "  count: 1", "  method: direct"}) {
    EXPECT_NE(r.output.find(line), std::string::npos) << line << "\n" << r.output;
  }
  EXPECT_NE(run_hetflow("cases").output.find("ftle"), std::string::npos);
}

// output.ridges on a 64 x 32 double gyre, T = 15 in 30 RK4 steps: the run also computes T = -15 from the
// same t0 and writes it as ftle_backward beside ftle (.vti, .npy), equal bit for bit to a run of T = -15
// (the same kernels on the same device), and the other way round for a case of T < 0 (ftle_forward).
// The flow is symmetric under (x, y, t) -> (2 - x, 1 - y, -t), so from t0 = 0 the backward field is the
// forward one rotated by pi, to round-off (1e-9 here). ridges.png is 1060 x 500 (the domain's aspect 1/2),
// each layer coloured from its field's median (the (n/2)-th smallest value) to its max, or both over
// output.range; result.ridges holds the backward field's statistics, equal to the T = -15 run's.
TEST_F(FtleCase, RidgesWriteTheOppositeFieldEqualToItsOwnRun) {
  const std::string gyre = "type: ftle\nftle:\n  dt: 0.5\nseeds:\n  counts: [64, 32]\noutput:\n  npy: true\n";
  write("gyre.yaml", gyre);
  ASSERT_EQ(hetflow("run gyre.yaml -q -o fwd --set output.ridges=true").status, 0);
  const std::string backward_ridges =
      "run gyre.yaml -q -o bwd --set output.ridges=true --set ftle.duration=-15 --set output.range=[0.05,0.3]";
  ASSERT_EQ(hetflow(backward_ridges).status, 0);
  ASSERT_EQ(hetflow("run gyre.yaml -q -o plain_bwd --set ftle.duration=-15 --set output.png=false").status, 0);
  hetflow::test::expect_outputs_are_the_files(dir / "fwd");
  hetflow::test::expect_outputs_are_the_files(dir / "bwd");

  const auto vti = [&](const std::string& run, const char* name) {
    const auto image = hetflow::io::read_vti(dir / run / "ftle.vti");
    const auto* array = image.point_array(name);
    return array ? array->values<double>() : std::vector<double>{};
  };
  const std::vector<double> forward = vti("fwd", "ftle"), backward = vti("plain_bwd", "ftle");
  ASSERT_EQ(forward.size(), 64u * 32u);
  ASSERT_EQ(backward.size(), 64u * 32u);
  EXPECT_EQ(vti("fwd", "ftle_backward"), backward);
  EXPECT_EQ(vti("bwd", "ftle"), backward);
  EXPECT_EQ(vti("bwd", "ftle_forward"), forward);
  EXPECT_TRUE(vti("plain_bwd", "ftle_forward").empty());
  EXPECT_EQ(hetflow::io::read_npy(dir / "fwd" / "ftle_backward.npy").values,
            hetflow::io::read_npy(dir / "plain_bwd" / "ftle.npy").values);
  EXPECT_EQ(hetflow::io::read_npy(dir / "bwd" / "ftle_forward.npy").values,
            hetflow::io::read_npy(dir / "fwd" / "ftle.npy").values);
  double worst = 0;
  for (std::size_t j = 0; j < 32; ++j)
    for (std::size_t i = 0; i < 64; ++i)
      worst = std::max(worst, std::abs(backward[i + 64 * j] - forward[(63 - i) + 64 * (31 - j)]));
  EXPECT_LT(worst, 1e-9);

  const hetflow::io::PngPixels png = hetflow::io::read_png(dir / "fwd" / "ridges.png");
  EXPECT_EQ(png.width, 1060);
  EXPECT_EQ(png.height, 500);
  EXPECT_TRUE(fs::exists(dir / "bwd" / "ridges.png"));
  EXPECT_FALSE(fs::exists(dir / "plain_bwd" / "ridges.png"));

  const auto m = manifest("fwd"), plain = manifest("plain_bwd");
  EXPECT_EQ(m["status"], "complete");
  const auto& ridges = m["result"]["ridges"];
  EXPECT_EQ(ridges["direction"], "backward");
  EXPECT_EQ(ridges["array"], "ftle_backward");
  EXPECT_EQ(ridges["completed"], true);
  EXPECT_EQ(ridges["steps"], 30);
  EXPECT_EQ(ridges["integration_time"].get<double>(), -15.0);
  EXPECT_EQ(ridges["png"], "ridges.png");
  EXPECT_EQ(ridges["npy"], "ftle_backward.npy");
  for (const char* key : {"mean_ftle", "min_ftle", "max_ftle", "interior_mean_ftle"})
    EXPECT_EQ(ridges[key].get<double>(), plain["result"][key].get<double>()) << key;
  EXPECT_TRUE(m["outputs"].contains("ridges.png")) << m["outputs"];
  EXPECT_TRUE(m["outputs"].contains("ftle_backward.npy")) << m["outputs"];
  const auto median_and_max = [](std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return std::vector<double>{v[v.size() / 2], v.back()};
  };
  EXPECT_EQ(ridges["png_range"]["forward"].get<std::vector<double>>(), median_and_max(forward));
  EXPECT_EQ(ridges["png_range"]["backward"].get<std::vector<double>>(), median_and_max(backward));
  const auto bwd = manifest("bwd");
  const auto& given = bwd["result"]["ridges"];
  EXPECT_EQ(given["array"], "ftle_forward");
  EXPECT_EQ(given["png_range_source"], "output.range");
  EXPECT_EQ(given["png_range"]["forward"].get<std::vector<double>>(), (std::vector<double>{0.05, 0.3}));
  EXPECT_EQ(given["png_range"]["backward"].get<std::vector<double>>(), (std::vector<double>{0.05, 0.3}));
  EXPECT_FALSE(plain["result"].contains("ridges"));
}

// A sink u = -800 (x, y) in 320 RK4 steps over T = 1: forward, each step scales positions by R(-2.5) = 0.65
// (stable); backward by R(2.5) = 10.9, so the opposite direction's velocity -800 x overflows near step 295.
// The run fails as a single field's tracer error does (exit 1, status failed, no field written), naming
// the backward field; without output.ridges the same case runs.
TEST_F(FtleCase, RidgesReportATracerErrorOfTheSecondSolve) {
  write("sink.yaml",
        "type: ftle\nftle:\n  flow: linear\n  linear:\n    gradient: [-800, 0, 0, -800]\n"
        "  duration: 1\n  steps: 320\nseeds:\n  counts: [5, 5]\noutput:\n  dir: sink\n  ridges: true\n");
  const Result r = hetflow("run sink.yaml -q");
  EXPECT_EQ(r.status, 1) << r.output;
  EXPECT_NE(r.output.find("ftle: non-finite tracer in the backward field (output.ridges): tracer of seed "),
            std::string::npos)
      << r.output;
  const auto step_at = r.output.find("(step ");
  ASSERT_NE(step_at, std::string::npos) << r.output;
  const long step = std::stol(r.output.substr(step_at + 6));
  EXPECT_GE(step, 290) << r.output;
  EXPECT_LE(step, 300) << r.output;
  EXPECT_NE(r.output.find(" of 320, dt = -0.003125"), std::string::npos) << r.output;
  EXPECT_EQ(manifest("sink")["status"], "failed");
  EXPECT_FALSE(fs::exists(dir / "sink" / "ftle.vti"));
  EXPECT_EQ(hetflow("run sink.yaml -q --set output.ridges=false --set output.dir=forward").status, 0);
}

// Ctrl-C during a single field of 10^7 steps: the run stops after the chunk it is in, writes the field
// of the steps done (the manifest says how many) and exits 130 with status interrupted.
TEST_F(FtleCase, SigintStopsASingleFieldAndWritesItsSteps) {
  write("long.yaml", "type: ftle\nftle:\n  duration: 100000\n  dt: 0.01\nseeds:\n  counts: [17, 9]\n"
                     "output:\n  dir: long\n  png: false\n");
  // A short run first puts the kernels in the binary cache, so that the interrupt comes while stepping.
  ASSERT_EQ(hetflow("run long.yaml -q --set ftle.duration=1 --set output.dir=warm").status, 0);
  EXPECT_EQ(run_interrupted({"long.yaml"}, "long/manifest.json", std::chrono::milliseconds(500)), 130);
  const auto m = manifest("long");
  EXPECT_EQ(m["status"], "interrupted");
  const long steps = m["result"]["steps"].get<long>();
  EXPECT_GT(steps, 0);
  EXPECT_LT(steps, 10000000);
  EXPECT_NEAR(m["result"]["integration_time"].get<double>(), 0.01 * static_cast<double>(steps), 1e-6);
  const auto field = hetflow::io::read_vti(dir / "long" / "ftle.vti").point_array("ftle")->values<double>();
  EXPECT_EQ(field.size(), 17u * 9u);
}

// Ctrl-C during a sequence (direct method, 100000 short fields): the run stops after the field it is
// in, writes the fields completed (at least one) as .vti frames listed in ftle.pvd, and exits 130 with
// status interrupted; each written frame is the single run at its start time (the same kernels, so to
// round-off: 1e-12).
TEST_F(FtleCase, SigintStopsASequenceAndWritesTheFieldsCompleted) {
  write("long.yaml", "type: ftle\nftle:\n  duration: 1\n  dt: 0.1\nseeds:\n  counts: [17, 9]\n"
                     "sequence:\n  count: 100000\n  interval: 0.01\noutput:\n  dir: long\n  png: false\n");
  // The manifest is first written ("running") just before the sequence starts.
  EXPECT_EQ(run_interrupted({"long.yaml"}, "long/manifest.json", std::chrono::milliseconds(500)), 130);
  const auto m = manifest("long");
  EXPECT_EQ(m["status"], "interrupted");
  const auto& seq = m["result"]["sequence"];
  const std::size_t done = seq["completed"].get<std::size_t>();
  ASSERT_GE(done, 1u);
  ASSERT_LT(done, 100000u);
  const auto frames = hetflow::io::read_pvd(dir / "long" / "ftle.pvd");
  ASSERT_EQ(frames.size(), done);
  EXPECT_EQ(m["result"]["frames"].size(), done);
  const std::size_t last = done - 1;
  EXPECT_NEAR(frames.back().time, 0.01 * static_cast<double>(last), 1e-12);
  const std::string t0 = std::to_string(0.01 * static_cast<double>(last));
  const Result r = hetflow("run long.yaml -q --set sequence.count=1 --set ftle.t0=" + t0 +
                           " --set output.dir=single");
  ASSERT_EQ(r.status, 0) << r.output;
  const auto single = hetflow::io::read_vti(dir / "single" / "ftle.vti").point_array("ftle")->values<double>();
  const auto frame = hetflow::io::read_vti(dir / "long" / frames.back().file).point_array("ftle")->values<double>();
  ASSERT_EQ(single.size(), frame.size());
  for (std::size_t i = 0; i < single.size(); ++i) EXPECT_NEAR(frame[i], single[i], 1e-12) << "seed " << i;
}

}  // namespace
