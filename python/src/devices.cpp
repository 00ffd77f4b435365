// hetflow.devices(): the OpenCL devices as `hetflow devices` lists them.
#include <pybind11/stl.h>

#include "calls.hpp"
#include "hetflow/core/device_set.hpp"
#include "hetflow/core/probe.hpp"
#include "hetflow/core/selection.hpp"

namespace hetflow::python {

namespace py = pybind11;

void bind_devices(py::module_& m) {
  m.def(
      "devices",
      [](const std::string& select, bool bandwidth) {
        const std::vector<core::Device> devices = guarded([&] { return core::select_devices(select); });
        py::list out;
        for (const core::Device& d : devices) {
          const core::DeviceInfo& i = d.info;
          py::dict entry;
          entry["index"] = i.index;
          entry["label"] = d.label();
          entry["name"] = i.name;
          entry["type"] = core::to_string(i.kind);
          entry["platform"] = i.platform;
          entry["driver"] = i.driver;
          entry["memory_bytes"] = i.global_mem;
          entry["max_allocation_bytes"] = i.max_alloc;
          entry["compute_units"] = i.compute_units;
          entry["max_work_group"] = i.max_work_group;
          entry["opencl_c"] = i.opencl_c;
          entry["fp64"] = i.fp64;
          if (bandwidth) {
            const core::Bandwidth bw = guarded([&] {
              const core::DeviceSet set({d});
              return core::measure_bandwidth(set.compute(0));
            });
            entry["copy_GBs"] = bw.copy.median;
            entry["triad_GBs"] = bw.triad.median;
          }
          out.append(entry);
        }
        return out;
      },
      py::arg("select") = "all", py::arg("bandwidth") = false,
      R"(The OpenCL devices that `select` names, as `hetflow devices` lists them.

select: "all" (default), "auto", "gpu", "cpu", "gpu:0", "cpu:0,gpu:1", ... (docs/core.md).
bandwidth: also measure each device's copy and triad bandwidth [GB/s] (a second or two each).
Returns a list of dicts: index, label, name, type, platform, driver, memory_bytes,
max_allocation_bytes, compute_units, max_work_group, opencl_c, fp64 (and copy_GBs, triad_GBs).)");
}

}  // namespace hetflow::python
