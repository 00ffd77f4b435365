// `type: ftle` on flows past bodies (docs/ftle.md): a free stream added to gridded velocity, a body whose
// seeds get NaN (analytic shapes and an lbm voxel file), the smallest exponent ftle_min beside the FTLE,
// tracers at the data box's faces (freeze writes exit_time, the manifest counts boundary hits) and NaN on
// the seed grid's edges (output.edges); each with its malformed keys.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <initializer_list>
#include <sstream>
#include <string>
#include <vector>

#include "command_test.hpp"
#include "hetflow/display/preview.hpp"
#include "hetflow/io/png_image.hpp"
#include "hetflow/io/vtk_reader.hpp"
#include "run_outputs_check.hpp"

namespace {

namespace fs = std::filesystem;
using Result = hetflow::test::CommandResult;

class FtleRealFlows : public hetflow::test::CommandTest {
 protected:
  Result hetflow(const std::string& args) const { return run_hetflow(args + " --device " + device()); }

  std::vector<double> array(const std::string& run, const char* name) const {
    const auto image = hetflow::io::read_vti(dir / run / "ftle.vti");
    const auto* a = image.point_array(name);
    return a ? a->to_double() : std::vector<double>{};
  }

  // A steady uniform velocity (u, v) on nx x ny nodes of spacing h from the origin, float64 raw + header:
  // data/NAME.raw and data/NAME.yaml.
  void write_uniform_velocity(const std::string& name, double u, double v, int nx, int ny, double h) const {
    std::vector<double> values;
    for (int n = 0; n < nx * ny; ++n) values.insert(values.end(), {u, v});
    std::string bytes(values.size() * sizeof(double), '\0');
    std::memcpy(bytes.data(), values.data(), bytes.size());
    write("data/" + name + ".raw", bytes);
    std::ostringstream header;
    header << "dims: [" << nx << ", " << ny << "]\nspacing: " << h << "\nfiles: [" << name << ".raw]\n";
    write("data/" + name + ".yaml", header.str());
  }
  // (0.3, -0.2) on [0, 4] x [0, 2], h = 0.25 (17 x 9 nodes): data/uniform.yaml.
  void write_uniform_velocity() const { write_uniform_velocity("uniform", 0.3, -0.2, 17, 9, 0.25); }

