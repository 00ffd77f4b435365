#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "hetflow/core/cl.hpp"

namespace hetflow::core {

enum class DeviceKind { gpu, cpu, accelerator, other };

// What hetflow needs to know of a device, read once at discovery. Plain data, so the selection
// logic can be tested on made-up device lists.
struct DeviceInfo {
  std::string name;
  std::string vendor;
  std::string platform;          // platform name, e.g. "NVIDIA CUDA", "Portable Computing Language"
  std::string platform_vendor;
  std::string platform_version;
  std::string driver;            // CL_DRIVER_VERSION
  std::string version;           // CL_DEVICE_VERSION
  std::string opencl_c;          // CL_DEVICE_OPENCL_C_VERSION
  DeviceKind kind = DeviceKind::other;
  std::uint64_t global_mem = 0;
  std::uint64_t max_alloc = 0;
  std::uint64_t local_mem = 0;
  unsigned compute_units = 0;
  std::size_t max_work_group = 0;
  bool fp64 = false;
  unsigned platform_index = 0;   // position of the platform in discovery order
  unsigned index = 0;            // position of the device in the global list (`hetflow devices`)
};

const char* to_string(DeviceKind kind);

// Whether kernels built for `device` take a register budget per work-item (-cl-nv-maxrregcount):
// NVIDIA's OpenCL compiler only.
bool takes_register_budget(const DeviceInfo& device);
// Whether kernels built for `device` may hold inline PTX (asm statements): NVIDIA's OpenCL compiler only.
bool takes_inline_ptx(const DeviceInfo& device);

struct Device {
  cl_platform_id platform = nullptr;
  cl_device_id id = nullptr;
  DeviceInfo info;

  // "NVIDIA H200 (NVIDIA CUDA, device 0)": how messages and manifests name a device.
  std::string label() const;
};

// Every device of every platform, in a stable order. Throws NoPlatformError with a hint when the
// OpenCL loader finds no platform at all.
std::vector<Device> discover_devices();

}  // namespace hetflow::core
