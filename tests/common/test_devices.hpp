#pragma once
#include <cstdlib>
#include <string>

#include "hetflow/core/device_set.hpp"

namespace hetflow::test {

// The devices tests run on: CTest sets HETFLOW_TEST_DEVICE (one device) and HETFLOW_TEST_DEVICES
// (two or more) from CMake cache variables; CI uses PoCL, scripts/gpu the NVIDIA GPU.
inline std::string test_device_spec(bool several) {
  const char* v = std::getenv(several ? "HETFLOW_TEST_DEVICES" : "HETFLOW_TEST_DEVICE");
  return v && *v ? v : (several ? "cpu" : "cpu:0");
}

inline core::DeviceSet test_device() { return core::DeviceSet::select(test_device_spec(false)); }
inline core::DeviceSet test_devices() { return core::DeviceSet::select(test_device_spec(true)); }

// Whether every device of `several` is of the platform of `one`'s first device. Results computed on
// several platforms (the GPU machine's NVIDIA GPU beside a PoCL CPU) may differ in the last bits: the
// platforms' sin, cos, exp and pow, and their fusing of multiply-adds, are not the same.
inline bool one_platform(const core::DeviceSet& one, const core::DeviceSet& several) {
  for (std::size_t k = 0; k < several.size(); ++k) {
    if (several.device(k).info.platform != one.device(0).info.platform) return false;
  }
  return true;
}

}  // namespace hetflow::test
