#pragma once
#include <cstddef>
#include <span>
#include <string_view>
#include <vector>

#include "hetflow/core/device.hpp"

namespace hetflow::core {

// Device selection, shared by the API and every command's --device:
//   auto        every GPU of the platform with the most GPUs, else the first CPU device
//   all         every device
//   gpu | cpu   every device of that kind;  gpu:N | cpu:N  the N-th of that kind
//   PLATFORM    every device of the platform whose name or vendor contains PLATFORM (case-insensitive),
//               PLATFORM:N its N-th device, e.g. nvidia:0, pocl:1
//   N           the device listed as N by `hetflow devices`
//   A,B,...     the union, in order, without repeats
// Returns positions into `devices`. Throws, naming the offending term and what exists, SelectionError for
// a selection not of this form (empty, "gpu:x") and NoDeviceError for one that no device matches.
std::vector<std::size_t> select_indices(std::string_view spec, std::span<const DeviceInfo> devices);

// discover_devices() filtered by select_indices().
std::vector<Device> select_devices(std::string_view spec);

}  // namespace hetflow::core
