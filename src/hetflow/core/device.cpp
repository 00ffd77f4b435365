#include "hetflow/core/device.hpp"

#include <cstdlib>
#include <optional>

#include "hetflow/core/error.hpp"

namespace hetflow::core {
namespace {

std::string platform_string(cl_platform_id p, cl_platform_info what) {
  std::size_t n = 0;
  check(clGetPlatformInfo(p, what, 0, nullptr, &n), "clGetPlatformInfo");
  std::string s(n, '\0');
  check(clGetPlatformInfo(p, what, n, s.data(), nullptr), "clGetPlatformInfo");
  while (!s.empty() && s.back() == '\0') s.pop_back();
  return s;
}

std::string device_string(cl_device_id d, cl_device_info what) {
  std::size_t n = 0;
  check(clGetDeviceInfo(d, what, 0, nullptr, &n), "clGetDeviceInfo");
  std::string s(n, '\0');
  check(clGetDeviceInfo(d, what, n, s.data(), nullptr), "clGetDeviceInfo");
  while (!s.empty() && (s.back() == '\0' || s.back() == ' ')) s.pop_back();
  return s;
}

template <class T>
T device_value(cl_device_id d, cl_device_info what) {
  T v{};
  check(clGetDeviceInfo(d, what, sizeof(T), &v, nullptr), "clGetDeviceInfo");
  return v;
}

// Loading the drivers may rewrite the process environment: with PoCL 5 beside NVIDIA's driver,
// OCL_ICD_FILENAMES is cut to its first entry, so every process started afterwards (the CLI from a
// Python session, mpiexec) would lose the GPU. The user's value is put back once the loader is done.
class IcdFilenamesKept {
 public:
  IcdFilenamesKept() {
    if (const char* v = std::getenv("OCL_ICD_FILENAMES")) value_ = v;
  }
  ~IcdFilenamesKept() {
    const char* now = std::getenv("OCL_ICD_FILENAMES");
    if (value_ && (!now || *value_ != now)) ::setenv("OCL_ICD_FILENAMES", value_->c_str(), 1);
  }
  IcdFilenamesKept(const IcdFilenamesKept&) = delete;
  IcdFilenamesKept& operator=(const IcdFilenamesKept&) = delete;

 private:
  std::optional<std::string> value_;
};

DeviceKind kind_of(cl_device_type t) {
  if (t & CL_DEVICE_TYPE_GPU) return DeviceKind::gpu;
  if (t & CL_DEVICE_TYPE_CPU) return DeviceKind::cpu;
  if (t & CL_DEVICE_TYPE_ACCELERATOR) return DeviceKind::accelerator;
  return DeviceKind::other;
}

}  // namespace

const char* to_string(DeviceKind kind) {
  switch (kind) {
    case DeviceKind::gpu: return "GPU";
    case DeviceKind::cpu: return "CPU";
    case DeviceKind::accelerator: return "accelerator";
    case DeviceKind::other: break;
  }
  return "other";
}

bool takes_register_budget(const DeviceInfo& device) { return device.platform.find("NVIDIA") != std::string::npos; }
bool takes_inline_ptx(const DeviceInfo& device) { return takes_register_budget(device); }

std::string Device::label() const {
  return info.name + " (" + info.platform + ", device " + std::to_string(info.index) + ")";
}

std::vector<Device> discover_devices() {
  const IcdFilenamesKept icd_filenames;
  cl_uint n_platforms = 0;
  const cl_int status = clGetPlatformIDs(0, nullptr, &n_platforms);
  // -1001 is CL_PLATFORM_NOT_FOUND_KHR: the ICD loader found no vendor file.
  if (status == -1001 || (status == CL_SUCCESS && n_platforms == 0)) {
    throw NoPlatformError(
        "no OpenCL platform found: install an OpenCL driver (on Debian: apt-get install "
        "pocl-opencl-icd) or point OCL_ICD_VENDORS at a folder of .icd files");
  }
  check(status, "clGetPlatformIDs");
  std::vector<cl_platform_id> platforms(n_platforms);
  check(clGetPlatformIDs(n_platforms, platforms.data(), nullptr), "clGetPlatformIDs");

  std::vector<Device> devices;
  for (unsigned p = 0; p < n_platforms; ++p) {
    cl_uint n = 0;
    const cl_int s = clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, 0, nullptr, &n);
    if (s == CL_DEVICE_NOT_FOUND || n == 0) continue;  // a platform with no usable device
    check(s, "clGetDeviceIDs");
    std::vector<cl_device_id> ids(n);
    check(clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, n, ids.data(), nullptr), "clGetDeviceIDs");
    for (cl_device_id id : ids) {
      Device d;
      d.platform = platforms[p];
      d.id = id;
      DeviceInfo& i = d.info;
      i.name = device_string(id, CL_DEVICE_NAME);
      i.vendor = device_string(id, CL_DEVICE_VENDOR);
      i.platform = platform_string(platforms[p], CL_PLATFORM_NAME);
      i.platform_vendor = platform_string(platforms[p], CL_PLATFORM_VENDOR);
      i.platform_version = platform_string(platforms[p], CL_PLATFORM_VERSION);
      i.driver = device_string(id, CL_DRIVER_VERSION);
      i.version = device_string(id, CL_DEVICE_VERSION);
      i.opencl_c = device_string(id, CL_DEVICE_OPENCL_C_VERSION);
      i.kind = kind_of(device_value<cl_device_type>(id, CL_DEVICE_TYPE));
      i.global_mem = device_value<cl_ulong>(id, CL_DEVICE_GLOBAL_MEM_SIZE);
      i.max_alloc = device_value<cl_ulong>(id, CL_DEVICE_MAX_MEM_ALLOC_SIZE);
      i.local_mem = device_value<cl_ulong>(id, CL_DEVICE_LOCAL_MEM_SIZE);
      i.compute_units = device_value<cl_uint>(id, CL_DEVICE_MAX_COMPUTE_UNITS);
      i.max_work_group = device_value<std::size_t>(id, CL_DEVICE_MAX_WORK_GROUP_SIZE);
      i.fp64 = device_value<cl_device_fp_config>(id, CL_DEVICE_DOUBLE_FP_CONFIG) != 0;
      i.platform_index = p;
      i.index = static_cast<unsigned>(devices.size());
      devices.push_back(std::move(d));
    }
  }
  if (devices.empty()) {
    throw NoPlatformError("OpenCL platforms were found but none offers a device");
  }
  return devices;
}

}  // namespace hetflow::core
