#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "hetflow/fem/checkpoint.hpp"
#include "hetflow/fem/edge_data.hpp"
#include "hetflow/fem/flow_solver.hpp"
#include "hetflow/io/atomic_file.hpp"
#include "hetflow/io/error.hpp"
#include "small_meshes.hpp"
#include "temp_dir.hpp"
#include "test_devices.hpp"

namespace hetflow::fem {
namespace {

// A lid-driven cube: u = (1, 0, 0) on the top face, 0 on the others, p fixed at node 0.
BoundaryConstraints lid_driven(const CubeMesh& cube) {
  BoundaryConstraints c;
  for (std::uint32_t i = 0; i < cube.interior.size(); ++i)
    if (!cube.interior[i]) {
      c.dirichlet_nodes.push_back(i);
      c.dirichlet_values.push_back({cube.mesh.nodes[i][2] > 1 - 1e-12 ? 1.0 : 0.0, 0, 0});
      c.dirichlet_ramp_times.push_back(0);
    }
  c.pressure_nodes = {0};
  c.pressure_values = {0.0};
  return c;
}

std::string message_of(const std::filesystem::path& path, const Mesh& mesh) {
  try {
    read_checkpoint(path, mesh);
  } catch (const io::FormatError& e) {
    return e.what();
  }
  return "(read)";
}

class FemCheckpoint : public ::testing::Test {
 protected:
  FemCheckpoint() : cube_(cube_mesh(4, 0.1)), data_(build_edge_data(cube_.mesh)), devices_(test::test_device()) {
    parameters_.momentum.viscosity = 0.01;
  }

  FlowSolver solver() const { return FlowSolver(devices_, 0, cube_.mesh, data_, parameters_, lid_driven(cube_)); }

  CubeMesh cube_;
  EdgeData data_;
  core::DeviceSet devices_;
  FlowParameters parameters_;
  test::TempDir dir_;
};

TEST_F(FemCheckpoint, ARestartRepeatsTheUninterruptedRunBitForBit) {
  FlowSolver straight = solver();
  for (int k = 0; k < 6; ++k) straight.advance(straight.stable_dt(0.9));

  FlowSolver first = solver();
  for (int k = 0; k < 3; ++k) first.advance(first.stable_dt(0.9));
  write_checkpoint(dir_ / "state.bin", cube_.mesh, first.state());
  FlowSolver second = solver();
  second.set_state(read_checkpoint(dir_ / "state.bin", cube_.mesh));
  EXPECT_EQ(second.step(), 3);
  for (int k = 0; k < 3; ++k) second.advance(second.stable_dt(0.9));

  const FlowState a = straight.state(), b = second.state();
  EXPECT_EQ(b.step, 6);
  EXPECT_EQ(std::memcmp(&a.time, &b.time, sizeof a.time), 0);
  ASSERT_EQ(a.velocity.size(), b.velocity.size());
  EXPECT_EQ(std::memcmp(a.velocity.data(), b.velocity.data(), a.velocity.size() * sizeof(Vec3)), 0);
  EXPECT_EQ(std::memcmp(a.pressure.data(), b.pressure.data(), a.pressure.size() * sizeof(double)), 0);
  EXPECT_EQ(std::memcmp(a.projection.data(), b.projection.data(), a.projection.size() * sizeof(Vec3)), 0);
  // The restarted run did move: the lid has set the fluid in motion.
  EXPECT_GT(b.velocity[62][0] * b.velocity[62][0], 0.0);
}

TEST_F(FemCheckpoint, AnotherMeshIsRefused) {
  write_checkpoint(dir_ / "state.bin", cube_.mesh, solver().state());
  Mesh other = cube_.mesh;
  other.nodes[7][0] += 1e-9;
  const std::string what = message_of(dir_ / "state.bin", other);
  EXPECT_NE(what.find("state.bin: the checkpoint was written for another mesh"), std::string::npos) << what;
}

TEST_F(FemCheckpoint, MalformedFilesAreRefusedWithTheReason) {
  const FlowState state = solver().state();
  write_checkpoint(dir_ / "state.bin", cube_.mesh, state);
  std::vector<char> bytes = io::read_file_bytes(dir_ / "state.bin");

  io::write_file_atomically(dir_ / "short.bin", std::string_view(bytes.data(), bytes.size() - 8));
  EXPECT_NE(message_of(dir_ / "short.bin", cube_.mesh).find("short.bin: the checkpoint is truncated at byte"),
            std::string::npos);
  io::write_file_atomically(dir_ / "long.bin", std::string(bytes.begin(), bytes.end()) + "xyz");
  EXPECT_NE(message_of(dir_ / "long.bin", cube_.mesh).find("long.bin: 3 bytes follow the checkpoint's state"),
            std::string::npos);
  io::write_file_atomically(dir_ / "other.bin", "velocity,pressure\n1,2\n");
  EXPECT_NE(message_of(dir_ / "other.bin", cube_.mesh).find("other.bin: not a hetflow fem checkpoint"),
            std::string::npos);
}

}  // namespace
}  // namespace hetflow::fem