  // Runs each case file on the test device; every run must succeed.
  void run_all(std::initializer_list<const char*> files) const {
    for (const char* file : files) {
      const Result r = hetflow(std::string("run ") + file + " -q");
      ASSERT_EQ(r.status, 0) << file << ": " << r.output;
    }
  }
};

// Seeds x0 + i h (i < n) within [lo, hi], counted from the interval's ends.
std::size_t seeds_within(double x0, double h, std::size_t n, double lo, double hi) {
  const double first = std::max(0.0, std::ceil((lo - x0) / h));
  const double last = std::min(static_cast<double>(n) - 1, std::floor((hi - x0) / h));
  return last >= first ? static_cast<std::size_t>(last - first) + 1 : 0;
}

// Uniform file velocity (0.3, -0.2) plus ftle.velocity.free_stream (0.5, 0.25), T = 1 in 10 RK4 steps:
// seeds on [1, 2] x [0.5, 1] end at seed + (0.8, 0.05), to 1e-12; the manifest records the free stream.
TEST_F(FtleRealFlows, FreeStreamAddsToUniformFileVelocity) {
  write_uniform_velocity();
  write("data/stream.yaml",
        "type: ftle\nftle:\n  flow: file\n  duration: 1\n  steps: 10\n  velocity:\n"
        "    files: [uniform.yaml]\n    free_stream: [0.5, 0.25]\nseeds:\n  origin: [1, 0.5]\n"
        "  extent: [1, 0.5]\n  counts: [5, 3]\noutput:\n  dir: stream\n  png: false\n"
        "  flow_map: true\n");
  const Result r = hetflow("run data/stream.yaml -q");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_EQ(manifest("stream")["flow"]["free_stream"], nlohmann::json::array({0.5, 0.25}));
  const std::vector<double> map = array("stream", "flow_map");
  ASSERT_EQ(map.size(), 3u * 15u);
  for (std::size_t i = 0; i < 15; ++i) {
    ASSERT_NEAR(map[3 * i], 1.0 + 0.25 * static_cast<double>(i % 5) + 0.8, 1e-12) << "seed " << i;
    ASSERT_NEAR(map[3 * i + 1], 0.5 + 0.25 * static_cast<double>(i / 5) + 0.05, 1e-12) << "seed " << i;
  }
}

TEST_F(FtleRealFlows, MalformedFreeStreamsExitTwoWithTheKey) {
  write_uniform_velocity();
  const std::string head = "type: ftle\nftle:\n  flow: file\n  velocity:\n    files: [data/uniform.yaml]\n";
  const std::vector<Bad> cases{
      {"long", head + "    free_stream: [1, 0, 0]\noutput:\n  dir: out\n",
       "long.yaml:6: ftle.velocity.free_stream has 3 entries: expected 2 (the velocity data are 2D), or [] for none"},
      {"short", head + "    free_stream: [1]\noutput:\n  dir: out\n",
       "short.yaml:6: ftle.velocity.free_stream has 1 entries: expected 2"},
      {"analytic", "type: ftle\nftle:\n  velocity:\n    free_stream: [1, 0]\noutput:\n  dir: out\n",
       "analytic.yaml:4: ftle.velocity.free_stream does not apply to ftle.flow = double_gyre"},
  };
  expect_rejected(cases);
}

// A circle off the seed lattice on the double gyre (101 x 51 seeds, T = 2): the NaN seeds of ftle.vti are
// exactly those inside (the rows' chords counted independently), the manifest's masked_seeds says as many,
// every other value is the run without the body's bit for bit, and the PNG draws the body as a grey disc:
// its pixels' bounding box is square to 2 pixels, and they fill as much of it as the masked seeds fill
// of theirs within 5 % (the seeds' cells are drawn a whole number of pixels wide).
TEST_F(FtleRealFlows, CircleBodyMasksTheSeedsInside) {
  const std::string gyre = "type: ftle\nftle:\n  duration: 2\n  dt: 0.1\n";
  const std::string rest = "seeds:\n  counts: [101, 51]\noutput:\n  dir: ";
  write("plain.yaml", gyre + rest + "plain\n");
  write("body.yaml",
        gyre + "  body:\n    shape: circle\n    centre: [0.5013, 0.4987]\n    radius: 0.2031\n" + rest + "body\n");
  ASSERT_NO_FATAL_FAILURE(run_all({"plain.yaml", "body.yaml"}));
  std::size_t direct = 0;
  for (std::size_t j = 0; j < 51; ++j) {
    const double dy = 0.02 * static_cast<double>(j) - 0.4987;
    if (std::abs(dy) > 0.2031) continue;
    const double half = std::sqrt(0.2031 * 0.2031 - dy * dy);
    direct += seeds_within(0.0, 0.02, 101, 0.5013 - half, 0.5013 + half);
  }
  const auto m = manifest("body");
  EXPECT_EQ(m["result"]["masked_seeds"].get<std::size_t>(), direct);
  EXPECT_EQ(manifest("plain")["result"]["masked_seeds"].get<std::size_t>(), 0u);
  EXPECT_EQ(m["flow"]["body"]["shape"], "circle");
  hetflow::test::expect_outputs_are_the_files(dir / "body");
  const std::vector<double> plain = array("plain", "ftle"), body = array("body", "ftle");
  ASSERT_EQ(body.size(), plain.size());
  std::size_t nan = 0;
  double sum = 0;
  std::size_t i0 = 101, i1 = 0, j0 = 51, j1 = 0;  // the masked seeds' bounding box
  for (std::size_t i = 0; i < body.size(); ++i) {
    const double dx = 0.02 * static_cast<double>(i % 101) - 0.5013, dy = 0.02 * static_cast<double>(i / 101) - 0.4987;
    const bool inside = dx * dx + dy * dy <= 0.2031 * 0.2031;
    if (std::isnan(body[i])) {
      ++nan;
      i0 = std::min(i0, i % 101), i1 = std::max(i1, i % 101), j0 = std::min(j0, i / 101), j1 = std::max(j1, i / 101);
      ASSERT_TRUE(inside) << "seed " << i;
    } else {
      ASSERT_FALSE(inside) << "seed " << i;
      ASSERT_EQ(std::memcmp(&body[i], &plain[i], sizeof(double)), 0) << "seed " << i;
      sum += body[i];
    }
  }
  EXPECT_EQ(nan, direct);
  EXPECT_NEAR(m["result"]["mean_ftle"].get<double>(), sum / static_cast<double>(body.size() - nan), 1e-12);

  const auto grey = [&](const char* run) {
    const hetflow::io::PngPixels png = hetflow::io::read_png(dir / run / "ftle.png");
    std::size_t count = 0;
    int x0 = png.width, x1 = -1, y0 = png.height, y1 = -1;
    for (int y = 0; y < png.height; ++y) {
      for (int x = 0; x < png.width; ++x) {
        const hetflow::io::Rgb c = png.rgb_at(x, y);
        if (c.r != hetflow::display::kNanColor.r || c.g != hetflow::display::kNanColor.g ||
            c.b != hetflow::display::kNanColor.b)
          continue;
        ++count;
        x0 = std::min(x0, x), x1 = std::max(x1, x), y0 = std::min(y0, y), y1 = std::max(y1, y);
      }
    }
    return std::array<double, 3>{static_cast<double>(count), static_cast<double>(x1 - x0 + 1),
                                 static_cast<double>(y1 - y0 + 1)};
  };
  EXPECT_EQ(grey("plain")[0], 0.0);
  const auto disc = grey("body");
  ASSERT_GT(disc[0], 0.0);
  EXPECT_NEAR(disc[1], disc[2], 2.0);
  const double share = static_cast<double>(nan) / static_cast<double>((i1 - i0 + 1) * (j1 - j0 + 1));
  EXPECT_NEAR(disc[0] / (disc[1] * disc[2]), share, 0.05 * share);
}

// A voxel body in lbm's raw format (uint8, solid 1) on the seeds' own lattice: 21 x 11 seeds on
// [0, 2] x [0, 1], the voxel grid 21 x 11 x 1 with spacing 0.1 from the origin, solid at x nodes 5..9 and
// y nodes 3..6: those 20 seeds, and no others, are NaN.
TEST_F(FtleRealFlows, VoxelBodyFromAnLbmRawFile) {
  std::string voxels(21 * 11, '\0');
  for (int j = 3; j <= 6; ++j)
    for (int i = 5; i <= 9; ++i) voxels[static_cast<std::size_t>(i + 21 * j)] = 1;
  write("data/body.raw", voxels);
  write("data/body.yaml", "file: body.raw\ndims: [21, 11, 1]\nsolid: [1]\nspacing: 0.1\n");
  write("voxels.yaml",
        "type: ftle\nftle:\n  duration: 1\n  steps: 10\n  body:\n    shape: voxels\n"
        "    file: data/body.yaml\nseeds:\n  counts: [21, 11]\noutput:\n  dir: voxels\n  png: false\n");
  const Result r = hetflow("run voxels.yaml -q");
  ASSERT_EQ(r.status, 0) << r.output;
  const auto m = manifest("voxels");
  EXPECT_EQ(m["result"]["masked_seeds"], 20);
  EXPECT_EQ(m["flow"]["body"]["solid_voxels"], 20);
  EXPECT_EQ(m["flow"]["body"]["dims"], nlohmann::json::array({21, 11, 1}));
  const std::vector<double> field = array("voxels", "ftle");
  ASSERT_EQ(field.size(), 21u * 11u);
  for (std::size_t i = 0; i < field.size(); ++i) {
    const std::size_t x = i % 21, y = i / 21;
    EXPECT_EQ(std::isnan(field[i]), x >= 5 && x <= 9 && y >= 3 && y <= 6) << x << " " << y;
  }
}

TEST_F(FtleRealFlows, MalformedBodiesExitTwoWithTheKey) {
  const std::string head = "type: ftle\nftle:\n  body:\n";
  const std::string tail = "output:\n  dir: out\n";
  const std::vector<Bad> cases{
      {"negative", head + "    shape: circle\n    centre: [1, 0.5]\n    radius: -0.1\n" + tail,
       "negative.yaml:6: ftle.body.radius = -0.1: expected a radius > 0 for ftle.body.shape = circle"},
      {"noradius", head + "    shape: circle\n    centre: [1, 0.5]\n" + tail,
       "ftle.body.radius = 0 (not given): expected a radius > 0"},
      {"unknown", head + "    shape: blob\n" + tail, "unknown.yaml:4: ftle.body.shape = blob"},
      {"centre", head + "    shape: circle\n    centre: [1, 0.5, 0]\n    radius: 0.1\n" + tail,
       "centre.yaml:5: ftle.body.centre has 3 entries for ftle.body.shape = circle: expected 2 coordinates (the "
       "flow is 2D)"},
      {"other", head + "    shape: box\n    lower: [0, 0]\n    upper: [1, 1]\n    radius: 0.1\n" + tail,
       "other.yaml:7: ftle.body.radius does not apply to ftle.body.shape = box: that shape reads lower, upper"},
      {"flat", head + "    shape: sphere\n    centre: [1, 0.5, 0]\n    radius: 0.1\n" + tail,
       "flat.yaml:4: ftle.body.shape = sphere is 3D, but the flow is 2D: expected circle, box or voxels"},
      {"empty", head + "    shape: box\n    lower: [0, 0.5]\n    upper: [1, 0.5]\n" + tail,
       "empty.yaml:6: ftle.body.upper along y is 0.5, not above ftle.body.lower's 0.5"},
      {"all", head + "    shape: box\n    lower: [-1, -1]\n    upper: [3, 3]\n" + tail,
       "all.yaml:4: the body (ftle.body.shape = box) covers all 80601 seeds"},
      {"missing", head + "    shape: voxels\n    file: nowhere.yaml\n" + tail, "missing.yaml:5: ftle.body.file = "},
      {"nofile", head + "    shape: voxels\n" + tail, "ftle.body.file is required for ftle.body.shape = voxels"},
  };
  expect_rejected(cases);
}

// output.lambda_min on the saddle u = (x, -y), T = 2 in 200 RK4 steps: ftle_min is -1 at every seed within
// RK4's truncation error (1e-6 asserted; dt^4 / 120 ~ 1e-10), ftle + ftle_min = ln det F / T below 1e-9,
// and the manifest's ftle_min statistics say so; a sequence refuses the key.
TEST_F(FtleRealFlows, LambdaMinOfTheSaddle) {
  write("saddle.yaml",
        "type: ftle\nftle:\n  flow: linear\n  duration: 2\n  steps: 200\nseeds:\n  counts: [9, 7]\n"
        "output:\n  dir: saddle\n  png: false\n  lambda_min: true\n");
  const Result r = hetflow("run saddle.yaml -q");
  ASSERT_EQ(r.status, 0) << r.output;
  const std::vector<double> least = array("saddle", "ftle_min"), most = array("saddle", "ftle");
  ASSERT_EQ(least.size(), 63u);
  for (std::size_t i = 0; i < least.size(); ++i) {
    ASSERT_NEAR(least[i], -1.0, 1e-6) << "seed " << i;
    ASSERT_NEAR(least[i] + most[i], 0.0, 1e-9) << "seed " << i;
  }
  const auto m = manifest("saddle");
  EXPECT_NEAR(m["result"]["ftle_min"]["mean"].get<double>(), -1.0, 1e-6);
  EXPECT_EQ(m["result"]["ftle_min"]["singular_seeds"], 0);
  EXPECT_EQ(array("saddle", "eigenvector").size(), 0u);

  const Result q = hetflow("run -q -o seq --set sequence.count=2 --set output.lambda_min=true");
  EXPECT_EQ(q.status, 2) << q.output;
  EXPECT_NE(q.output.find("output.lambda_min does not apply to a sequence"), std::string::npos) << q.output;
}

// Uniform (1, 0.5) on [0, 1]^2, one seed per node, T = 0.75 in 10 RK4 steps. Freeze: exit_time in
// ftle.vti is t = min(1 - x0, (1 - y0) / 0.5) to 1e-12 for the 100 seeds with t < T and NaN for the 21
// others (x0 <= 0.2, y0 <= 0.6); result.boundary counts the 100, as do stopped_tracers, with exit times
// from 0 (seeds on the faces x = 1 or y = 1) to 0.7. Stop halts and counts the same 100 tracers and
// writes no exit_time.
TEST_F(FtleRealFlows, FreezeWritesExitTimesAndTheManifestCountsBoundaryHits) {
  write_uniform_velocity("drift", 1.0, 0.5, 11, 11, 0.1);
  for (const std::string mode : {"freeze", "stop"}) {
    write(mode + ".yaml", "type: ftle\nftle:\n  flow: file\n  boundary: " + mode +
                              "\n  duration: 0.75\n  steps: 10\n  velocity:\n    files: [data/drift.yaml]\noutput:\n"
                              "  png: false\n  dir: " +
                              mode + "\n");
  }
  ASSERT_NO_FATAL_FAILURE(run_all({"freeze.yaml", "stop.yaml"}));
  const std::vector<double> exits = array("freeze", "exit_time");
  ASSERT_EQ(exits.size(), 121u);
  std::size_t left = 0;
  for (std::size_t i = 0; i < exits.size(); ++i) {
    const double x0 = 0.1 * static_cast<double>(i % 11), y0 = 0.1 * static_cast<double>(i / 11);
    const double t = std::min(1 - x0, (1 - y0) / 0.5);
    if (t < 0.75) {
      ++left;
      EXPECT_NEAR(exits[i], t, 1e-12) << "seed " << i;
    } else {
      EXPECT_TRUE(std::isnan(exits[i])) << "seed " << i;
    }
  }
  ASSERT_EQ(left, 100u);
  const auto freeze = manifest("freeze")["result"];
  EXPECT_EQ(freeze["boundary"]["mode"], "freeze");
  EXPECT_EQ(freeze["boundary"]["tracers_hit"].get<std::size_t>(), left);
  EXPECT_EQ(freeze["stopped_tracers"].get<std::size_t>(), left);
  EXPECT_NEAR(freeze["boundary"]["min_exit_time"].get<double>(), 0.0, 1e-12);
  EXPECT_NEAR(freeze["boundary"]["max_exit_time"].get<double>(), 0.7, 1e-12);
  const auto stop = manifest("stop")["result"];
  EXPECT_EQ(stop["boundary"]["mode"], "stop");
  EXPECT_EQ(stop["boundary"]["tracers_hit"].get<std::size_t>(), left);
  EXPECT_EQ(stop["stopped_tracers"].get<std::size_t>(), left);
  EXPECT_TRUE(array("stop", "exit_time").empty());
}

// The double gyre on 41 x 21 seeds, T = 2: output.edges: nan puts NaN exactly on the 2 (41 + 21) - 4 = 120
// seeds of the grid's faces, in ftle and ftle_min, leaves every other value of the one-sided run bit for
// bit, counts them as result.edge_seeds, and its mean is the one-sided run's interior mean to 1e-12.
TEST_F(FtleRealFlows, NanEdgesPutNanExactlyOnTheSeedGridsFaces) {
  const std::string gyre =
      "type: ftle\nftle:\n  duration: 2\n  dt: 0.1\nseeds:\n  counts: [41, 21]\noutput:\n"
      "  png: false\n  lambda_min: true\n  dir: ";
  write("one_sided.yaml", gyre + "one_sided\n");
  write("nan.yaml", gyre + "nan\n  edges: nan\n");
  ASSERT_NO_FATAL_FAILURE(run_all({"one_sided.yaml", "nan.yaml"}));
  for (const char* name : {"ftle", "ftle_min"}) {
    const std::vector<double> plain = array("one_sided", name), nan = array("nan", name);
    ASSERT_EQ(nan.size(), 41u * 21u) << name;
    ASSERT_EQ(plain.size(), nan.size()) << name;
    std::size_t ring = 0;
    for (std::size_t i = 0; i < nan.size(); ++i) {
      const std::size_t x = i % 41, y = i / 41;
      if (x == 0 || x == 40 || y == 0 || y == 20) {
        ++ring;
        EXPECT_TRUE(std::isnan(nan[i])) << name << " seed " << i;
      } else {
        ASSERT_EQ(std::memcmp(&nan[i], &plain[i], sizeof(double)), 0) << name << " seed " << i;
      }
    }
    EXPECT_EQ(ring, 120u) << name;
  }
  const auto m = manifest("nan")["result"];
  EXPECT_EQ(m["edge_seeds"].get<std::size_t>(), 120u);
  EXPECT_EQ(manifest("one_sided")["result"]["edge_seeds"].get<std::size_t>(), 0u);
  EXPECT_NEAR(m["mean_ftle"].get<double>(), manifest("one_sided")["result"]["interior_mean_ftle"].get<double>(), 1e-12);
}

TEST_F(FtleRealFlows, MalformedBoundaryAndEdgeKeysExitTwoWithTheKey) {
  write_uniform_velocity("drift", 1.0, 0.5, 11, 11, 0.1);
  const std::string file = "type: ftle\nftle:\n  flow: file\n  velocity:\n    files: [data/drift.yaml]\n";
  const std::vector<Bad> cases{
      {"unknown", file + "  boundary: wrap\noutput:\n  dir: out\n", "unknown.yaml:6: ftle.boundary = wrap"},
      {"analytic", "type: ftle\nftle:\n  boundary: freeze\noutput:\n  dir: out\n",
       "analytic.yaml:3: ftle.boundary applies to gridded velocity only (ftle.flow: file), not to the analytic flow "
       "double_gyre"},
      {"maps",
       file + "  boundary: extrapolate\n  duration: 4\n  steps: 40\nsequence:\n  count: 2\n"
              "  method: flow_maps\noutput:\n  dir: out\n",
       "maps.yaml:6: ftle.boundary = extrapolate does not suit sequence.method flow_maps"},
      {"edges", file + "output:\n  dir: out\n  edges: zero\n", "edges.yaml:8: output.edges = zero"},
      {"ring", file + "seeds:\n  counts: [2, 5]\noutput:\n  dir: out\n  edges: nan\n",
       "ring.yaml:10: output.edges = nan leaves no seed: the seed grid has 2 seeds along x, all on its faces"},
  };
  expect_rejected(cases);
}

}  // namespace
