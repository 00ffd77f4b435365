// What mapping 1's private matrices have a GPU's driver reserve, when mapping 1 keeps them beside its
// chunk instead, and the error that replaces a bare CL code when a launch runs out of memory. On made-up
// devices: an H200 (132 compute units, 141 GB) and a CPU.
#include <gtest/gtest.h>

#include "hetflow/ode/radau5_launch.hpp"

namespace hetflow::ode {
namespace {

core::Device made_up(core::DeviceKind kind, unsigned units, std::uint64_t memory) {
  core::Device d;
  d.info.name = kind == core::DeviceKind::gpu ? "GPU" : "CPU";
  d.info.platform = "test";
  d.info.kind = kind;
  d.info.compute_units = units;
  d.info.global_mem = memory;
  return d;
}

constexpr std::uint64_t h200_memory = 150'000'000'000;

TEST(OdeLaunchMemory, PrivateMatricesAreReservedForEveryResidentWorkItem) {
  const core::Device gpu = made_up(core::DeviceKind::gpu, 132, h200_memory);
  const Options o;
  EXPECT_EQ(launch::resident_work_items(gpu, o), 132u * 2048u);
  // n = 60: 4 * 3600 doubles and 120 ints per work-item, 29.1 GiB in all: above an eighth of 150 GB.
  EXPECT_EQ(launch::private_matrix_bytes(gpu, o, 60), std::size_t{270336} * (115200 + 480));
  EXPECT_TRUE(launch::system_matrices(gpu, o, Mapping::work_item, System{.n = 60}));
  // n = 16: 2.1 GiB, below it; the other mappings never.
  EXPECT_EQ(launch::private_matrix_bytes(gpu, o, 16), std::size_t{270336} * (8192 + 128));
  EXPECT_FALSE(launch::system_matrices(gpu, o, Mapping::work_item, System{.n = 16}));
  EXPECT_FALSE(launch::system_matrices(gpu, o, Mapping::work_group, System{.n = 60}));
  EXPECT_FALSE(launch::system_matrices(gpu, o, Mapping::phased, System{.n = 60}));
  Options limited;
  limited.private_matrix_limit = 1'000'000'000;
  EXPECT_TRUE(launch::system_matrices(gpu, limited, Mapping::work_item, System{.n = 16}));
  // A system with a Jacobian pattern always: its slots hold the sparse factors' vectors besides n^2.
  const System sparse{.n = 16, .analytic_jacobian = true, .jacobian_pattern = {{0, 1}}};
  EXPECT_TRUE(launch::system_matrices(gpu, o, Mapping::work_item, sparse));
  EXPECT_EQ(launch::matrix_doubles(sparse), 16u * 16u + 2u * 16u + 1u);
  // A CPU's private arrays are stack: no limit unless one is set. 2 units: 16 groups of 4 each.
  const core::Device cpu = made_up(core::DeviceKind::cpu, 2, h200_memory);
  EXPECT_EQ(launch::resident_work_items(cpu, o), 128u);
  EXPECT_FALSE(launch::system_matrices(cpu, o, Mapping::work_item, System{.n = 64}));
  // 128 work-items of 131072 + 512 bytes at n = 64: 16.8 MB, below a limit of 1 GB, above one of 16 MB.
  EXPECT_EQ(launch::private_matrix_bytes(cpu, o, 64), 16842752u);
  EXPECT_FALSE(launch::system_matrices(cpu, limited, Mapping::work_item, System{.n = 64}));
  limited.private_matrix_limit = 16'000'000;
  EXPECT_TRUE(launch::system_matrices(cpu, limited, Mapping::work_item, System{.n = 64}));
}

TEST(OdeLaunchMemory, OutOfMemorySaysWhatTheLaunchNeedsAndTheDeviceHas) {
  const core::Device gpu = made_up(core::DeviceKind::gpu, 132, h200_memory);
  // 150000 bytes per work-item for 270336 work-items: 38672 MiB, beside 1 GiB of buffers.
  EXPECT_EQ(launch::out_of_memory(gpu, Options{}, Mapping::work_item, 150000, std::size_t{1} << 30,
                                  "clEnqueueNDRangeKernel(radau5_integrate): CL_OUT_OF_HOST_MEMORY"),
            "RADAU5's work_item mapping ran out of memory on GPU (test, device 0) "
            "(clEnqueueNDRangeKernel(radau5_integrate): CL_OUT_OF_HOST_MEMORY): it needs about 39696 MiB, "
            "38672 MiB of private memory (150000 bytes per work-item, reserved for each of the 270336 work-items "
            "the device holds at once) and 1024 MiB of buffers, and the device has 143052 MiB, shared with every "
            "process that uses it: run fewer processes on it at once, or lower the ODE options' memory_budget or "
            "private_matrix_limit");
}

}  // namespace
}  // namespace hetflow::ode
