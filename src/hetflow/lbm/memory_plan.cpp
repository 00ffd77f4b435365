#include "hetflow/lbm/memory_plan.hpp"

#include <algorithm>
#include <cmath>

#include "hetflow/core/error.hpp"
#include "hetflow/lbm/geometry.hpp"

namespace hetflow::lbm {
namespace {

// Solver::required_bytes is its bytes per node times the nodes; in double, so no product overflows.
double required(const std::array<std::size_t, 3>& dims, const Config& config) {
  const double per_node = static_cast<double>(Solver::required_bytes({1, 1, 1}, config));
  return per_node * static_cast<double>(dims[0]) * static_cast<double>(dims[1]) * static_cast<double>(dims[2]);
}

// "lbm.storage: fp16 needs 1300 MiB per device, which fits" for a change of the config.
std::string alternative(const std::string& setting, double per_device, std::size_t device_bytes) {
  return setting + ", which needs " + mib(per_device) + " per device" +
         (per_device <= static_cast<double>(device_bytes) ? " and fits" : ", still too much alone");
}

}  // namespace

std::string mib(double bytes) { return std::to_string(static_cast<long long>(std::ceil(bytes / (1 << 20)))) + " MiB"; }

std::array<std::size_t, 3> largest_fitting(const std::array<std::size_t, 3>& dims, const Config& config, double bytes) {
  const double scale = std::cbrt(bytes / required(dims, config));
  std::array<std::size_t, 3> fit{};
  for (std::size_t d = 0; d < 3; ++d)
    fit[d] = std::max<std::size_t>(1, static_cast<std::size_t>(std::floor(static_cast<double>(dims[d]) * scale)));
  // The cube root's rounding may leave the product a node row too large: shrink the longest side.
  while (required(fit, config) > bytes && *std::max_element(fit.begin(), fit.end()) > 1)
    --*std::max_element(fit.begin(), fit.end());
  return fit;
}

std::size_t boxes_per_device(const std::array<int, 3>& dims, const Config& config, std::size_t devices,
                             std::uint64_t max_alloc) {
  for (int boxes = 1; boxes <= dims[2]; ++boxes) {
    const DeviceGrid grid(dims, config.device_grid, devices, static_cast<std::size_t>(boxes), config.device_weights);
    bool fits = true;
    for (std::size_t part = 0; part < grid.parts() && fits; ++part) {
      fits = Solver::largest_buffer(grid.local(part), config) <= max_alloc;
    }
    if (fits) return static_cast<std::size_t>(boxes);
  }
  throw core::Error("even a z-plane of the lattice per box needs more than the " + mib(static_cast<double>(max_alloc)) +
                    " a device allocates at once: split it over more devices along x or y (lbm.device_grid)");
}

std::string memory_advice(const std::array<std::size_t, 3>& dims, const Config& config, std::size_t device_bytes,
                          std::size_t devices) {
  const double capacity = static_cast<double>(device_bytes) * static_cast<double>(devices);
  const double need = required(dims, config);
  std::string advice = "what fits: a lattice of " + dims_text(largest_fitting(dims, config, capacity)) +
                       " (the same proportions) as configured";
  if (config.pattern == Pattern::ab) {
    Config aa = config;
    aa.pattern = Pattern::aa;
    advice += "; " + alternative("lbm.pattern: aa (one copy of the populations)",
                                 required(dims, aa) / static_cast<double>(devices), device_bytes);
  }
  if (config.storage != Storage::fp16) {
    Config fp16 = config;
    fp16.storage = Storage::fp16;
    advice +=
        "; " + alternative("lbm.storage: fp16", required(dims, fp16) / static_cast<double>(devices), device_bytes);
  }
  // More devices than now, even where only the halos of the current split tipped it over.
  const std::size_t needed =
      std::max(devices + 1, static_cast<std::size_t>(std::ceil(need / static_cast<double>(device_bytes))));
  advice += "; or " + std::to_string(needed) + " devices of this size (device.select, lbm.device_grid" +
            (config.pattern == Pattern::lagrangian ? ", with lbm.pattern: aa" : "") + "), " +
            mib(need / static_cast<double>(needed)) + " each";
  return advice;
}

}  // namespace hetflow::lbm
