#include <gtest/gtest.h>

#include "hetflow/core/error.hpp"
#include "hetflow/core/selection.hpp"

namespace hetflow::core {
namespace {

DeviceInfo make(const char* name, const char* platform, DeviceKind kind, unsigned platform_index, unsigned index) {
  DeviceInfo d;
  d.name = name;
  d.platform = platform;
  d.platform_vendor = platform;
  d.kind = kind;
  d.platform_index = platform_index;
  d.index = index;
  return d;
}

// Two platforms: PoCL with a CPU, NVIDIA with two GPUs.
std::vector<DeviceInfo> mixed() {
  return {make("cpu0", "Portable Computing Language", DeviceKind::cpu, 0, 0),
          make("H200", "NVIDIA CUDA", DeviceKind::gpu, 1, 1), make("H200", "NVIDIA CUDA", DeviceKind::gpu, 1, 2)};
}

using V = std::vector<std::size_t>;

TEST(CoreSelection, AutoTakesEveryGpuOfTheBestPlatform) { EXPECT_EQ(select_indices("auto", mixed()), (V{1, 2})); }

TEST(CoreSelection, AutoFallsBackToTheFirstCpu) {
  const std::vector<DeviceInfo> cpus = {make("a", "pocl", DeviceKind::cpu, 0, 0), make("b", "pocl", DeviceKind::cpu, 0, 1)};
  EXPECT_EQ(select_indices("auto", cpus), (V{0}));
}

TEST(CoreSelection, KindsIndicesPlatformsAndLists) {
  const auto d = mixed();
  EXPECT_EQ(select_indices("gpu", d), (V{1, 2}));
  EXPECT_EQ(select_indices("gpu:1", d), (V{2}));
  EXPECT_EQ(select_indices("cpu", d), (V{0}));
  EXPECT_EQ(select_indices("all", d), (V{0, 1, 2}));
  EXPECT_EQ(select_indices("nvidia:0", d), (V{1}));
  EXPECT_EQ(select_indices("NVIDIA", d), (V{1, 2}));
  EXPECT_EQ(select_indices("portable", d), (V{0}));
  EXPECT_EQ(select_indices("2", d), (V{2}));
  EXPECT_EQ(select_indices("gpu:1, cpu:0, gpu", d), (V{2, 0, 1}));
}

TEST(CoreSelection, BadTermsNameTheTermAndWhatExists) {
  const auto d = mixed();
  auto message = [&](const char* spec) {
    try {
      select_indices(spec, d);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message("gpu:2").find("'gpu:2': there are 2 gpu devices"), std::string::npos) << message("gpu:2");
  EXPECT_NE(message("amd").find("no platform matches 'amd'"), std::string::npos);
  EXPECT_NE(message("7").find("there are 3 devices"), std::string::npos);
  EXPECT_NE(message("gpu:x").find("'x' is not a device number"), std::string::npos);
  EXPECT_NE(message("gpu,,cpu").find("empty entry"), std::string::npos);
  const std::vector<DeviceInfo> cpus = {make("a", "pocl", DeviceKind::cpu, 0, 0)};
  EXPECT_THROW(select_indices("gpu", cpus), Error);
}

// The command maps the two to different exit statuses: a malformed selection is a mistake on any machine
// (even one without the devices it names), a well-formed one that matches nothing may be right elsewhere.
TEST(CoreSelection, MalformedSelectionsAreToldApartFromMissingDevices) {
  const std::vector<DeviceInfo> cpus = {make("a", "pocl", DeviceKind::cpu, 0, 0)};
  for (const char* spec : {"", " ", "gpu:x", "cpu:", ":0", "cpu,,gpu", "cpu,", "nvidia:-1", "gpu:1x"})
    EXPECT_THROW(select_indices(spec, cpus), SelectionError) << "'" << spec << "'";
  for (const char* spec : {"gpu", "gpu:0", "cpu:1", "1", "nvidia", "nonsense", "cpu, amd:0"})
    EXPECT_THROW(select_indices(spec, cpus), NoDeviceError) << "'" << spec << "'";
  EXPECT_THROW(select_indices("cpu", {}), NoDeviceError);
  EXPECT_THROW(select_indices("gpu:x", {}), SelectionError);
}

}  // namespace
}  // namespace hetflow::core
